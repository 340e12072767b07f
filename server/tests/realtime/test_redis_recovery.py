"""The Redis fan-out outlives Redis: every server resubscribes when Redis comes back, health
says what is going on meanwhile, and messages published during the outage are sent late
rather than lost.

Real uvicorn servers (python-socketio over websockets) on a private redis-server that each test
kills, restarts or cuts off. Timings are shortened (`FAST`) so each test takes a few seconds.
"""

import asyncio
import contextlib
import inspect
import uuid
from types import SimpleNamespace

import pytest
import pytest_asyncio

from server.realtime.emitter import Emitter
from server.realtime.fanout import SUBSCRIBED
from server.realtime.health import fanout_status
from server.realtime.socket import close_socket_server, create_socket_server, start_socket_server
from server.tests.realtime.support import TcpProxy
from server.tests.realtime.test_socket import EVENT, MARKER_EVENT, Inbox, ask, open_client, serving, socket_settings

pytestmark = pytest.mark.asyncio(loop_scope="session")

FAST = {
    "ping_interval": 0.3,
    "ping_timeout": 0.5,
    "retry_initial": 0.05,
    "retry_max": 0.3,
    "connect_timeout": 0.5,
    "watchdog_interval": 0.1,
    "backlog_max_age": 10.0,
}
# Detecting a dead connection takes up to ping_interval + ping_timeout; coming back, one
# retry_max plus a ping round trip. Everything here must happen well within this.
WITHIN_S = 5


@pytest_asyncio.fixture(loop_scope="session")
async def cluster():
    """cluster(redis_url, **fanout) -> a started server on a channel shared by this test."""
    channel = f"touchline:test:{uuid.uuid4().hex[:12]}"
    async with contextlib.AsyncExitStack() as stack:

        async def start(redis_url: str, **fanout) -> SimpleNamespace:
            sio = create_socket_server(
                socket_settings(redis_url), redis_channel=channel, fanout_options={**FAST, **fanout}
            )
            stack.push_async_callback(close_socket_server, sio)
            await start_socket_server(sio)
            url = await stack.enter_async_context(serving(sio))
            return SimpleNamespace(sio=sio, url=url, emitter=Emitter(sio), manager=sio.manager)

        async def member(node: SimpleNamespace, *event_ids: str) -> Inbox:
            client = await open_client(node.url)
            stack.push_async_callback(client.disconnect)
            inbox = Inbox(client)
            for event_id in event_ids or (EVENT,):
                assert (await ask(client, "join-event-room", {"eventId": event_id}))["ok"] is True
            return inbox

        yield SimpleNamespace(start=start, member=member, channel=channel)


async def eventually(condition, timeout: float = WITHIN_S) -> None:
    """Wait until `condition()` (a bool, or an awaitable of one) holds."""

    async def holds() -> bool:
        result = condition()
        return await result if inspect.isawaitable(result) else result

    async def wait() -> None:
        while not await holds():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), timeout)


def status_is(node: SimpleNamespace, status: str):
    async def check() -> bool:
        return (await fanout_status(node.sio))["status"] == status

    return check


async def all_ok(*nodes: SimpleNamespace) -> None:
    for node in nodes:
        await eventually(status_is(node, "ok"))


def live(n: int) -> dict:
    return {"status": "live", "title": f"kick-off {n}"}


async def test_when_redis_restarts_every_server_resubscribes_and_delivery_resumes(cluster, own_redis):
    a, b = await cluster.start(own_redis.url), await cluster.start(own_redis.url)
    inbox = await cluster.member(a)
    await all_ok(a, b)

    own_redis.kill()
    for node in (a, b):
        await eventually(status_is(node, "down"))

    own_redis.start()
    await all_ok(a, b)
    assert own_redis.numsub(cluster.channel) == 2  # one subscription per server, none leaked
    await b.emitter.emit_update_event(EVENT, live(1))
    assert await inbox.next() == ("update-event", {"eventId": EVENT, **live(1)})


async def test_a_message_sent_while_redis_is_down_arrives_once_it_is_back(cluster, own_redis):
    a, b = await cluster.start(own_redis.url), await cluster.start(own_redis.url)
    member_on_a, member_on_b = await cluster.member(a), await cluster.member(b)
    await all_ok(a, b)

    own_redis.kill()
    await eventually(status_is(b, "down"))
    for n in (1, 2, 3):
        await a.emitter.emit_update_event(EVENT, live(n))
    # Members on the sending server get them at once, as without Redis.
    for n in (1, 2, 3):
        assert await member_on_a.next() == ("update-event", {"eventId": EVENT, **live(n)})

    own_redis.start()
    for n in (1, 2, 3):  # in the order they were sent
        assert await member_on_b.next() == ("update-event", {"eventId": EVENT, **live(n)})
    await all_ok(a, b)
    assert a.manager.backlog == 0 and a.manager.dropped == 0


