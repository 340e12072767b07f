"""The credit of a pay-per-view event's buyers when its stream failed (issue 32 §3): each buyer
credited exactly once, whichever process does it and wherever one dies.

`run_round` is the `outage-credit` job's round (server.jobs: one process of a cluster at a time,
every TOUCHLINE_OUTAGE_INTERVAL_SECONDS): it watches the live events and schedules their credits
(server.services.outage_watch), then runs the credits that are due. Staff read an event's
outages and credit (`describe`), run its credit now (`trigger`) or cancel a scheduled one (`cancel`).

Exactly once:
- a due credit goes scheduled -> running by a conditional UPDATE; a credit still running is taken
  up again by the next round (its process may have died), and may be by two overlapping rounds;
- a purchase is claimed by inserting its OutageCreditGrant (one per purchase). A claim that
  exists is resumed while it is `claimed` (its process died, or runs beside this one) and skipped
  once `done`;
- money moves with the reference `outage-credit:<purchase>`, so the provider answers a resumed
  claim's refund with the first refund: a buyer is refunded once however often it is resumed;
- one transaction marks the grant done (claimed -> done: of two resumers one wins) and writes the
  buyer's mail, the audit entry and, for kind `access_code`, the code: each exists once, exactly
  when the grant is done;
- after that commit the mail is delivered and the buyer told (`user-purchase-credited`, sent by
  the caller's `announce`: services send nothing). A process dying in between leaves the mail in
  the outbox and the message unsent; clients see the credit when they next load their purchases.
"""

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import ColumnElement, Select, and_, exists, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database, rows_changed
from ..errors import Conflict, NotFound
from ..models import (
    AccessCode,
    Event,
    EventOutage,
    OutageCredit,
    OutageCreditGrant,
    OutboxMail,
    Product,
    Purchase,
    User,
    new_id,
)
from ..payments import PaymentProvider
from ..settings import Settings
from . import audit, mail
from .commerce.access_codes import new_code
from .commerce.receipts import amount
from .outage_watch import (
    CANCELLED,
    DONE,
    RUNNING,
    SCHEDULED,
    STAFF,
    Feeds,
    Watched,
    insert_once,
    outage_length,
    pay_per_view_of,
    threshold,
    watch,
)
from .spoilers import without_scores

log = logging.getLogger(__name__)

REFUND, ACCESS_CODE = "refund", "access_code"
CLAIMED = "claimed"  # OutageCreditGrant.status, then DONE
JOB = "outage-credit"
AUDIT_ACTION = "outage_credit_granted"
# Purchases read per query: a big event's buyers are credited without holding them all in memory.
BATCH = 200
REDEEM_PAGE = "/auth/sign-up/subscription/code"


class EventNotFound(NotFound):
    code = "event_not_found"


class NotPayPerView(Conflict):
    code = "not_pay_per_view"


class CreditStarted(Conflict):
    code = "credit_started"


class NoScheduledCredit(Conflict):
    code = "no_scheduled_credit"


def refund_reference(purchase_id: str) -> str:
    """The provider's idempotency reference of a purchase's refund: the same on every resume."""
    return f"outage-credit:{purchase_id}"


@dataclass(frozen=True)
class Credited:
    """One buyer credited, committed: what the caller tells them (`user-purchase-credited`)."""

    purchase_id: str
    event_id: str
    user_id: str | None
    kind: str
    amount_minor: int  # refunded; 0 for an access code
    currency: str | None
    mail_id: str | None  # written and queued for SMTP


@dataclass
class Round:
    watched: Watched
    credited: list[Credited] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # purchases left claimed for the next round
    finished: list[str] = field(default_factory=list)  # events whose credit is done


Announce = Callable[[Credited], Awaitable[object]]


@dataclass(frozen=True)
class _Buyer:
    purchase_id: str
    user_id: str | None
    charge_id: str
    price_minor: int
    currency: str | None
    card: str | None


async def run_round(
    database: Database,
    provider: PaymentProvider,
    settings: Settings,
    *,
    feeds: Feeds | None = None,
    announce: Announce | None = None,
) -> Round:
    """Watch the live pay-per-view events, then credit the buyers of every credit that is due (or
    still running); `announce` tells each buyer credited, after its commit. `feeds` is this
    process's live inputs' view of an event's feed (server.ingest.live_inputs), if it runs any."""
    try:
        watched = await watch(database, settings, clock.now(), feeds=feeds)
    except Exception:  # credits already due still run; the next round watches again
        log.exception("outage watch failed; it runs again at the next round")
        watched = Watched()
    report = Round(watched)
    for event_id in await _due(database, clock.now()):
        await _run(database, provider, settings, event_id, report, announce)
    if report.watched.scheduled or report.credited or report.failed or report.finished:
        log.info(
            "outage credit: %d scheduled, %d buyers credited, %d left for the next round, %d credits done",
            len(report.watched.scheduled),
            len(report.credited),
            len(report.failed),
            len(report.finished),
        )
    return report


