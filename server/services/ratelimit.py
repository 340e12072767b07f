"""Fixed-window attempt counters in the database, shared by every server process.

`hit()` counts one attempt and raises TooManyRequests (429 with Retry-After) once the limit
for the current window is passed. The counter is one upsert, atomic on SQLite and PostgreSQL.
"""

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
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


def _window(limit: Limit, now: datetime) -> tuple[int, datetime]:
    index = int(now.timestamp()) // limit.window
    ends = datetime.fromtimestamp((index + 1) * limit.window, tz=UTC)
    return index, ends


def _key(limit: Limit, subject: str, index: int) -> str:
    return f"{limit.name}:{index}:{subject}"[:300]


def _retry_after(ends: datetime, now: datetime) -> int:
    return max(1, math.ceil((ends - now).total_seconds()))


def _refuse(ends: datetime, now: datetime) -> TooManyRequests:
    wait = _retry_after(ends, now)
    return TooManyRequests(f"Too many attempts, try again in {wait} seconds", headers={"Retry-After": str(wait)})


async def hit(db: AsyncSession, limit: Limit, subject: str, *, commit: bool = True) -> int:
    """Count one attempt for `subject`; raise TooManyRequests when it is over the limit."""
    now = clock.now()
    index, ends = _window(limit, now)
    key = _key(limit, subject, index)
    dialect = db.bind.dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = (
        insert(RateLimitBucket)
        .values(key=key, count=1, expires_at=ends)
        .on_conflict_do_update(index_elements=[RateLimitBucket.key], set_={"count": RateLimitBucket.count + 1})
        .returning(RateLimitBucket.count)
    )
    count = (await db.execute(statement)).scalar_one()
    if commit:
        await db.commit()
    if count > limit.limit:
        raise _refuse(ends, now)
    return count


async def check(db: AsyncSession, limit: Limit, subject: str) -> None:
    """Raise TooManyRequests if `subject` is already over the limit, without counting."""
    now = clock.now()
    index, ends = _window(limit, now)
    count = (
        await db.execute(select(RateLimitBucket.count).where(RateLimitBucket.key == _key(limit, subject, index)))
    ).scalar_one_or_none()
    if count is not None and count >= limit.limit:
        raise _refuse(ends, now)


async def forget(db: AsyncSession, limit: Limit, subject: str) -> None:
    """Clear the current window's count (e.g. failures after a successful sign-in)."""
    index, _ = _window(limit, clock.now())
    await db.execute(delete(RateLimitBucket).where(RateLimitBucket.key == _key(limit, subject, index)))


async def prune(db: AsyncSession) -> int:
    """Delete finished windows; called now and then so the table stays small."""
    result = await db.execute(
        delete(RateLimitBucket).where(RateLimitBucket.expires_at < clock.now() - timedelta(seconds=1))
    )
    return rows_changed(result)
