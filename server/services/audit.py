"""The audit log of admin writes: one entry per request, whatever its outcome.

Entries are recorded by the API layer for every write operation of the admin API
(server/api/http/audit.py) and only read back here: nothing changes or removes them.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database
from ..models import AuditEntry, User, new_id
from .paging import Page, PageQuery, paginate


@dataclass(frozen=True)
class Actor:
    type: str  # user, key, anonymous
    id: str | None = None
    label: str | None = None


ANONYMOUS = Actor("anonymous")


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
) -> None:
    """Append one entry, in a transaction of its own (after the request's own work)."""
    async with database.session() as db:
        db.add(
            AuditEntry(
                id=new_id(),
                at=clock.now(),
                actor_type=actor.type,
                actor_id=actor.id,
                actor_label=(actor.label or "")[:254] or None,
                action=action[:64],
                method=method[:8],
                path=path[:500],
                target=target[:200] if target else None,
                client_address=client_address[:64] if client_address else None,
                status=status,
            )
        )
        await db.commit()


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


__all__ = ["ANONYMOUS", "Actor", "Filters", "list_entries", "record", "user_label"]