# --- running a credit -------------------------------------------------------------------------


async def _due(database: Database, now: datetime) -> list[str]:
    async with database.session() as db:
        return list(
            await db.scalars(
                select(OutageCredit.event_id)
                .where(
                    or_(
                        and_(OutageCredit.status == SCHEDULED, OutageCredit.due <= now),
                        OutageCredit.status == RUNNING,
                    )
                )
                .order_by(OutageCredit.due, OutageCredit.event_id)
            )
        )


async def _run(
    database: Database,
    provider: PaymentProvider,
    settings: Settings,
    event_id: str,
    report: Round,
    announce: Announce | None,
) -> None:
    now = clock.now()
    async with database.write_session() as db:
        # Conditional: staff may cancel it, or bring it forward, up to this moment.
        await db.execute(
            update(OutageCredit)
            .where(OutageCredit.event_id == event_id, OutageCredit.status == SCHEDULED, OutageCredit.due <= now)
            .values(status=RUNNING, updated=now)
        )
        await db.commit()
        credit = await db.get(OutageCredit, event_id, populate_existing=True)
    if credit is None or credit.status != RUNNING:
        return
    after = ""
    while batch := await _next_buyers(database, credit, after):
        for buyer in batch:
            try:
                credited = await _credit(database, provider, settings, credit, buyer)
            except Exception:  # its claim stays: the next round resumes it with the same reference
                log.exception("outage credit of event %s: purchase %s failed", event_id, buyer.purchase_id)
                report.failed.append(buyer.purchase_id)
                continue
            if credited is not None:
                report.credited.append(credited)
                await _tell(database, settings, credited, announce)
        after = batch[-1].purchase_id
    if await _finish(database, credit):
        report.finished.append(event_id)


def _to_credit(credit: OutageCredit) -> Select:
    """The purchases the credit is for: of the event's pay-per-view products (found through the
    purchases' product index), paid by card before its cutoff."""
    products = select(Product.id).where(Product.type == "ppv", Product.event_id == credit.event_id)
    return select(Purchase).where(
        Purchase.product_id.in_(products),
        Purchase.event_id == credit.event_id,
        Purchase.type == "ppv",
        Purchase.status == "success",
        Purchase.price_minor > 0,
        Purchase.charge_id.is_not(None),
        Purchase.created < credit.cutoff,
    )


def _not_done() -> ColumnElement[bool]:
    return ~exists().where(OutageCreditGrant.purchase_id == Purchase.id, OutageCreditGrant.status == DONE)


async def _next_buyers(database: Database, credit: OutageCredit, after: str) -> list[_Buyer]:
    async with database.session() as db:
        rows = await db.scalars(
            _to_credit(credit).where(Purchase.id > after, _not_done()).order_by(Purchase.id).limit(BATCH)
        )
        return [
            _Buyer(
                row.id,
                row.user_id,
                row.charge_id or "",
                row.price_minor,
                row.currency,
                f"{(row.card_brand or 'card').capitalize()} ending in {row.card_last4}" if row.card_last4 else None,
            )
            for row in rows
        ]


async def _credit(
    database: Database, provider: PaymentProvider, settings: Settings, credit: OutageCredit, buyer: _Buyer
) -> Credited | None:
    """Claim the purchase, move the money, then record it all in one transaction; None when
    another process credited it first."""
    grant_id = await _claim(database, credit, buyer)
    if grant_id is None:
        return None
    refund_id = None
    if credit.kind == REFUND:  # outside any transaction: a provider call may be slow
        refund = await provider.refund(
            buyer.charge_id, amount_minor=buyer.price_minor, reference=refund_reference(buyer.purchase_id)
        )
        refund_id = refund.id
    return await _grant(database, settings, credit, buyer, grant_id, refund_id)


