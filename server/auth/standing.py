"""Whether a sign-in session still stands, asked by everything that takes an access token.

A session stands until it is revoked (logout, a removed device, refresh-token reuse, ending the
other sessions, a password reset, staff), deleted (with its device, or its account) or past its
`expires_at`, and while its account is not deleted. `session_alive` asks the database; the API
asks it on every secured request (server.api.http.context), the socket at the handshake and on
joining the user room (server.realtime.socket).

The media routes serve every playlist and segment of a stream, many per second per viewer, so
they ask `SessionLiveness` instead: a per-process cache that believes a standing session for
STANDING_SECONDS (2 s) and an ended one for ever (sessions never come back). When a session ends,
`ended()` forgets it at once: the process that ended it calls it, and so does every other process
that hears the socket's `session:<id>` room closing through Redis (server.realtime.session_rooms).
A process that hears nothing (no Redis, or Redis down) refuses the session's streams within
STANDING_SECONDS of its end.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database
from ..models import AuthSession, User

# How long a process believes, without asking again, that a session stands.
STANDING_SECONDS = 2.0
# Sessions remembered per process (each entry is a few dozen bytes).
STANDING_ENTRIES = 65_536
ENDED_ENTRIES = 65_536
# Ids per query when many sessions are checked at once (the socket's sweep).
BATCH = 500


@dataclass(frozen=True)
class Alive:
    role: str
    device_ref: str


def _standing_now() -> list:
    return [AuthSession.revoked_at.is_(None), AuthSession.expires_at > clock.now(), User.deleted_at.is_(None)]


async def session_alive(db: AsyncSession, user_id: str, session_id: str | None) -> Alive | None:
    """The session behind an access token, if it still stands (not revoked, expired or deleted)."""
    if not session_id:
        return None
    row = (
        await db.execute(
            select(User.role, AuthSession.device_ref)
            .join(User, User.id == AuthSession.user_id)
            .where(AuthSession.id == session_id, AuthSession.user_id == user_id, *_standing_now())
        )
    ).first()
    return Alive(row.role, row.device_ref) if row else None


async def standing_sessions(db: AsyncSession, session_ids: Iterable[str]) -> set[str]:
    """Which of `session_ids` still stand (one query per BATCH ids)."""
    wanted = list(dict.fromkeys(session_ids))
    standing: set[str] = set()
    for at in range(0, len(wanted), BATCH):
        chunk = wanted[at : at + BATCH]
        rows = await db.scalars(
            select(AuthSession.id)
            .join(User, User.id == AuthSession.user_id)
            .where(AuthSession.id.in_(chunk), *_standing_now())
        )
        standing.update(rows)
    return standing


class SessionsUnavailable(Exception):
    """The database did not answer: whether the session stands is unknown."""


class SessionLiveness:
    """This process's belief about sessions: standing ones for `seconds`, ended ones for ever
    (both bounded in number, the oldest forgotten first)."""

    def __init__(self, seconds: float = STANDING_SECONDS, entries: int = STANDING_ENTRIES):
        self.seconds = seconds
        self.entries = entries
        self._standing: OrderedDict[str, tuple[str, float]] = OrderedDict()  # sid -> (user, until)
        self._ended: OrderedDict[str, None] = OrderedDict()

    async def standing(self, database: Database, user_id: str, session_id: str | None) -> bool:
        """Whether `user_id`'s session `session_id` stands; raises SessionsUnavailable when the
        database cannot tell."""
        if not session_id or session_id in self._ended:
            return False
        now = clock.timestamp()
        known = self._standing.get(session_id)
        if known is not None and known[0] == user_id and now < known[1]:
            return True
        try:
            async with database.session() as db:
                alive = await session_alive(db, user_id, session_id)
        except Exception as exc:
            raise SessionsUnavailable(str(exc)) from exc
        if alive is None:
            self._forget(session_id)
            return False
        self._standing[session_id] = (user_id, now + self.seconds)
        self._standing.move_to_end(session_id)
        while len(self._standing) > self.entries:
            self._standing.popitem(last=False)
        return True

    def ended(self, session_ids: Iterable[str]) -> None:
        """These sessions have ended: refuse them from now on, without asking."""
        for session_id in session_ids:
            self._forget(session_id)

    def _forget(self, session_id: str) -> None:
        self._standing.pop(session_id, None)
        self._ended[session_id] = None
        self._ended.move_to_end(session_id)
        while len(self._ended) > ENDED_ENTRIES:
            self._ended.popitem(last=False)


# The process's one belief, shared by its media routes and its socket server.
default = SessionLiveness()
