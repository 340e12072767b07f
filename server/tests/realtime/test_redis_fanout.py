"""With Redis, a message emitted anywhere reaches room members on every server process.

Skips when no Redis answers, unless REQUIRE_REDIS=1 (CI), where it fails.
"""

import asyncio
import os
import uuid
from types import SimpleNamespace

import pytest
import redis
import socketio

from server.realtime.emitter import external_emitter
from server.realtime.health import fanout_status
from server.realtime.socket import close_socket_server, create_socket_server
from server.tests.realtime.test_socket import EVENT, free_port

REDIS_URL = os.environ.get("TOUCHLINE_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="module")
def redis_url():
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.RedisError as exc:
        if os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail(f"Redis is required (REQUIRE_REDIS=1) but unreachable: {exc}")
        pytest.skip(f"Redis unreachable: {exc}")
    return REDIS_URL


async def start(sio):
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(socketio.ASGIApp(sio, socketio_path="ws"), host="127.0.0.1", port=port,
                                           lifespan="off", log_level="warning", ws_per_message_deflate=False))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    return server, task, f"http://127.0.0.1:{port}"


async def test_a_message_published_through_redis_reaches_a_member_on_another_server(redis_url):
    channel = f"touchline:test:{uuid.uuid4().hex[:8]}"
    settings = SimpleNamespace(redis_url=redis_url)
    first, second = (create_socket_server(settings, redis_channel=channel) for _ in range(2))
    running = [await start(first), await start(second)]
    client = socketio.AsyncClient(reconnection=False)
    received: asyncio.Queue = asyncio.Queue()
    client.on("update-event", received.put_nowait)
    try:
        await client.connect(running[1][2], transports=["websocket"], socketio_path="ws", wait_timeout=5)
        await client.call("join-event-room", {"eventId": EVENT}, timeout=5)
        async with external_emitter(redis_url, channel) as out:
            deadline = asyncio.get_running_loop().time() + 5
            while await out.listeners() < 1:  # a server subscribes once its first client connects
                assert asyncio.get_running_loop().time() < deadline, "servers never subscribed"
                await asyncio.sleep(0.05)
            await out.emit_update_event(EVENT, {"status": "live"})
        assert await asyncio.wait_for(received.get(), 5) == {"eventId": EVENT, "status": "live"}
        assert await fanout_status(second) == {"manager": "redis", "status": "ok"}
    finally:
        await client.disconnect()
        for server, task, _url in running:
            server.should_exit = True
            await task
        for sio in (first, second):
            await close_socket_server(sio)


async def test_fanout_is_down_once_the_listener_has_stopped(redis_url):
    sio = create_socket_server(SimpleNamespace(redis_url=redis_url), redis_channel=f"touchline:test:{uuid.uuid4().hex[:8]}")
    server, task, url = await start(sio)
    try:
        assert await fanout_status(sio) == {"manager": "redis", "status": "ok"}  # idle: nobody to deliver to
        client = socketio.AsyncClient(reconnection=False)
        await client.connect(url, transports=["websocket"], socketio_path="ws", wait_timeout=5)
        await client.disconnect()
        await close_socket_server(sio)
        assert (await fanout_status(sio))["status"] == "down"
    finally:
        server.should_exit = True
        await task
