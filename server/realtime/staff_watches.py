"""Staff connections watching rooms, and what taking the staff role away does to them.

A connection whose `watch-room` is allowed (server.realtime.socket, which reads the account's
current role from the database, not the access token's claim) is also put in the room
`watcher:<userId>`. Clients never join or leave it, asyncapi/asyncapi.yaml names no such room and
no message is sent to it. When an account is given a role that may not watch, its watcher room is
closed (`Emitter.end_staff_watches`, called by server.realtime.announcements once the change is
committed). Closing it, in the process that changed the role or in any other one through Redis
(server.realtime.fanout), disconnects that process's watching connections of the account, which
takes them out of every room they watch, and drops the process's belief about the account's
sessions (server.auth.standing, which carries the role), as staff_access does for REST at once.
A process that hears nothing (Redis down) finds out on its next session sweep (`sweep_here`,
server.realtime.session_rooms), as for ended sessions.
"""

import contextlib
from typing import Any

import socketio
from sqlalchemy import select

from ..auth import standing
from ..auth.tokens import STAFF_ROLES
from ..models import User

PREFIX = "watcher:"
NAMESPACE = "/"


def watcher_room(user_id: str) -> str:
    return f"{PREFIX}{user_id}"


def watcher_of(room: Any) -> str | None:
    """The account a watcher room belongs to, None for any other room."""
    if isinstance(room, str) and room.startswith(PREFIX) and len(room) > len(PREFIX):
        return room[len(PREFIX) :]
    return None


async def close_here(manager: socketio.AsyncManager, room: Any, namespace: str | None) -> bool:
    """What closing a watcher room means in this process (see above); False for any other room."""
    user_id = watcher_of(room)
    if user_id is None:
        return False
    standing.default.forget_account(user_id)
    namespace = namespace or NAMESPACE
    for sid in list(manager.rooms.get(namespace, {}).get(room) or ()):
        with contextlib.suppress(Exception):  # one that is already going does not stop the others
            await manager.server.disconnect(sid, namespace=namespace, ignore_queue=True)
    return True


async def sweep_here(manager: socketio.AsyncManager, database: Any) -> int:
    """Close (here) the watcher rooms of accounts that are no longer staff, or gone; how many."""
    watchers = [user_id for user_id in map(watcher_of, list(manager.rooms.get(NAMESPACE, {}))) if user_id]
    if not watchers:
        return 0
    async with database.session() as db:
        staff = set(
            await db.scalars(
                select(User.id).where(User.id.in_(watchers), User.role.in_(STAFF_ROLES), User.deleted_at.is_(None))
            )
        )
    demoted = [user_id for user_id in watchers if user_id not in staff]
    for user_id in demoted:
        await close_here(manager, watcher_room(user_id), NAMESPACE)
    return len(demoted)
