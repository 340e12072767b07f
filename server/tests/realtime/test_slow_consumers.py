"""A connection that stops reading is cut off instead of buffered for, and the viewers in its
room keep getting every message on time.

A real uvicorn server (wsproto, as `touchline serve` runs it); the stalled viewer is a raw
websocket client that joins a room and then stops reading, with a small receive buffer so the
kernel takes little of what is sent to it.
"""

import asyncio
import json
import socket
import time

import pytest
import socketio
from websockets.asyncio.client import ClientConnection, connect

from server.realtime.slow_consumers import cut_off_count
from server.realtime.socket import close_socket_server, create_socket_server, start_socket_server
from server.tests.realtime.test_socket import EVENT, TIMEOUT_S, open_client, serving, socket_settings

pytestmark = pytest.mark.asyncio(loop_scope="session")

ROOM = f"event:{EVENT}"
MAX_QUEUED = 64
MESSAGES = 4000
PAYLOAD = "x" * 4000  # 16 MB in all: more than loopback's socket buffers can hold


async def stalled_viewer(url: str) -> ClientConnection:
    """A viewer joined to the room that will never read again."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((url.split("//")[1].split(":")[0], int(url.rsplit(":", 1)[1])))
    ws = await connect(
        url.replace("http", "ws") + "/ws/?EIO=4&transport=websocket",
        sock=sock,
        compression=None,
        ping_interval=None,
        max_queue=1,  # the client stops reading the socket once one message waits
    )
    assert str(await ws.recv()).startswith("0")  # Engine.IO open
    await ws.send("40")
    assert str(await ws.recv()).startswith("40")  # Socket.IO connect
    await ws.send("420" + json.dumps(["join-event-room", {"eventId": EVENT}]))
    ack = str(await ws.recv())  # 430["<the ack's JSON string>"]
    assert json.loads(json.loads(ack[3:])[0])["ok"] is True, ack
    return ws


def queued(sio: socketio.AsyncServer) -> int:
    """The longest queue of messages waiting for one connection."""
    return max((s.queue.qsize() for s in sio.eio.sockets.values()), default=0)


async def broadcast(sio: socketio.AsyncServer) -> tuple[int, float]:
    """Send MESSAGES to the room as fast as the loop allows; the longest queue seen, the time
    the last one was sent."""
    longest = 0
    for n in range(MESSAGES):
        await sio.emit("update-event", {"n": n, "filler": PAYLOAD}, room=ROOM)
        if n % 20 == 0:
            longest = max(longest, queued(sio))
            await asyncio.sleep(0)  # let writers and readers run, as between real messages
    return max(longest, queued(sio)), time.monotonic()


async def run_with(max_queued: int) -> tuple[socketio.AsyncServer, list[int], int, float, float]:
    sio = create_socket_server(socket_settings(), max_queued_messages=max_queued)
    await start_socket_server(sio)
    received: list[int] = []
    done = asyncio.Event()

    def on_update(data: dict) -> None:
        received.append(data["n"])
        if len(received) == MESSAGES:
            done.set()

    try:
        async with serving(sio, ws="wsproto") as url:
            stalled = await stalled_viewer(url)
            viewer = await open_client(url)
            viewer.on("update-event", on_update)
            assert '"ok": true' in await viewer.call("join-event-room", {"eventId": EVENT}, timeout=TIMEOUT_S)
            longest, last_sent = await broadcast(sio)
            await asyncio.wait_for(done.wait(), 30)
            lag = time.monotonic() - last_sent
            participants = len(list(sio.manager.get_participants("/", ROOM)))
            await viewer.disconnect()
            stalled.transport.abort()
            return sio, received, longest, lag, participants
    finally:
        await close_socket_server(sio)


async def test_a_connection_that_stops_reading_is_cut_off_and_others_get_everything_on_time():
    sio, received, longest, lag, participants = await run_with(MAX_QUEUED)

    assert longest <= MAX_QUEUED  # what waits in memory for the stalled viewer stays bounded
    assert cut_off_count(sio) == 1
    assert participants == 1  # the stalled viewer left the room; the other one is still in it
    assert received == list(range(MESSAGES))  # every message, in order
    assert lag < 5


async def test_without_a_bound_a_stalled_connections_queue_grows_with_what_is_sent():
    # The danger the bound removes: Engine.IO alone queues for a stalled connection until its
    # ping timeout, whatever is sent meanwhile.
    sio, received, longest, _lag, participants = await run_with(10**9)

    assert longest > 10 * MAX_QUEUED
    assert cut_off_count(sio) == 0
    assert participants == 2
    assert received == list(range(MESSAGES))
