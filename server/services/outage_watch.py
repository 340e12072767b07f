"""Watching live pay-per-view streams for outages (issue 32 §3): the first half of the
`outage-credit` job's round (server.services.outage_credit.run_round).

A live event with a pay-per-view product (on sale or not) is unavailable while its live input is
`interrupted` (the encoder stayed away past TOUCHLINE_INGEST_RECONNECT_SECONDS), or while the
technical start failures of the last five minutes exceed TOUCHLINE_OUTAGE_START_FAILURE_RATE of
at least TOUCHLINE_QOE_ALERT_MIN_PLAYS plays. Each round judges every such event now and keeps its
`EventOutage` rows: a stretch opens when it becomes unavailable and closes when it is available
again or no longer live; an event has one open stretch at most. Once its outages add up to
TOUCHLINE_OUTAGE_CREDIT_MINUTES, the event's one `OutageCredit` is scheduled
TOUCHLINE_OUTAGE_CREDIT_DELAY_SECONDS later (staff may cancel it meanwhile), for the buyers who
paid before the outage that crossed the threshold ended (its `cutoff`: now while it lasts, moved
on by each round until it ends or the credit runs).

Rounds of two processes may overlap (a lease taken over from a slow holder): each event's
changes are made under its row lock (SQLite: the write lock), and the credit's insert does
nothing when the event has one, so overlapping rounds open one stretch and schedule one credit.
"""

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Exists, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from ..db import Database
from ..errors import NotFound
from ..media.assets.store import store_of
from ..models import Event, EventOutage, OutageCredit, Product, new_id
from ..settings import Settings
from . import ingest_health, live_feeds, qoe_report
from .ingest_health import FeedReport

# OutageCredit.status
SCHEDULED, RUNNING, DONE, CANCELLED = "scheduled", "running", "done", "cancelled"
# OutageCredit.reason
AUTOMATIC, STAFF = "automatic", "staff"
# EventOutage.cause
INGEST, START_FAILURES = "ingest", "start_failures"

LIVE = "live"

log = logging.getLogger(__name__)

Feeds = Callable[[str], FeedReport | None]


@dataclass
class Watched:
    """What a round's watch changed: events whose outage opened or closed, or whose credit it
    scheduled."""

    opened: list[str] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    scheduled: list[str] = field(default_factory=list)


def pay_per_view_of(event_id: str | InstrumentedAttribute[str]) -> Exists:
    """A clause: the event has a pay-per-view product, on sale or not."""
    return select(Product.id).where(Product.type == "ppv", Product.event_id == event_id).exists()


def threshold(settings: Settings) -> timedelta:
    return timedelta(minutes=settings.outage_credit_minutes)


def outage_length(outages: Iterable[EventOutage], now: datetime) -> timedelta:
    """The outages' length together, the open one counted up to `now`."""
    return sum(((outage.ended or now) - outage.started for outage in outages), timedelta(0))


def crossing_end(outages: Iterable[EventOutage], limit: timedelta, now: datetime) -> datetime | None:
    """When the outages (in the order they began) reached `limit` together: the end of the one
    that crossed it, `now` while it lasts; None below it."""
    total = timedelta(0)
    for outage in sorted(outages, key=lambda o: o.started):
        total += (outage.ended or now) - outage.started
        if total >= limit:
            return outage.ended or now
    return None


async def watch(database: Database, settings: Settings, now: datetime, *, feeds: Feeds | None = None) -> Watched:
    """Judge every live pay-per-view event now and keep its outages and credit (see above)."""
    watched = Watched()
    async with database.session() as db:
        live = list(await db.scalars(select(Event.id).where(Event.status == LIVE, pay_per_view_of(Event.id))))
        lasting = set(await db.scalars(select(EventOutage.event_id).where(EventOutage.ended.is_(None))))
        causes = {event_id: await _unavailable(db, event_id, settings, now, feeds) for event_id in live}
    for event_id in sorted(set(live) | lasting):
        cause = causes.get(event_id)  # an event no longer live is no longer watched: its stretch ends
        if cause is None and event_id not in lasting:
            continue  # available, as it was
        await _keep(database, settings, event_id, cause, now, watched)
    return watched


