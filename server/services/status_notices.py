"""`user-purchase-status` that survives the death of the process that decided it: an outbox.

The transaction that settles a purchase or a contract's charge also writes a StatusNotice
(`add`); after the commit, the caller sends the message and marks the notice sent
(server.realtime.announcements). A process that dies between the commit and the send leaves the
notice unsent; the `notices` background job (server.jobs, once across the cluster) sends every
notice still unsent after RESEND_AFTER_SECONDS and marks it. Delivery is at least once: a
process that sent but died before marking causes a second, identical message, which clients
take as the same status again (the message names the purchase and its final status).
Sent notices are deleted after KEEP_SENT_HOURS.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database, rows_changed
from ..models import StatusNotice

# The deciding process normally sends within milliseconds of its commit; later, it died.
RESEND_AFTER_SECONDS = 5.0
KEEP_SENT_HOURS = 24
BATCH = 200


@dataclass(frozen=True)
class Notice:
    id: str
    user_id: str
    record_id: str
    status: str
    product_id: str
    event_id: str | None


async def add(
    db: AsyncSession, user_id: str | None, record_id: str, status: str, product_id: str, event_id: str | None
) -> str | None:
    """Write a notice in the caller's transaction; None (nothing written) for an erased account."""
    if user_id is None:
        return None
    notice = StatusNotice(
        user_id=user_id,
        record_id=record_id,
        status=status,
        product_id=product_id,
        event_id=event_id,
        created=clock.now(),
    )
    db.add(notice)
    await db.flush()
    return notice.id


async def mark_sent(database: Database, ids: list[str]) -> int:
    if not ids:
        return 0
    async with database.write_session() as db:
        result = await db.execute(
            update(StatusNotice)
            .where(StatusNotice.id.in_(ids), StatusNotice.sent_at.is_(None))
            .values(sent_at=clock.now())
        )
        await db.commit()
    return rows_changed(result)


async def unsent(database: Database, older_than: datetime | None = None, limit: int = BATCH) -> list[Notice]:
    """Notices nobody sent, decided before `older_than` (default: RESEND_AFTER_SECONDS ago)."""
    before = older_than or clock.now() - timedelta(seconds=RESEND_AFTER_SECONDS)
    async with database.session() as db:
        rows = await db.execute(
            select(StatusNotice)
            .where(StatusNotice.sent_at.is_(None), StatusNotice.created <= before)
            .order_by(StatusNotice.created)
            .limit(limit)
        )
        return [Notice(n.id, n.user_id, n.record_id, n.status, n.product_id, n.event_id) for n in rows.scalars().all()]


async def purge_sent(database: Database) -> int:
    async with database.write_session() as db:
        result = await db.execute(
            delete(StatusNotice).where(
                StatusNotice.sent_at.is_not(None),
                StatusNotice.sent_at <= clock.now() - timedelta(hours=KEEP_SENT_HOURS),
            )
        )
        await db.commit()
    return rows_changed(result)
