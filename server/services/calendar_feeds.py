"""Personal calendar feeds (issue 31 §4): a secret URL per viewer that calendar apps poll, listing
the events of the teams, leagues and categories the viewer follows.

The secret is shown once, when made; only its SHA-256 is kept (server.auth.api_keys.hash_secret,
as for API keys), so a read is one index hit on the hash whatever the secret, right or wrong.
Making a new one replaces the old (its URL stops working), revoking deletes the row, and so does
deleting the account. An unused feed never expires: calendar apps poll it for as long as it is
subscribed. Reads count against a budget per client address (the caller checks it)."""

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..auth.api_keys import hash_secret
from ..models import CalendarFeed, Event, EventIdentity, Follow, User
from ..settings import Settings
from .events import EventView, load_views
from .ratelimit import Limit

SECRET_PREFIX = "tlcal_"
# A feed lists at most this many events, soonest first: calendar apps choke on huge feeds.
FEED_LIMIT = 500
CALENDARED = ("upcoming", "live", "archived")  # channels run all day; they have no slot


@dataclass(frozen=True)
class NewFeed:
    secret: str  # shown once, in the answer that made it
    created: datetime


@dataclass(frozen=True)
class Reader:
    """Whose feed a secret opens, and how they want it (spoiler-free mode)."""

    user_id: str
    spoiler_free: bool


def read_limit(settings: Settings) -> Limit:
    return Limit("calendar-reads", settings.calendar_reads_per_address, settings.calendar_read_window)


async def create_feed(db: AsyncSession, user_id: str) -> NewFeed:
    """A new secret for the viewer's feed, replacing any earlier one; commits."""
    secret, now = SECRET_PREFIX + secrets.token_urlsafe(32), clock.now()
    await db.execute(delete(CalendarFeed).where(CalendarFeed.user_id == user_id))
    db.add(CalendarFeed(user_id=user_id, secret_hash=hash_secret(secret), created=now))
    await db.commit()
    return NewFeed(secret, now)


async def feed_created(db: AsyncSession, user_id: str) -> datetime | None:
    """When the viewer's feed in force was made; None without one."""
    return await db.scalar(select(CalendarFeed.created).where(CalendarFeed.user_id == user_id))


async def revoke_feed(db: AsyncSession, user_id: str) -> None:
    """Ends the viewer's feed (its row goes); revoking none is harmless. Commits."""
    await db.execute(delete(CalendarFeed).where(CalendarFeed.user_id == user_id))
    await db.commit()


async def reader_of(db: AsyncSession, secret: str) -> Reader | None:
    """The owner of the feed this secret opens, or None (unknown, replaced or revoked)."""
    row = (
        await db.execute(
            select(User.id, User.options)
            .join(CalendarFeed, CalendarFeed.user_id == User.id)
            .where(CalendarFeed.secret_hash == hash_secret(secret), User.deleted_at.is_(None))
        )
    ).first()
    if row is None:
        return None
    return Reader(row.id, (row.options or {}).get("spoilerFree") is True)


async def followed_events(db: AsyncSession, user_id: str, *, retention_days: int) -> list[EventView]:
    """The events of what the viewer follows (one of its teams, its league or its category) that
    are upcoming or live, or ended less than `retention_days` ago; at most FEED_LIMIT, soonest first."""
    follows = (await db.execute(select(Follow.type, Follow.reference_id).where(Follow.user_id == user_id))).all()
    teams = [reference for kind, reference in follows if kind == "team"]
    identities = [reference for kind, reference in follows if kind != "team"]
    if not teams and not identities:
        return []
    cutoff = clock.now() - timedelta(days=retention_days)
    followed = or_(
        Event.home_team_id.in_(teams),
        Event.away_team_id.in_(teams),
        exists().where(EventIdentity.event_id == Event.id, EventIdentity.identity_id.in_(identities)),
    )
    current = or_(
        Event.status != "archived",
        # An archived event without an end ended, as far as anyone knows, at its start.
        func.coalesce(Event.end_date, Event.event_date) >= cutoff,
    )
    events = await db.scalars(
        select(Event)
        .where(Event.media_type == "event", Event.status.in_(CALENDARED), followed, current)
        .order_by(Event.event_date, Event.id)
        .limit(FEED_LIMIT)
    )
    return await load_views(db, list(events))


async def calendar_event(db: AsyncSession, event_id: str) -> EventView | None:
    """One event for its own calendar file (any status but a channel's), or None."""
    event = await db.scalar(
        select(Event).where(and_(Event.id == event_id, Event.media_type == "event", Event.status.in_(CALENDARED)))
    )
    return (await load_views(db, [event]))[0] if event is not None else None