async def test_a_message_redis_does_not_take_in_time_is_dropped_and_counted(cluster, own_redis):
    a, b = await cluster.start(own_redis.url, backlog_max_age=0.3), await cluster.start(own_redis.url)
    member_on_b = await cluster.member(b, EVENT, MARKER_EVENT)
    await all_ok(a, b)

    own_redis.kill()
    await a.emitter.emit_update_event(EVENT, live(1))
    await asyncio.sleep(0.6)  # older than backlog_max_age before Redis is back
    own_redis.start()
    await all_ok(a, b)

    await eventually(lambda: a.manager.dropped == 1)
    await a.emitter.emit_update_event(MARKER_EVENT, live(2))
    assert await member_on_b.next() == ("update-event", {"eventId": MARKER_EVENT, **live(2)})  # not live(1)


async def test_when_redis_drops_its_pubsub_clients_every_server_resubscribes(cluster, own_redis):
    a, b = await cluster.start(own_redis.url), await cluster.start(own_redis.url)
    inbox = await cluster.member(a)
    await all_ok(a, b)
    subscriptions = a.manager.subscriptions

    own_redis.client().client_kill_filter(_type="pubsub")  # what Redis does to slow or idle subscribers

    await eventually(lambda: a.manager.subscriptions > subscriptions)
    await all_ok(a, b)
    assert own_redis.numsub(cluster.channel) == 2
    await b.emitter.emit_update_event(EVENT, live(1))
    assert await inbox.next() == ("update-event", {"eventId": EVENT, **live(1)})


async def test_a_connection_that_silently_stops_answering_is_detected_and_replaced(cluster, own_redis):
    # No FIN, no RST: TCP alone would wait forever. The ping on the subscribed connection
    # notices within ping_interval + ping_timeout.
    proxy = await TcpProxy(own_redis.port).start()
    try:
        a, b = await cluster.start(proxy.url), await cluster.start(own_redis.url)
        inbox = await cluster.member(a)
        await all_ok(a, b)

        proxy.freeze()
        await eventually(status_is(a, "down"))
        assert (await fanout_status(b.sio))["status"] == "ok"

        proxy.thaw()
        await all_ok(a)
        await b.emitter.emit_update_event(EVENT, live(1))
        assert await inbox.next() == ("update-event", {"eventId": EVENT, **live(1)})
    finally:
        await proxy.aclose()


async def test_a_listener_task_that_ends_is_restarted_by_the_watchdog(cluster, own_redis):
    a, b = await cluster.start(own_redis.url), await cluster.start(own_redis.url)
    inbox = await cluster.member(a)
    await all_ok(a, b)

    a.manager.thread.cancel()  # however it ends: a bug, a stray cancellation
    await eventually(lambda: a.manager.listener_restarts == 1)
    await all_ok(a)
    assert own_redis.numsub(cluster.channel) == 2
    await b.emitter.emit_update_event(EVENT, live(1))
    assert await inbox.next() == ("update-event", {"eventId": EVENT, **live(1)})


async def test_a_server_started_while_redis_is_down_subscribes_when_it_comes_up(cluster, own_redis):
    own_redis.kill()
    a = await cluster.start(own_redis.url)
    await asyncio.sleep(0.3)
    assert (await fanout_status(a.sio))["status"] == "down"
    own_redis.start()
    await all_ok(a)


async def test_health_is_degraded_while_messages_from_this_server_wait_for_redis(cluster, own_redis):
    # A Redis account that may subscribe but not publish (a misconfigured ACL): the server
    # hears the others, but what it sends waits in its backlog.
    own_redis.client().acl_setuser(
        "listener", enabled=True, nopass=True, categories=["+@all"], commands=["-publish"], keys=["*"], channels=["*"]
    )
    a = await cluster.start(f"redis://listener@127.0.0.1:{own_redis.port}/0")
    await eventually(lambda: a.manager.state == SUBSCRIBED)

    await a.emitter.emit_update_event(EVENT, live(1))
    assert a.manager.backlog == 1
    assert await fanout_status(a.sio) == {"manager": "redis", "status": "degraded"}

    own_redis.client().acl_setuser("listener", commands=["+publish"])
    await all_ok(a)
    assert a.manager.backlog == 0
