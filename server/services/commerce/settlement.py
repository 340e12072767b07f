"""Settling card charges that answered "requires action": the outcome reaches the purchase or
contract, and comes back as an `Announcement` the caller sends the viewer (`user-purchase-status`
on the socket, server/realtime/announcements.py).

What is pending:
- a purchase `in progress` (its first and only charge);
- a contract `processing` (its first charge);
- a contract whose renewal charge is still deciding (`payment_status` `in progress`, see
  server.services.commerce.renewals).

For each, the provider says whether its charge (`charge_id`) is decided (`charge_status`); once
it is, the outcome is written with a conditional UPDATE (`WHERE id = :id AND status = 'in
progress' AND charge_id = :charge`...), so when several settlers run at once (the loop of every
server process, a viewer reading the purchase) exactly one applies it, and only that one returns
its announcement. The announcement follows the commit: a process that dies in between loses the
message, never the outcome (the webapp also reads the purchase or contract).

`settle_due` is what the server runs every second (server/jobs.py); `settle_purchase` and
`settle_contract` settle one record on read, so a read after the provider decided already shows
the outcome even when the loop has not run yet.
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ... import clock
from ...db import Database, referenced, rows_changed
from ...models import Contract, OutboxMail, Product, Purchase
from ...payments import Charge, PaymentProvider
from ...settings import Settings, get_settings
from .. import mail, status_notices
from . import grants, periods, receipts

log = logging.getLogger(__name__)

BATCH_SIZE = 100
# A refused charge without a 402 code of its own (it cannot happen with the built-in provider).
FALLBACK_FAILURE_CODE = "card_declined"


@dataclass(frozen=True)
class Announcement:
    """One `user-purchase-status` message: the outcome of a purchase's or contract's charge."""

    user_id: str | None  # None: the account was erased; nobody to tell
    record_id: str  # purchase or contract id (the message's purchaseId)
    status: str  # success | error
    product_id: str
    event_id: str | None
    mail_ids: tuple[str, ...] = ()  # the receipt or notice written with it, for SMTP to send
    notice_id: str | None = None  # its StatusNotice (server.services.status_notices), to mark sent


@dataclass
class SettlementReport:
    settled: int = 0  # outcomes applied by this call (others may have applied some first)
    pending: int = 0  # charges the provider has not decided yet
    errors: int = 0  # records that could not be settled now (logged; tried again next time)
    announcements: list[Announcement] = field(default_factory=list)  # one per outcome applied here


# --- outcomes as column values ---------------------------------------------------------------------


def card_values(charge: Charge) -> dict:
    card = charge.card
    return {
        "card_brand": card.brand,
        "card_last4": card.last4,
        "card_exp_month": card.exp_month,
        "card_exp_year": card.exp_year,
    }


def failure_code(charge: Charge) -> str:
    failure = charge.failure()
    return failure.code if failure is not None else FALLBACK_FAILURE_CODE


def next_period_end(period_end: datetime | None, product: Product) -> datetime | None:
    """Where a renewed period ends: one more product duration after the old end (calendar months
    and years), a bundle no later than its end date. None when the product cannot run again."""
    if period_end is None:
        return None
    end = periods.add_duration(period_end, product.duration, product.duration_units)
    if end is not None and product.type == "bundle" and product.bundle_end is not None:
        end = min(end, product.bundle_end)
    return end if end is not None and end > period_end else None


def renewed_values(contract: Contract, product: Product, now: datetime, charge: Charge | None) -> dict:
    """A renewal paid: the next period, counted."""
    values = {
        "status": "active",
        "payment_status": "success",
        "period_end": next_period_end(contract.period_end, product),
        "grace_until": None,
        "renewals": contract.renewals + 1,
        "updated": now,
    }
    if charge is not None:
        values.update(charge_id=charge.id, **card_values(charge))
    return values


def past_due_values(contract: Contract, now: datetime, charge: Charge | None) -> dict:
    """A renewal refused (or impossible: no stored card): access continues for the grace period."""
    values = {
        "status": "past_due",
        "payment_status": "error",
        "grace_until": (contract.period_end or now) + periods.RENEWAL_GRACE,
        "updated": now,
    }
    if charge is not None:
        values["charge_id"] = charge.id
    return values


def _columns(record: Purchase | Contract, names: Sequence[str]) -> dict:
    return {name: getattr(record, name) for name in names}


async def _conditional(
    db: AsyncSession,
    model: type[Purchase] | type[Contract],
    record_id: str,
    where: Sequence[ColumnElement[bool]],
    values: dict[str, Any],
) -> bool:
    result = await db.execute(
        update(model).where(model.id == record_id, *where).values(**values).execution_options(synchronize_session=False)
    )
    return rows_changed(result) == 1


# --- purchases --------------------------------------------------------------------------------------


async def _apply_purchase(
    database: Database, purchase_id: str, charge: Charge, settings: Settings | None = None
) -> Announcement | None:
    now = clock.now()
    mails: list[OutboxMail | None] = []
    async with database.write_session() as db:
        purchase = await db.get(Purchase, purchase_id)
        if purchase is None or purchase.status != "in progress" or purchase.charge_id != charge.id:
            return None
        product = await referenced(db, Product, purchase.product_id)
        db.expunge(purchase)  # the grants functions work on this copy; the UPDATE below decides
        if charge.succeeded:
            await grants.complete_purchase(db, purchase, product, now)
        else:
            grants.fail_purchase(purchase, failure_code(charge), now)
        values = _columns(purchase, ("status", "error_code", "valid_from", "valid_until", "updated"))
        applied = await _conditional(
            db, Purchase, purchase_id, (Purchase.status == "in progress", Purchase.charge_id == charge.id), values
        )
        if applied and charge.succeeded and product is not None:
            mails.append(await receipts.purchase_paid(db, settings or get_settings(), purchase, product))
        status = "success" if charge.succeeded else "error"
        event_id = product.event_id if product else purchase.event_id
        notice = (
            await status_notices.add(db, purchase.user_id, purchase.id, status, purchase.product_id, event_id)
            if applied
            else None
        )
        await db.commit()
    if not applied:
        return None
    return Announcement(
        purchase.user_id, purchase.id, status, purchase.product_id, event_id, tuple(mail.queued_ids(mails)), notice
    )


async def _decided(provider: PaymentProvider, charge_id: str) -> Charge | None:
    """The charge once decided; None while it still requires action. Raises LookupError when
    the provider does not know the charge."""
    charge = await provider.charge_status(charge_id)
    return None if charge.pending else charge


async def _decided_on_read(provider: PaymentProvider, record_id: str, charge_id: str) -> Charge | None:
    """`_decided` for a read: a charge the provider does not know leaves the record as it is."""
    try:
        return await _decided(provider, charge_id)
    except LookupError:
        log.error("%s waits for charge %s, which the payment provider does not know", record_id, charge_id)
        return None


async def settle_purchase(
    database: Database, provider: PaymentProvider, purchase_id: str, settings: Settings | None = None
) -> Announcement | None:
    """Settle one purchase if its charge was decided; the announcement when this call applied
    the outcome, else None."""
    async with database.session() as db:
        row = (
            await db.execute(select(Purchase.status, Purchase.charge_id).where(Purchase.id == purchase_id))
        ).one_or_none()
    if row is None or row.status != "in progress" or row.charge_id is None:
        return None
    charge = await _decided_on_read(provider, purchase_id, row.charge_id)
    if charge is None:
        return None
    return await _apply_purchase(database, purchase_id, charge, settings)


# --- contracts --------------------------------------------------------------------------------------


def _renewal_pending(status: str, payment_status: str) -> bool:
    return status in ("active", "past_due") and payment_status == "in progress"


async def _apply_contract(
    database: Database, contract_id: str, charge: Charge, settings: Settings | None = None
) -> Announcement | None:
    now = clock.now()
    notice: tuple[str, datetime | None] | None = None  # the mail the outcome gets, written once it applied
    async with database.write_session() as db:
        contract = await db.get(Contract, contract_id)
        if contract is None or contract.charge_id != charge.id:
            return None
        product = await referenced(db, Product, contract.product_id)
        if contract.status == "processing":  # the first charge
            db.expunge(contract)
            if charge.succeeded:
                grants.activate_contract(contract, product, now)
            else:
                grants.fail_contract(contract, now)
            values = _columns(
                contract,
                ("status", "payment_status", "start_date", "period_end", "grace_until", "auto_renew", "updated"),
            )
            where: tuple[ColumnElement[bool], ...] = (Contract.status == "processing", Contract.charge_id == charge.id)
            if charge.succeeded:
                notice = ("paid", values["period_end"])
        elif _renewal_pending(contract.status, contract.payment_status):
            if charge.succeeded:
                values = renewed_values(contract, product, now, charge)
                notice = ("renewed", values["period_end"])
            else:
                values = past_due_values(contract, now, charge)
                notice = ("refused", values["grace_until"])
            where = (
                Contract.payment_status == "in progress",
                Contract.charge_id == charge.id,
                Contract.renewals == contract.renewals,
            )
        else:
            return None
        applied = await _conditional(db, Contract, contract_id, where, values)
        written = told = None
        status = "success" if charge.succeeded else "error"
        event_id = product.event_id if product else None
        if applied and notice is not None:
            written = await _contract_mail(db, settings or get_settings(), contract, product, *notice)
        if applied:
            told = await status_notices.add(db, contract.user_id, contract.id, status, contract.product_id, event_id)
        await db.commit()
    if not applied:
        return None
    return Announcement(
        contract.user_id, contract.id, status, contract.product_id, event_id, tuple(mail.queued_ids([written])), told
    )


async def _contract_mail(
    db: AsyncSession,
    settings: Settings,
    contract: Contract,
    product: Product | None,
    outcome: str,
    moment: datetime | None,
) -> OutboxMail | None:
    """The receipt of a paid first charge or renewal, or the notice of a refused renewal."""
    if outcome == "refused":
        return await receipts.renewal_failed(db, settings, contract, product, grace_until=moment)
    if product is None:
        return None
    return await receipts.contract_paid(
        db, settings, contract, product, period_end=moment, renewal=outcome == "renewed"
    )


async def settle_contract(
    database: Database, provider: PaymentProvider, contract_id: str, settings: Settings | None = None
) -> Announcement | None:
    """Settle one contract's first or renewal charge if it was decided; the announcement when
    this call applied the outcome, else None."""
    async with database.session() as db:
        row = (
            await db.execute(
                select(Contract.status, Contract.payment_status, Contract.charge_id).where(Contract.id == contract_id)
            )
        ).one_or_none()
    if row is None or row.charge_id is None:
        return None
    if row.status != "processing" and not _renewal_pending(row.status, row.payment_status):
        return None
    charge = await _decided_on_read(provider, contract_id, row.charge_id)
    if charge is None:
        return None
    return await _apply_contract(database, contract_id, charge, settings)


# --- everything due ---------------------------------------------------------------------------------


def _pending_purchases(after: str, limit: int) -> Select[tuple[str, str | None]]:
    return (
        select(Purchase.id, Purchase.charge_id)
        .where(Purchase.status == "in progress", Purchase.charge_id.is_not(None), Purchase.id > after)
        .order_by(Purchase.id)
        .limit(limit)
    )


def _pending_contracts(after: str, limit: int) -> Select[tuple[str, str | None]]:
    return (
        select(Contract.id, Contract.charge_id)
        .where(
            or_(
                Contract.status == "processing",
                and_(Contract.status.in_(("active", "past_due")), Contract.payment_status == "in progress"),
            ),
            Contract.charge_id.is_not(None),
            Contract.id > after,
        )
        .order_by(Contract.id)
        .limit(limit)
    )


async def settle_due(
    database: Database,
    provider: PaymentProvider,
    now: datetime | None = None,
    *,
    batch_size: int = BATCH_SIZE,
    settings: Settings | None = None,
) -> SettlementReport:
    """Settle every pending purchase and contract whose charge the provider has decided, in
    batches of `batch_size`. One record that fails is logged and left for the next call. The
    report carries the announcements of the outcomes this call applied.

    `now` is accepted for symmetry with the renewal job; the provider decides by its own clock."""
    report = SettlementReport()
    for query, apply in ((_pending_purchases, _apply_purchase), (_pending_contracts, _apply_contract)):
        after = ""
        while True:
            async with database.session() as db:
                rows = (await db.execute(query(after, batch_size))).all()
            for record_id, charge_id in rows:
                try:
                    charge = await _decided(provider, charge_id)
                    if charge is None:
                        report.pending += 1
                        continue
                    message = await apply(database, record_id, charge, settings)
                except Exception:
                    report.errors += 1
                    log.exception("could not settle %s (charge %s)", record_id, charge_id)
                    continue
                if message is not None:
                    report.settled += 1
                    report.announcements.append(message)
            if len(rows) < batch_size:
                break
            after = rows[-1][0]
    return report
