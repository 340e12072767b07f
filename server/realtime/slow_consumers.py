"""Connections that do not take what they are sent are cut off instead of buffered for.

A stalled tab or a phone in a tunnel stops reading its websocket. The kernel's buffers fill,
then uvicorn's (its transport pauses writing at 64 KiB), and from then on Engine.IO queues every
message for that connection in memory, without limit, until its ping timeout notices (25 s +
20 s by default) — at kickoff, with a message per goal, card and stream switch for every room the
connection is in. A room's broadcast itself never waits for a slow connection (Engine.IO only
queues), so the risk is memory, not other viewers' delay.

Here a connection with `max_queued` messages still waiting is closed at once: what waits is
dropped, it leaves its rooms, and its client reconnects and joins again, which brings it the
event's current state (the page asks for the event when it rejoins). Memory per connection is
then at most `max_queued` messages plus the transport's buffer.
"""

import asyncio
import contextlib
import logging
from typing import Any

import engineio
import socketio

log = logging.getLogger(__name__)

# Messages are a few hundred bytes (a stream URL, a status, a score); a connection that is
# 256 behind is not catching up.
MAX_QUEUED_MESSAGES = 256


class BoundedEngineServer(engineio.AsyncServer):
    """Engine.IO's server with a bound on each connection's queue of messages to send."""

    def __init__(self, *args: Any, max_queued: int = MAX_QUEUED_MESSAGES, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_queued = max_queued
        self.cut_off = 0  # connections closed for being too slow, since start
        self._closing: set[asyncio.Task[None]] = set()

    async def send_packet(self, sid: str, pkt: Any) -> None:
        socket = self.sockets.get(sid)
        if socket is not None and not socket.closed and socket.queue.qsize() >= self.max_queued:
            if not socket.closing:
                self._cut_off(sid, socket)
            return
        await super().send_packet(sid, pkt)

    def _cut_off(self, sid: str, socket: Any) -> None:
        self.cut_off += 1
        log.warning("socket %s is %d messages behind: closed", sid, socket.queue.qsize())
        queue: asyncio.Queue[Any] = socket.queue
        with contextlib.suppress(asyncio.QueueEmpty):
            while True:
                queue.get_nowait()
                queue.task_done()
        queue.put_nowait(None)  # the writer ends once the transport takes its current message
        # In a task of its own: the close leaves rooms, and this runs inside a room's broadcast.
        task = asyncio.create_task(socket.close(wait=False, abort=True, reason=self.reason.SERVER_DISCONNECT))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)


class BoundedSocketServer(socketio.AsyncServer):
    """python-socketio's server on BoundedEngineServer (`max_queued` is passed through)."""

    def _engineio_server_class(self) -> type[engineio.AsyncServer]:
        return BoundedEngineServer


def cut_off_count(sio: socketio.AsyncServer) -> int:
    """How many connections this process closed for being too slow."""
    return getattr(sio.eio, "cut_off", 0)
