"""Go-live alerts (issue 31 §4): when an event goes live, everyone who follows one of its teams,
its league or its category hears of it in every open tab (`followed-event-live` in their user
room), and those who opted in (`options.liveAlertMail`) get one mail.

Exactly once per viewer and event, whichever process does it:
- the transaction that puts the event on air writes its LiveAlert (`went_live`), so an alert
  exists exactly when the change was committed;
- the fan-out claims followers a batch at a time by inserting their LiveAlertDelivery rows (an
  insert that skips the rows another process already holds), and writes the mails of the
  viewers it claimed in that same transaction (the outbox): a viewer is claimed, and mailed, once;
- the deciding process fans out right after its commit (server.realtime.live_alerts); the
  `live-alerts` job (server.jobs) fans out the alerts still unsent a few seconds later (their
  process died or is slow), and both may run at once without telling anyone twice.
A process that dies between a batch's commit and its socket messages leaves those viewers
untold on the socket (their mail is safe): a toast is worth less than telling anyone twice.

A viewer who is on the event's page already (its room, server.realtime.census `watching`) gets
no mail, and spoiler-free viewers' titles carry no score (server.services.spoilers)."""

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Select, and_, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database, rows_changed
from ..models import Event, EventIdentity, Follow, LiveAlert, LiveAlertDelivery, User
from ..settings import Settings
from . import mail
from .spoilers import without_scores

# Followers claimed (and told) per transaction: short transactions, bounded messages in flight.
BATCH = 500
# The deciding process normally fans out within a second of its commit; the job takes over after.
TAKE_OVER_AFTER_SECONDS = 3.0
# Delivery records are kept this long after an alert went out, then deleted with it.
KEEP_SENT_DAYS = 7
MAIL_OPTION = "liveAlertMail"
SPOILER_OPTION = "spoilerFree"


@dataclass(frozen=True)
class Told:
    """One follower to tell: the socket message's title is theirs (no score when spoiler-free)."""

    user_id: str
    title: str


@dataclass(frozen=True)
class Batch:
    event_id: str
    told: list[Told]
    mailed: int  # mails written to the outbox
    mail_ids: list[str]  # those to deliver now (SMTP is set)


def went_live(db: AsyncSession, event: Event, now: datetime) -> None:
    """Record, in the transaction putting `event` on air, that its followers are to be told."""
    db.add(LiveAlert(event_id=event.id, went_live_at=now))


async def unsent(database: Database, *, older_than_seconds: float = TAKE_OVER_AFTER_SECONDS) -> list[str]:
    """Events whose alert is still due `older_than_seconds` after they went live."""
    before = clock.now() - timedelta(seconds=older_than_seconds)
    async with database.session() as db:
        return list(
            await db.scalars(
                select(LiveAlert.event_id)
                .where(LiveAlert.sent_at.is_(None), LiveAlert.went_live_at <= before)
                .order_by(LiveAlert.went_live_at)
                .limit(100)
            )
        )


async def is_due(database: Database, event_id: str) -> bool:
    async with database.session() as db:
        return await db.scalar(select(LiveAlert.sent_at.is_(None)).where(LiveAlert.event_id == event_id)) is True


async def claim_batch(
    database: Database, settings: Settings, event_id: str, *, after: str, watching: Collection[str]
) -> tuple[Batch, str | None]:
    """Claim the next followers of the event (user ids after `after`) that nobody told yet, and
    write the mails of those who opted in and are not `watching` it. (The batch, the id to go on
    after) with None once every follower was looked at."""
    async with database.write_session() as db:
        event = await db.get(Event, event_id)
        if event is None:
            return Batch(event_id, [], 0, []), None
        followers = (await db.execute(_followers(event, after))).all()
        if not followers:
            return Batch(event_id, [], 0, []), None
        now = clock.now()
        insert = postgresql.insert if db.bind.dialect.name == "postgresql" else sqlite.insert
        claimed = set(
            await db.scalars(
                insert(LiveAlertDelivery)
                .values(
                    [{"event_id": event_id, "user_id": row.id, "created": now, "mailed": False} for row in followers]
                )
                .on_conflict_do_nothing(index_elements=[LiveAlertDelivery.event_id, LiveAlertDelivery.user_id])
                .returning(LiveAlertDelivery.user_id)
            )
        )
        told: list[Told] = []
        mails: list[str] = []
        mailed: list[str] = []
        for row in followers:
            if row.id not in claimed:
                continue
            options = row.options or {}
            title = without_scores(event.title) if options.get(SPOILER_OPTION) is True else event.title
            told.append(Told(row.id, title))
            if options.get(MAIL_OPTION) is True and row.email and row.email_verified_at and row.id not in watching:
                outboxed = mail.write(
                    db,
                    settings,
                    to=row.email,
                    kind=mail.MailKind.LIVE_ALERT,
                    message=mail.live_alert_message(title=title, link=f"{settings.base_url}/events/{event_id}"),
                )
                mailed.append(row.id)
                if outboxed.status == mail.QUEUED:
                    mails.append(outboxed.id)
        if mailed:
            await db.execute(
                update(LiveAlertDelivery)
                .where(LiveAlertDelivery.event_id == event_id, LiveAlertDelivery.user_id.in_(mailed))
                .values(mailed=True)
            )
        await db.commit()
    return Batch(event_id, told, len(mailed), mails), followers[-1].id


def _followers(event: Event, after: str) -> Select:
    """The next BATCH accounts (id, e-mail, options) following the event's teams or identities."""
    teams = [team for team in (event.home_team_id, event.away_team_id) if team]
    identities = select(EventIdentity.identity_id).where(EventIdentity.event_id == event.id)
    follows = or_(
        and_(Follow.type == "team", Follow.reference_id.in_(teams)),
        and_(Follow.type != "team", Follow.reference_id.in_(identities)),
    )
    following = select(Follow.user_id).where(follows)
    return (
        select(User.id, User.email, User.email_verified_at, User.options)
        .where(User.id.in_(following), User.deleted_at.is_(None), User.id > after)
        .order_by(User.id)
        .limit(BATCH)
    )


async def mark_sent(database: Database, event_id: str) -> bool:
    async with database.write_session() as db:
        result = await db.execute(
            update(LiveAlert)
            .where(LiveAlert.event_id == event_id, LiveAlert.sent_at.is_(None))
            .values(sent_at=clock.now())
        )
        await db.commit()
    return rows_changed(result) == 1


async def purge_sent(database: Database) -> int:
    """Alerts (and their deliveries) sent more than KEEP_SENT_DAYS ago."""
    async with database.write_session() as db:
        result = await db.execute(
            delete(LiveAlert).where(
                LiveAlert.sent_at.is_not(None), LiveAlert.sent_at <= clock.now() - timedelta(days=KEEP_SENT_DAYS)
            )
        )
        await db.commit()
    return rows_changed(result)
