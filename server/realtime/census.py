"""How many sockets each server process holds, and in which event rooms, summed over every
process that shares a Redis: for GET /api/health and the staff dashboard.

python-socketio's managers know the members of their own process's rooms only, and Redis
carries messages, not membership. So each process writes its own census (connected sockets and
the size of each `event:<id>` room) to a Redis key of its own every CENSUS_SECONDS, with a TTL
of CENSUS_TTL_SECONDS so a process that died drops out; readers add up every process's key,
with their own process's figures taken live. Another process's figures are at most
CENSUS_SECONDS old. Without Redis, or when Redis does not answer, the figures are this
process's (`scope: process`).
"""

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

import socketio

log = logging.getLogger(__name__)

NAMESPACE = "/"
KEY_PREFIX = "touchline:census:"
WATCHING_PREFIX = "watching:"
CENSUS_SECONDS = 2.0
CENSUS_TTL_SECONDS = 3 * CENSUS_SECONDS
ROOM_PREFIX = "event:"
READ_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class Census:
    scope: str  # cluster: every process sharing Redis; process: this one only
    connected: int
    processes: int
    rooms: dict[str, int] = field(default_factory=dict)
    # event id -> the signed-in viewers with a socket in its room (the event's page is open)
    watching: dict[str, set[str]] = field(default_factory=dict)

    def room(self, name: str) -> int:
        return self.rooms.get(name, 0)


def watching_room(event_id: str, user_id: str) -> str:
    """The room a signed-in viewer's socket is in while in `event:<event_id>` (server.realtime.socket)."""
    return f"{WATCHING_PREFIX}{event_id}:{user_id}"


def _add_watching(into: dict[str, set[str]], event_id: str, users: Any) -> None:
    into.setdefault(event_id, set()).update(str(user) for user in users)


def manager_kind(sio: socketio.AsyncServer | None) -> str:
    if sio is None:
        return "none"
    return "redis" if isinstance(sio.manager, socketio.AsyncRedisManager) else "in_process"


def local(sio: socketio.AsyncServer | None) -> Census:
    """This process's sockets and event rooms (each socket is in the room None of its namespace)."""
    if sio is None:
        return Census("process", 0, 1)
    rooms = getattr(sio.manager, "rooms", {}).get(NAMESPACE, {})
    sizes = {name: len(members) for name, members in list(rooms.items()) if _counted(name) and members}
    watching: dict[str, set[str]] = {}
    for name, members in list(rooms.items()):
        if isinstance(name, str) and name.startswith(WATCHING_PREFIX) and members:
            event_id, _, user_id = name[len(WATCHING_PREFIX) :].partition(":")
            _add_watching(watching, event_id, [user_id])
    return Census("process", len(rooms.get(None, ())), 1, sizes, watching)


def _counted(room: Any) -> bool:
    return isinstance(room, str) and room.startswith(ROOM_PREFIX)


def _key(host_id: str) -> str:
    return f"{KEY_PREFIX}{host_id}"


async def write(redis: Any, host_id: str, census: Census) -> None:
    watching = {event_id: sorted(users) for event_id, users in census.watching.items()}
    payload = json.dumps(
        {"connected": census.connected, "rooms": census.rooms, "watching": watching}, separators=(",", ":")
    )
    await redis.set(_key(host_id), payload, ex=int(CENSUS_TTL_SECONDS))


async def cluster(redis: Any, host_id: str, here: Census) -> Census:
    """Every live process's census added up, this process's taken from `here` (not from Redis)."""
    keys = [key async for key in redis.scan_iter(match=f"{KEY_PREFIX}*", count=500)]
    own = _key(host_id).encode()
    others = [k for k in keys if (k if isinstance(k, bytes) else k.encode()) != own]
    connected, rooms, processes = here.connected, dict(here.rooms), 1
    watching = {event_id: set(users) for event_id, users in here.watching.items()}
    for raw in await redis.mget(others) if others else []:
        if raw is None:  # expired between SCAN and MGET: that process is gone
            continue
        try:
            entry = json.loads(raw)
            connected += int(entry.get("connected", 0))
            for name, size in (entry.get("rooms") or {}).items():
                rooms[name] = rooms.get(name, 0) + int(size)
            for event_id, users in (entry.get("watching") or {}).items():
                _add_watching(watching, event_id, users)
        except (ValueError, TypeError, AttributeError):
            log.warning("socket census: ignoring an unreadable entry")
            continue
        processes += 1
    return Census("cluster", connected, processes, rooms, watching)


class CensusWriter:
    """Writes this process's census to Redis every `interval` seconds until stopped, and reads
    the cluster's. Failures are logged once per outage; the next round tries again."""

    def __init__(self, sio: socketio.AsyncServer, redis_factory: Any, host_id: str, interval: float = CENSUS_SECONDS):
        self.sio = sio
        self._redis_factory = redis_factory
        self.host_id = host_id
        self.interval = interval
        self._redis: Any = None
        self._task: asyncio.Task | None = None
        self._failing = False

    @property
    def redis(self) -> Any:
        if self._redis is None:
            self._redis = self._redis_factory()
        return self._redis

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await asyncio.wait_for(write(self.redis, self.host_id, local(self.sio)), READ_TIMEOUT_S)
                if self._failing:
                    log.warning("socket census: writing to Redis again")
                self._failing = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self._failing:
                    log.warning("socket census: cannot write to Redis (%s); retrying", exc)
                self._failing = True
            await asyncio.sleep(self.interval)

    async def read(self) -> Census:
        here = local(self.sio)
        try:
            return await asyncio.wait_for(cluster(self.redis, self.host_id, here), READ_TIMEOUT_S)
        except Exception as exc:  # Redis down: this process's figures, labelled as such
            log.warning("socket census: cannot read the other processes' counts (%s)", exc)
            return here

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.delete(_key(self.host_id))
            with contextlib.suppress(Exception):
                await self._redis.aclose()
            self._redis = None


async def count(sio: socketio.AsyncServer | None) -> Census:
    """The census for the answers: the cluster's when this process writes one to Redis."""
    writer = getattr(getattr(sio, "manager", None), "census", None)
    if isinstance(writer, CensusWriter):
        return await writer.read()
    return local(sio)


async def watching(sio: socketio.AsyncServer | None, event_id: str) -> set[str]:
    """The signed-in viewers with the event's page open, in every process (another process's
    figures are at most CENSUS_SECONDS old)."""
    return set((await count(sio)).watching.get(event_id, ()))