async def _unavailable(
    db: AsyncSession, event_id: str, settings: Settings, now: datetime, feeds: Feeds | None
) -> str | None:
    """Why the event's stream is unavailable now (INGEST, START_FAILURES), or None."""
    try:
        health = await ingest_health.ingest_health(
            db,
            event_id,
            feed=feeds(event_id) if feeds is not None else None,
            store=store_of(settings),
            now=now,
            dvr_default=settings.dvr_seconds,
        )
    except NotFound:  # gone since it was listed
        return None
    if health.state == live_feeds.INTERRUPTED:
        return INGEST
    rates = await qoe_report.recent_rates(db, event_id, now)
    rate = rates.start_failure_rate
    if rates.plays >= settings.qoe_alert_min_plays and rate is not None and rate > settings.outage_start_failure_rate:
        return START_FAILURES
    return None


async def _keep(
    database: Database, settings: Settings, event_id: str, cause: str | None, now: datetime, watched: Watched
) -> None:
    """Open or close the event's stretch as `cause` says, then schedule its credit once its
    outages reach the threshold. One transaction under the event's row lock."""
    async with database.write_session() as db:
        event = await db.get(Event, event_id, with_for_update=True)
        if event is None:
            return
        outages = list(
            await db.scalars(select(EventOutage).where(EventOutage.event_id == event_id).order_by(EventOutage.started))
        )
        lasting = [outage for outage in outages if outage.ended is None]
        if cause is not None and not lasting:
            outage = EventOutage(id=new_id(), event_id=event_id, cause=cause, started=now, ended=None)
            db.add(outage)
            outages.append(outage)
            watched.opened.append(event_id)
            log.warning("outage watch: event %s is unavailable (%s)", event_id, cause)
        elif cause is None and lasting:
            await db.execute(
                update(EventOutage)
                .where(EventOutage.event_id == event_id, EventOutage.ended.is_(None))
                .values(ended=now)
                .execution_options(synchronize_session=False)
            )
            for outage in lasting:
                outage.ended = now
            watched.closed.append(event_id)
            log.info("outage watch: event %s is available again", event_id)
        cutoff = crossing_end(outages, threshold(settings), now)
        if cutoff is not None and await _schedule(db, settings, event_id, cutoff, now):
            watched.scheduled.append(event_id)
            log.warning("outage watch: event %s's buyers are to be credited unless staff cancel", event_id)
        elif cutoff is not None:
            # The outage that crossed the threshold went on: whoever paid before it ended is owed.
            await db.execute(
                update(OutageCredit)
                .where(
                    OutageCredit.event_id == event_id,
                    OutageCredit.status == SCHEDULED,
                    OutageCredit.reason == AUTOMATIC,
                    OutageCredit.cutoff < cutoff,
                )
                .values(cutoff=cutoff, updated=now)
            )
        await db.commit()


async def _schedule(db: AsyncSession, settings: Settings, event_id: str, cutoff: datetime, now: datetime) -> bool:
    """Insert the event's credit unless it has one (scheduled, run, or cancelled by staff: an
    event is credited once); whether this call inserted it. The caller commits."""
    if await db.get(OutageCredit, event_id) is not None:
        return False
    values = {
        "event_id": event_id,
        "status": SCHEDULED,
        "kind": settings.outage_credit_kind,
        "reason": AUTOMATIC,
        "due": now + timedelta(seconds=settings.outage_credit_delay_seconds),
        "cutoff": cutoff,
        "created_by": None,
        "cancelled_by": None,
        "created": now,
        "updated": now,
    }
    return await insert_once(db, OutageCredit, values, OutageCredit.event_id)


async def insert_once(db: AsyncSession, model: type, values: dict, key: InstrumentedAttribute[str]) -> bool:
    """INSERT `values` unless a row with the same `key` exists (or is being inserted by another
    transaction, which it waits for): True when this statement inserted it. One statement, so
    a race between processes ends with one row and no failed transaction."""
    insert = postgresql.insert if db.get_bind().dialect.name == "postgresql" else sqlite.insert
    inserted = await db.scalars(
        insert(model).values(**values).on_conflict_do_nothing(index_elements=[key]).returning(key)
    )
    return inserted.first() is not None