async def _claim(database: Database, credit: OutageCredit, buyer: _Buyer) -> str | None:
    """The purchase's grant to go on with: a new claim, or one still claimed (resumed); None when
    it is done."""
    refunds = credit.kind == REFUND
    grant_id = new_id()
    values = {
        "id": grant_id,
        "event_id": credit.event_id,
        "purchase_id": buyer.purchase_id,
        "user_id": buyer.user_id,
        "status": CLAIMED,
        "kind": credit.kind,
        "amount_minor": buyer.price_minor if refunds else 0,
        "currency": buyer.currency if refunds else None,
        "refund_id": None,
        "access_code_id": None,
        "created": clock.now(),
        "done_at": None,
    }
    async with database.write_session() as db:
        if await insert_once(db, OutageCreditGrant, values, OutageCreditGrant.purchase_id):
            await db.commit()
            return grant_id
        claim = (
            await db.execute(
                select(OutageCreditGrant.id, OutageCreditGrant.status).where(
                    OutageCreditGrant.purchase_id == buyer.purchase_id
                )
            )
        ).first()
        await db.rollback()
    return claim.id if claim is not None and claim.status == CLAIMED else None


async def _grant(
    database: Database,
    settings: Settings,
    credit: OutageCredit,
    buyer: _Buyer,
    grant_id: str,
    refund_id: str | None,
) -> Credited | None:
    now = clock.now()
    async with database.write_session() as db:
        marked = await db.execute(
            update(OutageCreditGrant)
            .where(OutageCreditGrant.id == grant_id, OutageCreditGrant.status == CLAIMED)
            .values(status=DONE, done_at=now, refund_id=refund_id)
        )
        if rows_changed(marked) != 1:  # a process beside this one marked it first
            await db.rollback()
            return None
        grant = await db.get(OutageCreditGrant, grant_id, populate_existing=True)
        event = await db.get(Event, credit.event_id)
        assert grant is not None and event is not None  # both cascade from rows this round holds
        code = await _issue_code(db, settings, grant, now) if credit.kind == ACCESS_CODE else None
        outboxed = await _write_mail(db, settings, buyer, event.title, grant, code)
        audit.add(
            db,
            action=AUDIT_ACTION,
            job=JOB,
            target=buyer.purchase_id,
            detail={"event": credit.event_id, "kind": credit.kind, "amountMinor": grant.amount_minor},
        )
        await db.commit()
    return Credited(
        buyer.purchase_id,
        credit.event_id,
        buyer.user_id,
        credit.kind,
        grant.amount_minor,
        grant.currency,
        outboxed.id if outboxed is not None and outboxed.status == mail.QUEUED else None,
    )


@dataclass(frozen=True)
class _Code:
    display: str
    product: str  # its product's title


async def _issue_code(db: AsyncSession, settings: Settings, grant: OutageCreditGrant, now: datetime) -> _Code:
    """A single-use code of TOUCHLINE_OUTAGE_CREDIT_PRODUCT for the grant, written in the
    transaction that marks it done: it exists exactly when the grant is done, so a resumed claim
    never makes a second. Its batch is the grant's id, which names it for staff."""
    product = await db.get(Product, settings.outage_credit_product) if settings.outage_credit_product else None
    if product is None:
        raise LookupError(f"TOUCHLINE_OUTAGE_CREDIT_PRODUCT {settings.outage_credit_product} names no product")
    code, display = new_code()
    row = AccessCode(
        id=new_id(),
        code=code,
        display_code=display,
        batch_id=grant.id,
        product_id=product.id,
        uses=1,
        redeemed_count=0,
        expires_at=None,
        revoked_at=None,
        created_by=None,
        created=now,
    )
    db.add(row)
    await db.flush()
    grant.access_code_id = row.id
    return _Code(display, product.title)


async def _write_mail(
    db: AsyncSession, settings: Settings, buyer: _Buyer, title: str, grant: OutageCreditGrant, code: _Code | None
) -> OutboxMail | None:
    """The buyer's mail, to their confirmed address (none for an erased or unconfirmed account).
    The caller commits."""
    if buyer.user_id is None:
        return None
    user = await db.get(User, buyer.user_id)
    if user is None or user.deleted_at is not None or not user.email or user.email_verified_at is None:
        return None
    if (user.options or {}).get("spoilerFree") is True:
        title = without_scores(title)
    if code is not None:
        message = mail.outage_credit_code_message(
            title=title, product=code.product, code=code.display, link=f"{settings.base_url}{REDEEM_PAGE}"
        )
    else:
        message = mail.outage_credit_refund_message(
            title=title, amount=amount(grant.amount_minor, grant.currency), card=buyer.card
        )
    return mail.write(db, settings, to=user.email, kind=mail.MailKind.OUTAGE_CREDIT, message=message)


async def _tell(database: Database, settings: Settings, credited: Credited, announce: Announce | None) -> None:
    if credited.mail_id is not None:
        await mail.deliver(database, settings, [credited.mail_id])
    if announce is None:
        return
    try:
        await announce(credited)
    except Exception:  # the credit stands; the buyer sees it when their purchases load next
        log.exception("outage credit: could not tell the buyer of purchase %s", credited.purchase_id)


