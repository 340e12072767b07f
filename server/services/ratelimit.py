"""Sliding-window attempt counters in the database, shared by every server process.

`hit()` counts one attempt and raises TooManyRequests (429 with Retry-After) once the limit is
passed. Fixed windows let twice the limit through around a boundary (the limit just before it,
the limit again just after); here a subject's attempts are counted in consecutive windows of the
limit's length, and the count over the last `window` seconds is estimated as the current
window's attempts plus the previous window's, weighted by how much of it still lies within the
last `window` seconds:

    estimate = previous * (1 - elapsed / window) + current

Ten failures just before a boundary still count almost ten just after it, so the eleventh is
refused there. The estimate assumes the previous window's attempts were spread evenly over it.

A hit is one statement (an upsert of the current window's counter that also returns the
previous window's count), atomic on SQLite and PostgreSQL, so concurrent attempts from several
processes are all counted. A refused attempt is taken back (a second statement, on refusals
only): hammering does not lengthen the wait, which is what Retry-After says, at most `window`
seconds. (When the limit was used up within the first `window / limit` seconds of a window, the
estimate frees the next attempt up to that much later than Retry-After says.)
"""

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import rows_changed
from ..errors import ApiError
from ..models import RateLimitBucket
from ..settings import Settings


class TooManyRequests(ApiError):
    status = 429
    code = "too_many_requests"


@dataclass(frozen=True)
class Limit:
    name: str
    limit: int
    window: int  # seconds


def signin_limits(settings: Settings) -> tuple[Limit, Limit]:
    """(every sign-in attempt per client address, failed password sign-ins per account e-mail).

    Credentials and federated sign-ins share the address budget; a password reset clears the
    account's failures."""
    return (
        Limit("signin-address", settings.login_attempts_per_address, settings.login_address_window),
        Limit("signin-failures", settings.login_failures_per_account, settings.login_failure_window),
    )


@dataclass(frozen=True)
class _Position:
    """Where `now` falls: the current window's index and how far into it (seconds)."""

    index: int
    elapsed: float

    @classmethod
    def of(cls, limit: Limit, now: datetime) -> "_Position":
        seconds = now.timestamp()
        index = math.floor(seconds / limit.window)
        return cls(index, seconds - index * limit.window)


def _key(limit: Limit, subject: str, index: int) -> str:
    return f"{limit.name}:{index}:{subject}"[:300]


def _estimate(limit: Limit, at: _Position, previous: int, current: int) -> float:
    return previous * (1 - at.elapsed / limit.window) + current


def _wait(limit: Limit, at: _Position, previous: int, current: int) -> float:
    """Seconds until one more attempt would be within the limit (without any other attempt)."""
    window, allowed = limit.window, limit.limit - 1  # the estimate before that attempt
    if current <= allowed:
        # Later in this window, the previous window's share has shrunk enough?
        needed = window * (1 - (allowed - current) / previous) if previous else 0.0
        if needed < window:
            return max(0.0, needed - at.elapsed)
    # In the next window, this window's attempts are the weighted ones and nothing is current.
    needed = window * (1 - allowed / current) if current > allowed else 0.0
    return window - at.elapsed + needed


def _refuse(limit: Limit, at: _Position, previous: int, current: int) -> TooManyRequests:
    wait = min(limit.window, max(1, math.ceil(_wait(limit, at, previous, current))))
    return TooManyRequests(f"Too many attempts, try again in {wait} seconds", headers={"Retry-After": str(wait)})


async def hit(db: AsyncSession, limit: Limit, subject: str, *, commit: bool = True) -> float:
    """Count one attempt for `subject`; raise TooManyRequests when it is over the limit.

    Returns the estimated attempts in the last `limit.window` seconds, this one included."""
    at = _Position.of(limit, clock.now())
    # The counter serves as "previous" for the next window too: it is kept until that one ends.
    expires = datetime.fromtimestamp((at.index + 2) * limit.window, tz=UTC)
    dialect = db.bind.dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    previous_count = (
        select(RateLimitBucket.count).where(RateLimitBucket.key == _key(limit, subject, at.index - 1)).scalar_subquery()
    )
    statement = (
        insert(RateLimitBucket)
        .values(key=_key(limit, subject, at.index), count=1, expires_at=expires)
        .on_conflict_do_update(index_elements=[RateLimitBucket.key], set_={"count": RateLimitBucket.count + 1})
        .returning(RateLimitBucket.count, previous_count)
    )
    current, previous = (await db.execute(statement)).one()
    previous = previous or 0
    estimate = _estimate(limit, at, previous, current)
    if estimate > limit.limit:
        key = _key(limit, subject, at.index)
        await db.execute(
            update(RateLimitBucket).where(RateLimitBucket.key == key).values(count=RateLimitBucket.count - 1)
        )
        if commit:
            await db.commit()
        raise _refuse(limit, at, previous, current - 1)
    if commit:
        await db.commit()
    return estimate


async def check(db: AsyncSession, limit: Limit, subject: str) -> None:
    """Raise TooManyRequests if one more attempt by `subject` would be over the limit, without
    counting one."""
    at = _Position.of(limit, clock.now())
    keys = {_key(limit, subject, at.index): "current", _key(limit, subject, at.index - 1): "previous"}
    rows = await db.execute(select(RateLimitBucket.key, RateLimitBucket.count).where(RateLimitBucket.key.in_(keys)))
    counts = {keys[key]: count for key, count in rows}
    previous, current = counts.get("previous", 0), counts.get("current", 0)
    if _estimate(limit, at, previous, current) + 1 > limit.limit:
        raise _refuse(limit, at, previous, current)


async def forget(db: AsyncSession, limit: Limit, subject: str) -> None:
    """Clear what counts now (e.g. failures after a successful sign-in)."""
    at = _Position.of(limit, clock.now())
    keys = [_key(limit, subject, at.index), _key(limit, subject, at.index - 1)]
    await db.execute(delete(RateLimitBucket).where(RateLimitBucket.key.in_(keys)))


async def prune(db: AsyncSession) -> int:
    """Delete counters no estimate reads any more; called now and then so the table stays small."""
    result = await db.execute(
        delete(RateLimitBucket).where(RateLimitBucket.expires_at < clock.now() - timedelta(seconds=1))
    )
    return rows_changed(result)
