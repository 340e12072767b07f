"""With Redis, a message emitted anywhere reaches room members on every server process.

Each test runs real uvicorn servers sharing a Redis channel of its own, on a private
redis-server (conftest). Skips without redis-server, unless REQUIRE_REDIS=1 (CI): then it fails.
"""

import asyncio
import contextlib
import uuid
from types import SimpleNamespace

import pytest
import pytest_asyncio
import socketio

from server.realtime.emitter import Emitter, external_emitter
from server.realtime.health import fanout_status
from server.realtime.socket import close_socket_server, create_socket_server, start_socket_server
from server.tests.realtime.test_socket import (
    EVENT,
    MARKER_EVENT,
    TIMEOUT_S,
    Inbox,
    ask,
    open_client,
    serving,
    socket_settings,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def redis_url(redis_server):
    return redis_server.url


@pytest.fixture
def channel():
    return f"touchline:test:{uuid.uuid4().hex[:12]}"


@pytest_asyncio.fixture(loop_scope="session")
async def cluster(redis_url, channel):
    """cluster(n) -> n running socket servers sharing `channel`; clients and servers closed after."""
    async with contextlib.AsyncExitStack() as stack:

        async def start(count: int, *, started: bool = True) -> list[SimpleNamespace]:
            nodes = []
            for _ in range(count):
                sio = create_socket_server(socket_settings(redis_url), redis_channel=channel)
                stack.push_async_callback(close_socket_server, sio)  # after uvicorn has stopped
                if started:
                    await start_socket_server(sio)  # what the app's lifespan does
                url = await stack.enter_async_context(serving(sio))
                nodes.append(SimpleNamespace(sio=sio, url=url, emitter=Emitter(sio)))
            return nodes

        async def connect(node: SimpleNamespace) -> socketio.AsyncClient:
            client = await open_client(node.url)
            stack.push_async_callback(client.disconnect)  # before its server stops
            return client

        yield SimpleNamespace(start=start, connect=connect)


async def subscribed(redis_url: str, channel: str, servers: int) -> None:
    """Wait until `servers` processes listen on `channel` (they subscribe as they start; a
    message published before would not reach them)."""
    async with external_emitter(redis_url, channel) as probe:

        async def listening() -> None:
            while await probe.listeners() < servers:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(listening(), TIMEOUT_S)


async def test_a_message_from_an_external_emitter_reaches_members_on_every_server(cluster, redis_url, channel):
    a, b = await cluster.start(2)
    member_a, member_b = await cluster.connect(a), await cluster.connect(b)
    inboxes = [Inbox(member_a), Inbox(member_b)]
    for client in (member_a, member_b):
        assert (await ask(client, "join-event-room", {"eventId": EVENT}))["ok"] is True
    await subscribed(redis_url, channel, 2)

    async with external_emitter(redis_url, channel) as out:
        assert await out.emit_update_event(EVENT, {"status": "live"}) is True

    for inbox in inboxes:
        assert await inbox.next() == ("update-event", {"eventId": EVENT, "status": "live"})


async def test_a_message_emitted_on_one_server_reaches_members_on_the_others_once(cluster, redis_url, channel):
    a, b = await cluster.start(2)
    member_a, member_b, outsider_b = await cluster.connect(a), await cluster.connect(b), await cluster.connect(b)
    inbox_a, inbox_b, inbox_outsider = Inbox(member_a), Inbox(member_b), Inbox(outsider_b)
    for client in (member_a, member_b, outsider_b):
        await ask(client, "join-event-room", {"eventId": MARKER_EVENT})
    for client in (member_a, member_b):
        await ask(client, "join-event-room", {"eventId": EVENT})
    await subscribed(redis_url, channel, 2)

    await a.emitter.emit_update_event(EVENT, {"status": "live"})
    await a.emitter.emit_update_event(MARKER_EVENT, {"status": "archived"})

    # Per connection, both messages travel the same path in order: a member sees EVENT then the
    # marker (a duplicate of EVENT, e.g. A delivering its own message again from Redis, would come
    # between them); the outsider sees the marker first.
    marker = ("update-event", {"eventId": MARKER_EVENT, "status": "archived"})
    for inbox in (inbox_a, inbox_b):
        assert await inbox.next() == ("update-event", {"eventId": EVENT, "status": "live"})
        assert await inbox.next() == marker
    assert await inbox_outsider.next() == marker


async def until_status(sio: socketio.AsyncServer, status: str, timeout: float = TIMEOUT_S) -> None:
    async def reached() -> None:
        while (await fanout_status(sio))["status"] != status:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(reached(), timeout)


async def test_a_started_server_subscribes_before_any_client_connects(cluster, redis_url, channel):
    [node] = await cluster.start(1)
    await subscribed(redis_url, channel, 1)
    await until_status(node.sio, "ok")


async def test_a_server_that_was_not_started_subscribes_with_its_first_client(cluster, redis_url, channel):
    # python-socketio's own behaviour when nobody called start_socket_server (no lifespan):
    # the process does not hear other processes yet, and says so.
    [node] = await cluster.start(1, started=False)
    assert await fanout_status(node.sio) == {"manager": "redis", "status": "down"}
    await cluster.connect(node)
    await subscribed(redis_url, channel, 1)
    await until_status(node.sio, "ok")


async def test_fanout_health_is_down_once_the_listener_has_stopped(cluster, redis_url, channel):
    [node] = await cluster.start(1)
    await until_status(node.sio, "ok")
    await close_socket_server(node.sio)  # stops the listener: messages from elsewhere no longer arrive
    assert await fanout_status(node.sio) == {"manager": "redis", "status": "down"}