async def _finish(database: Database, credit: OutageCredit) -> bool:
    """Mark the credit done once every purchase it is for is; whether this call did."""
    async with database.write_session() as db:
        left = await db.scalar(select(func.count()).select_from(_to_credit(credit).where(_not_done()).subquery()))
        if left:
            await db.rollback()
            return False
        finished = await db.execute(
            update(OutageCredit)
            .where(OutageCredit.event_id == credit.event_id, OutageCredit.status == RUNNING)
            .values(status=DONE, updated=clock.now())
        )
        await db.commit()
    return rows_changed(finished) == 1


# --- staff ------------------------------------------------------------------------------------


async def _event(db: AsyncSession, event_id: str, *, lock: bool = False) -> Event:
    event = await db.get(Event, event_id, with_for_update=lock)
    if event is None or event.media_type != "event":
        raise EventNotFound("Event not found")
    return event


async def trigger(db: AsyncSession, settings: Settings, event_id: str, staff_user_id: str, now: datetime) -> None:
    """Make the event's credit due now, for the buyers who paid before now: a new one (or a
    cancelled one again) with reason `staff`, or a scheduled one brought forward (its cutoff
    kept). The job's next round runs it. Commits."""
    await _event(db, event_id, lock=True)  # the watch's rounds change the event's credit under this lock too
    if not await db.scalar(select(pay_per_view_of(event_id))):
        raise NotPayPerView("This event has no pay-per-view product")
    credit = await db.get(OutageCredit, event_id, with_for_update=True, populate_existing=True)
    if credit is not None and credit.status in (RUNNING, DONE):
        raise CreditStarted("This event's credit has already started")
    if credit is None:
        credit = OutageCredit(event_id=event_id, kind=settings.outage_credit_kind, created=now)
        db.add(credit)
    if credit.status != SCHEDULED:  # new, or cancelled: scheduled again by this staff member
        credit.status, credit.reason, credit.kind = SCHEDULED, STAFF, settings.outage_credit_kind
        credit.cutoff, credit.created_by, credit.cancelled_by = now, staff_user_id, None
    credit.due, credit.updated = now, now
    await db.commit()


async def cancel(db: AsyncSession, event_id: str, staff_user_id: str, now: datetime) -> None:
    """Cancel the event's scheduled credit: nobody is credited, and later outages schedule no
    other by themselves. Commits."""
    await _event(db, event_id, lock=True)
    credit = await db.get(OutageCredit, event_id, with_for_update=True, populate_existing=True)
    if credit is not None and credit.status in (RUNNING, DONE):
        raise CreditStarted("This event's credit has already started")
    if credit is None or credit.status != SCHEDULED:
        raise NoScheduledCredit("This event has no scheduled credit")
    credit.status, credit.cancelled_by, credit.updated = CANCELLED, staff_user_id, now
    await db.commit()


@dataclass(frozen=True)
class CreditView:
    status: str
    kind: str
    reason: str
    due: datetime
    cutoff: datetime
    buyers: int  # purchases it is for
    credited: int  # of them, credited
    created_by: str | None  # staff e-mail addresses
    cancelled_by: str | None


@dataclass(frozen=True)
class Description:
    event_id: str
    outage_seconds: int
    threshold_seconds: int
    outages: list[EventOutage]
    credit: CreditView | None


async def describe(db: AsyncSession, event_id: str, now: datetime, settings: Settings) -> Description:
    """The event's outages (the lasting one counted up to `now`) and its credit."""
    await _event(db, event_id)
    outages = list(
        await db.scalars(select(EventOutage).where(EventOutage.event_id == event_id).order_by(EventOutage.started))
    )
    credit = await db.get(OutageCredit, event_id, populate_existing=True)
    view = None
    if credit is not None:
        buyers = await db.scalar(select(func.count()).select_from(_to_credit(credit).subquery()))
        credited = await db.scalar(
            select(func.count())
            .select_from(OutageCreditGrant)
            .where(OutageCreditGrant.event_id == event_id, OutageCreditGrant.status == DONE)
        )
        view = CreditView(
            credit.status,
            credit.kind,
            credit.reason,
            credit.due,
            credit.cutoff,
            buyers or 0,
            credited or 0,
            await _address(db, credit.created_by),
            await _address(db, credit.cancelled_by),
        )
    return Description(
        event_id,
        int(outage_length(outages, now).total_seconds()),
        int(threshold(settings).total_seconds()),
        outages,
        view,
    )


async def _address(db: AsyncSession, user_id: str | None) -> str | None:
    return await db.scalar(select(User.email).where(User.id == user_id)) if user_id is not None else None
