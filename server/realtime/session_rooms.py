"""The sockets of a sign-in session, and what ending the session does to them.

Every connection whose handshake token names a session is put in the room `session:<id>`
(server.realtime.socket). Clients never join or leave it: asyncapi/asyncapi.yaml names no such
room and no message is ever sent to it. Ending a session closes its room (`Emitter.end_sessions`,
called by server.realtime.announcements once the end is committed), and closing a session room
in a process

- makes that process's media routes refuse the session's streams from now on
  (server.auth.standing `default.ended`), and
- disconnects that process's connections in the room (the client sees "io server disconnect"),
  which takes them out of every room, the user room included: they receive nothing more.

Closing a room is python-socketio's `close_room`: with REDIS_URL it is published like any
message (server.realtime.fanout), so every process does both at once; without Redis only the
process that ended the session does. Besides, every process sweeps its own connections every
SESSION_SWEEP_SECONDS: one query tells which of their sessions still stand, and the rooms of the
others are closed in that process. So a session's sockets are closed at once where it ended (and
everywhere with Redis), and within SESSION_SWEEP_SECONDS anywhere (Redis down, another
deployment's process, a session that merely expired).
"""

import asyncio
import contextlib
import logging
from typing import Any

import socketio

from ..auth import standing
from . import signals, staff_watches
from .room_book import CompactRooms

log = logging.getLogger(__name__)

PREFIX = "session:"
NAMESPACE = "/"
# How often each process checks that its connections' sessions still stand.
SESSION_SWEEP_SECONDS = 5.0


def session_room(session_id: str) -> str:
    return f"{PREFIX}{session_id}"


def session_of(room: Any) -> str | None:
    """The session a room belongs to, None for any other room."""
    if isinstance(room, str) and room.startswith(PREFIX) and len(room) > len(PREFIX):
        return room[len(PREFIX) :]
    return None


async def close_here(manager: socketio.AsyncManager, room: Any, namespace: str | None) -> None:
    """What closing a room means in this process: a session room's streams are refused and its
    connections here are disconnected; a signal room's listeners run (server.realtime.signals);
    a watcher room's connections are disconnected (server.realtime.staff_watches); nothing for
    other rooms."""
    if signals.heard(room) or await staff_watches.close_here(manager, room, namespace):
        return
    session_id = session_of(room)
    if session_id is None:
        return
    standing.default.ended([session_id])
    namespace = namespace or NAMESPACE
    participants = list(manager.rooms.get(namespace, {}).get(room) or ())
    for sid in participants:
        with contextlib.suppress(Exception):  # one that is already going does not stop the others
            await manager.server.disconnect(sid, namespace=namespace, ignore_queue=True)


class LocalManager(CompactRooms, socketio.AsyncManager):
    """The rooms of a process without Redis, where closing a session room ends its sockets."""

    async def close_room(self, room: Any, namespace: str | None) -> Any:
        await close_here(self, room, namespace)
        return await super().close_room(room, namespace)


def local_session_ids(manager: socketio.AsyncManager) -> list[str]:
    """The sessions of this process's connections (their rooms are the manager's own)."""
    rooms = manager.rooms.get(NAMESPACE, {})
    return [session_id for session_id in map(session_of, list(rooms)) if session_id is not None]


class SessionSweeper:
    """Every `interval` seconds, closes (here) the rooms of this process's sessions that no longer
    stand in `database`."""

    def __init__(self, sio: socketio.AsyncServer, database: Any, interval: float = SESSION_SWEEP_SECONDS):
        self.sio = sio
        self.database = database
        self.interval = interval
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            await asyncio.wait([self.task])
        self.task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next sweep tries again
                log.warning("socket: could not check the sessions of this process's connections: %s", exc)

    async def sweep(self) -> int:
        """Close the rooms of the sessions that ended, and the watches of accounts that are no
        longer staff (a role change this process did not hear of); how many rooms."""
        manager = self.sio.manager
        cut = await staff_watches.sweep_here(manager, self.database)
        session_ids = local_session_ids(manager)
        if not session_ids:
            return cut
        async with self.database.session() as db:
            alive = await standing.standing_sessions(db, session_ids)
        ended = [session_id for session_id in session_ids if session_id not in alive]
        for session_id in ended:
            await close_here(manager, session_room(session_id), NAMESPACE)
        return len(ended) + cut
