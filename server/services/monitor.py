"""What the staff dashboard shows at a glance: live events, the next kickoffs, the latest
purchases, access-code redemptions and sign-ins (server/api/admin/monitor.py adds socket counts,
the jobs and health)."""

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..models import AccessCode, AccessCodeRedemption, AuthSession, Event, Purchase


@dataclass(frozen=True)
class Activity:
    live: list[Event]
    upcoming: list[Event]
    purchases: list[Purchase]
    redemptions: list[tuple[AccessCodeRedemption, AccessCode]]
    sign_ins: list[AuthSession]


async def activity(db: AsyncSession, limit: int) -> Activity:
    """Live events (earliest start first), upcoming events from now (soonest first) and the
    newest purchases, redemptions and sign-ins, at most `limit` of each."""
    live = (
        (
            await db.execute(
                select(Event)
                .where(Event.media_type == "event", Event.status == "live")
                .order_by(Event.event_date, Event.id)
                .limit(limit)
            )
        )
        .scalars()
        .all()
    )
    upcoming = (
        (
            await db.execute(
                select(Event)
                .where(Event.media_type == "event", Event.status == "upcoming", Event.event_date >= clock.now())
                .order_by(Event.event_date, Event.id)
                .limit(limit)
            )
        )
        .scalars()
        .all()
    )
    purchases = (
        (await db.execute(select(Purchase).order_by(Purchase.created.desc(), Purchase.id.desc()).limit(limit)))
        .scalars()
        .all()
    )
    redemptions = (
        await db.execute(
            select(AccessCodeRedemption, AccessCode)
            .join(AccessCode, AccessCode.id == AccessCodeRedemption.code_id)
            .order_by(AccessCodeRedemption.redeemed_at.desc(), AccessCodeRedemption.id.desc())
            .limit(limit)
        )
    ).all()
    sign_ins = (
        (await db.execute(select(AuthSession).order_by(AuthSession.created.desc(), AuthSession.id.desc()).limit(limit)))
        .scalars()
        .all()
    )
    return Activity(list(live), list(upcoming), list(purchases), [(r, c) for r, c in redemptions], list(sign_ins))


__all__ = ["Activity", "activity"]
