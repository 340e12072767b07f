"""Whether a sign-in session still stands, asked by everything that takes an access token.

A session stands until it is revoked (logout, a removed device, refresh-token reuse, ending the
other sessions, a password reset, staff), deleted (with its device, or its account) or past its
`expires_at`, and while its account is not deleted. `session_alive` asks the database; the API
asks it on every secured request (server.api.http.context), the socket at the handshake and on
joining the user room (server.realtime.socket).

The media routes serve every playlist and segment of a stream, and a kickoff brings every viewer's
API calls at once, so both ask `SessionLiveness` instead: a per-process cache that believes a
standing session (with its account's role and device) for STANDING_SECONDS (2 s) and an ended one
for ever (sessions never come back). When a session ends, `ended()` forgets it at once: the
process that ended it calls it, and so does every other process that hears the socket's
`session:<id>` room closing through Redis (server.realtime.session_rooms). So the process that
ends a session refuses its token at once; another process refuses it as soon as Redis tells it,
and within STANDING_SECONDS when it hears nothing (no Redis, or Redis down). Staff operations do
not use the belief: a role's change takes effect on the next call (server.api.http.staff_access).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database
from ..models import AuthSession, User
from ..single_flight import SingleFlight

log = logging.getLogger(__name__)

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
    row = (await db.execute(_ALIVE, _alive_parameters(user_id, session_id))).first()
    return Alive(row.role, row.device_ref) if row else None


# Built once, its values as parameters: building and keying a statement per call cost more than
# running it.
_ALIVE = (
    select(User.role, AuthSession.device_ref)
    .join(User, User.id == AuthSession.user_id)
    .where(
        AuthSession.id == bindparam("session_id"),
        AuthSession.user_id == bindparam("user_id"),
        AuthSession.revoked_at.is_(None),
        AuthSession.expires_at > bindparam("now"),
        User.deleted_at.is_(None),
    )
)


def _alive_parameters(user_id: str, session_id: str) -> dict:
    return {"session_id": session_id, "user_id": user_id, "now": clock.now()}


async def ask_database(database: Database, user_id: str, session_id: str) -> Alive | None:
    """`session_alive` as one quick read (Database.read_rows), for the belief below."""
    rows = await database.read_rows(_ALIVE, _alive_parameters(user_id, session_id))
    return Alive(rows[0].role, rows[0].device_ref) if rows else None


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


@dataclass
class _Belief:
    user_id: str
    alive: Alive
    until: float  # believed without asking until then: `seconds` after the database last said so
    database: Database  # which database said so (a process may serve several in tests)
    used: bool = False  # asked for since then: worth confirming ahead of `until` (`confirm_due`)


class SessionLiveness:
    """This process's belief about sessions: standing ones for `seconds`, ended ones for ever
    (both bounded in number, the oldest forgotten first)."""

    def __init__(self, seconds: float = STANDING_SECONDS, entries: int = STANDING_ENTRIES):
        self.seconds = seconds
        self.entries = entries
        self._standing: OrderedDict[str, _Belief] = OrderedDict()
        self._ended: OrderedDict[str, None] = OrderedDict()
        self._asking: SingleFlight[Alive | None] = SingleFlight()  # one question per session at a time

    async def standing(self, database: Database, user_id: str, session_id: str | None) -> bool:
        """Whether `user_id`'s session `session_id` stands; raises SessionsUnavailable when the
        database cannot tell."""
        try:
            return await self.alive(database, user_id, session_id) is not None
        except Exception as exc:
            raise SessionsUnavailable(str(exc)) from exc

    async def alive(self, database: Database, user_id: str, session_id: str | None) -> Alive | None:
        """`user_id`'s session `session_id` with its role and device while it stands, believed for
        `seconds` once the database said so; the database's errors pass through."""
        if not session_id or session_id in self._ended:
            return None
        now = clock.timestamp()
        known = self._standing.get(session_id)
        if known is not None and known.user_id == user_id and now < known.until:
            known.used = True
            return known.alive

        alive = await self._asking.run((user_id, session_id), lambda: ask_database(database, user_id, session_id))
        if alive is None or session_id in self._ended:  # ... or it ended while we asked
            self._forget(session_id)
            return None
        self._standing[session_id] = _Belief(user_id, alive, now + self.seconds, database)
        self._standing.move_to_end(session_id)
        while len(self._standing) > self.entries:
            self._standing.popitem(last=False)
        return alive

    async def confirm_due(self, database: Database, within: float) -> list[str]:
        """Ask `database` at once, in batches, about the sessions in use whose belief runs out
        within `within` seconds: a kickoff crowd's requests then find their sessions believed
        instead of each asking on its own. What still stands is believed `seconds` more; what
        does not is forgotten as ended. Answers the sessions asked about."""
        now = clock.timestamp()
        due = {
            sid: belief
            for sid, belief in self._standing.items()
            if belief.database is database and belief.used and belief.until - now <= within
        }
        if not due:
            return []
        async with database.session() as db:
            standing = await standing_sessions(db, due)
        for sid, belief in due.items():
            if sid in self._ended:
                continue
            if sid in standing:
                belief.until, belief.used = now + self.seconds, False
            else:
                self._forget(sid)
        return list(due)

    async def keep_confirmed(self, database: Database) -> None:
        """Run `confirm_due` every half `seconds` until cancelled (the app's lifespan runs it)."""
        while True:
            await asyncio.sleep(self.seconds / 2)
            try:
                await self.confirm_due(database, within=self.seconds / 2 + 0.1)
            except Exception:  # the database is down: requests ask (and answer 503) themselves
                log.warning("could not confirm the sessions in use", exc_info=True)

    def ended(self, session_ids: Iterable[str]) -> None:
        """These sessions have ended: refuse them from now on, without asking."""
        for session_id in session_ids:
            self._forget(session_id)

    def forget_account(self, user_id: str) -> None:
        """The account changed (its role): ask the database again about its sessions, which are
        not ended for that."""
        for session_id in [sid for sid, belief in self._standing.items() if belief.user_id == user_id]:
            self._standing.pop(session_id, None)

    def _forget(self, session_id: str) -> None:
        self._standing.pop(session_id, None)
        self._ended[session_id] = None
        self._ended.move_to_end(session_id)
        while len(self._ended) > ENDED_ENTRIES:
            self._ended.popitem(last=False)


# The process's one belief, shared by its API, media routes and socket server.
default = SessionLiveness()
