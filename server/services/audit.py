"""The audit log of admin writes (and sensitive reads): one entry per request, whatever its
outcome, except refused anonymous calls: those are counted, one entry per client address, minute,
operation and status (`count` says how many), so a flood of them cannot grow the log faster
than a row a minute per source and operation.

Entries are recorded by the API layer (server/api/http/audit.py) and only read back here; the
API changes none. The server's own work that staff must be able to trace (an outage credit of a
buyer) adds its entry inside the transaction that does it (`add`), as actor `system`. Entries
older than `audit_retention_days` are removed by `purge_old()` (a cluster-wide job,
server.jobs). Text that came from a request (target, label) is stored with its
control characters escaped, so an entry never carries ESC or NUL to a staff terminal.
"""

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database
from ..models import AuditEntry, User, new_id
from .paging import Page, PageQuery, paginate
from .retention import delete_older_than

# C0, DEL and C1 control characters.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Rows deleted per statement by `purge_old()`: short transactions, whatever the backlog.
PURGE_BATCH = 1000


@dataclass(frozen=True)
class Actor:
    type: str  # user, key, anonymous, system
    id: str | None = None
    label: str | None = None


ANONYMOUS = Actor("anonymous")
# The server itself (a background job): no account, no key. Its entries' method is JOB_METHOD and
# their path the job's name.
SYSTEM = Actor("system")
JOB_METHOD = "JOB"


@dataclass(frozen=True)
class Filters:
    actor: str | None = None  # an actor's id, or part of its label (e-mail address, key name)
    action: str | None = None
    target: str | None = None
    since: datetime | None = None
    until: datetime | None = None


async def record(
    database: Database,
    *,
    actor: Actor,
    action: str,
    method: str,
    path: str,
    target: str | None,
    client_address: str | None,
    status: int,
    detail: dict[str, Any] | None = None,
) -> None:
    """Append one entry, in a transaction of its own (after the request's own work); an
    anonymous caller's is counted into its minute's entry instead (`_count_anonymous`)."""
    values = _values(actor, action, method, path, target, client_address, status, detail)
    if actor.type == ANONYMOUS.type:
        await _count_anonymous(database, values)
        return
    async with database.session() as db:
        db.add(AuditEntry(id=new_id(), count=1, **values))
        await db.commit()


def add(
    db: AsyncSession,
    *,
    action: str,
    job: str,
    target: str | None,
    detail: dict[str, Any] | None = None,
    status: int = 200,
) -> None:
    """Add an entry of the server's own work (`job`) to the caller's transaction, so it exists
    exactly when what it records was committed; the caller commits."""
    db.add(
        AuditEntry(
            id=new_id(),
            count=1,
            **_values(SYSTEM, action, JOB_METHOD, job, target, None, status, detail),
        )
    )


def _values(
    actor: Actor,
    action: str,
    method: str,
    path: str,
    target: str | None,
    client_address: str | None,
    status: int,
    detail: dict[str, Any] | None,
) -> dict[str, Any]:
    return {
        "at": clock.now(),
        "actor_type": actor.type,
        "actor_id": actor.id,
        "actor_label": visible(actor.label or "")[:254] or None,
        "action": visible(action)[:64],
        "method": visible(method)[:8],
        "path": visible(path)[:500],
        "target": visible(target)[:200] if target else None,
        "client_address": visible(client_address)[:64] if client_address else None,
        "status": status,
        "detail": _visible_json(detail) if detail else None,
    }


def visible(text: str) -> str:
    """`text` with its control characters escaped (`\\x1b`), as it may go to a terminal."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _visible_json(value: Any) -> Any:
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {visible(str(k)): _visible_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_visible_json(v) for v in value]
    return value


def aggregate_key(values: dict[str, Any]) -> str:
    """The entry a refused anonymous call is counted in: its client address, minute, operation
    and status (hashed: a fixed-size unique key)."""
    minute = values["at"].replace(second=0, microsecond=0).isoformat()
    parts = (values["client_address"] or "", minute, values["action"], str(values["status"]))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


async def _count_anonymous(database: Database, values: dict[str, Any]) -> None:
    """Insert the minute's entry for this source, operation and status, or add one to its count:
    one statement, atomic on SQLite and PostgreSQL whichever process records it."""
    async with database.write_session() as db:
        insert = postgresql.insert if db.bind.dialect.name == "postgresql" else sqlite.insert
        statement = insert(AuditEntry).values(id=new_id(), count=1, aggregate_key=aggregate_key(values), **values)
        await db.execute(
            statement.on_conflict_do_update(
                index_elements=[AuditEntry.aggregate_key], set_={"count": AuditEntry.count + 1}
            )
        )
        await db.commit()


async def purge_old(database: Database, retention_days: int) -> int:
    """Delete entries older than `retention_days`, a batch per transaction; how many."""
    cutoff = clock.now() - timedelta(days=retention_days)
    return await delete_older_than(database, AuditEntry.at, cutoff, batch=PURGE_BATCH)


async def user_label(db: AsyncSession, user_id: str) -> str | None:
    """How an account is named in the log: its e-mail address."""
    return (await db.execute(select(User.email).where(User.id == user_id))).scalar_one_or_none()


async def list_entries(db: AsyncSession, filters: Filters, query: PageQuery) -> Page[AuditEntry]:
    """Entries matching every filter given, newest first."""
    stmt = select(AuditEntry)
    if filters.actor:
        stmt = stmt.where(
            or_(
                AuditEntry.actor_id == filters.actor,
                func.lower(AuditEntry.actor_label).contains(filters.actor.lower(), autoescape=True),
            )
        )
    if filters.action:
        stmt = stmt.where(AuditEntry.action == filters.action)
    if filters.target:
        stmt = stmt.where(AuditEntry.target.contains(filters.target, autoescape=True))
    if filters.since:
        stmt = stmt.where(AuditEntry.at >= filters.since)
    if filters.until:
        stmt = stmt.where(AuditEntry.at < filters.until)
    stmt = stmt.order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
    return await paginate(db, stmt, query)


__all__ = ["ANONYMOUS", "Actor", "Filters", "list_entries", "purge_old", "record", "user_label", "visible"]
