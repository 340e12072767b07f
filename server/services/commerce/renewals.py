"""The renewal job: contracts at the end of their period are charged again, or end.

`run(database, provider, now)` looks at every contract whose period has ended:

- an `active` contract that renews (renewable, auto-renewing, not canceled, its account not
  erased, its product able to run another period) is charged on the viewer's stored card with the
  reference `renewal:{contract id}:{renewals + 1}`. The provider answers a repeated reference with
  the first charge, so a run that crashed, or two runs in two processes, never charge one period
  twice. Paid: the period is extended from the old `period_end` by the product's duration
  (calendar months) and counted in `renewals`. Refused, or no stored card: `past_due`, with access
  until `grace_until = period_end + periods.RENEWAL_GRACE`. Requires action: `payment_status` is
  `in progress` and server.services.commerce.settlement finishes it;
- an `active` contract that does not renew (canceled, not auto-renewing, erased account, a
  bundle past its end date) becomes `expired` without a charge;
- a `past_due` contract is charged again once a day (RETRY_EVERY) while its grace period runs
  (a card saved meanwhile is used), with a reference that names the attempt
  (`renewal:{id}:{n}:retry:{time of the last attempt}`), so concurrent runs make the same attempt
  once. Paid: renewed as above, from the old period end. When the grace period is over (or the
  account was erased) it is `expired`.

Every change is a conditional UPDATE on the state the run read (`status`, `renewals`, the charge),
so of two runs only one applies an outcome and only that one reports its announcement for the
viewer (`user-purchase-status` with the contract id as `purchaseId`: `success` when renewed,
`error` when it became past due; a retry that fails again and an expiry announce nothing); the
caller sends them (server/realtime/announcements.py). One run at a time per
process: another one started meanwhile (the admin API) gets 409.

A dry run charges and changes nothing; its counts say what a run would do now (`renewed` then
counts the contracts that would be charged).
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Select, and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from ... import clock
from ...db import Database
from ...errors import Conflict
from ...models import Contract, OutboxMail, Product, StoredCard
from ...payments import Charge, InvalidCardToken, PaymentProvider
from ...settings import Settings, get_settings
from .. import mail, status_notices
from . import receipts
from .settlement import Announcement, _conditional, next_period_end, past_due_values, renewed_values

log = logging.getLogger(__name__)

BATCH_SIZE = 100
# A past-due contract is charged again this long after its last attempt (while its grace lasts).
RETRY_EVERY = timedelta(days=1)

_lock = asyncio.Lock()  # never awaited while held (a second run is refused), so no loop binding


Notify = Callable[[AsyncSession, Settings], Awaitable[OutboxMail | None]]


class RenewalRunInProgress(Conflict):
    code = "conflict"


@dataclass
class RenewalReport:
    due: int = 0  # contracts whose period (or grace period) had ended
    renewed: int = 0
    past_due: int = 0
    expired: int = 0
    processing: int = 0  # renewal charges that require action (settlement finishes them)
    errors: int = 0  # contracts left for the next run (logged)
    dry_run: bool = False
    announcements: list[Announcement] = field(default_factory=list)  # for the viewers, to be sent
    mail_ids: list[str] = field(default_factory=list)  # receipts and notices for SMTP to send

    def as_contract(self) -> dict:
        """The content of the admin API's RenewalRunResponse."""
        return {
            "dryRun": self.dry_run,
            "due": self.due,
            "renewed": self.renewed,
            "pastDue": self.past_due,
            "expired": self.expired,
            "processing": self.processing,
        }


def running() -> bool:
    """A run is in progress in this process."""
    return _lock.locked()


async def run(
    database: Database,
    provider: PaymentProvider,
    now: datetime | None = None,
    dry_run: bool = False,
    *,
    batch_size: int = BATCH_SIZE,
    settings: Settings | None = None,
) -> RenewalReport:
    """Renew, mark past due or expire every contract due at `now` (default: the clock's now).
    Raises RenewalRunInProgress when a run is already going on in this process."""
    if _lock.locked():
        raise RenewalRunInProgress("A renewal run is already in progress")
    async with _lock:
        job = _Run(database, provider, now or clock.now(), dry_run, settings)
        await job.all(batch_size)
        return job.report


def _due(now: datetime, after: str, limit: int) -> Select[tuple[Contract]]:
    retry_before = now - RETRY_EVERY
    return (
        select(Contract)
        .where(
            Contract.payment_status != "in progress",  # a charge is deciding: settlement's turn
            or_(
                and_(Contract.status == "active", Contract.period_end <= now),
                and_(
                    Contract.status == "past_due",
                    or_(
                        Contract.grace_until.is_(None),
                        Contract.grace_until <= now,
                        Contract.user_id.is_(None),
                        and_(
                            Contract.auto_renew.is_(True),
                            Contract.canceled_at.is_(None),
                            Contract.updated <= retry_before,
                        ),
                    ),
                ),
            ),
            Contract.id > after,
        )
        .order_by(Contract.id)
        .limit(limit)
    )


class _Run:
    def __init__(
        self,
        database: Database,
        provider: PaymentProvider,
        now: datetime,
        dry_run: bool,
        settings: Settings | None = None,
    ):
        self.database = database
        self.settings = settings or get_settings()
        self.provider = provider
        self.now = now
        self.dry_run = dry_run
        self.report = RenewalReport(dry_run=dry_run)

    async def all(self, batch_size: int) -> None:
        after = ""
        while True:
            async with self.database.session() as db:
                contracts = (await db.execute(_due(self.now, after, batch_size))).scalars().all()
                products = await self._products(db, {c.product_id for c in contracts})
                cards = await self._cards(db, {c.user_id for c in contracts if c.user_id})
            for contract in contracts:
                self.report.due += 1
                try:
                    card = cards.get(contract.user_id) if contract.user_id else None
                    await self.one(contract, products.get(contract.product_id), card)
                except Exception:
                    self.report.errors += 1
                    log.exception("renewal of contract %s failed; it is tried again next run", contract.id)
            if len(contracts) < batch_size:
                return
            after = contracts[-1].id

    async def _products(self, db: AsyncSession, ids: set[str]) -> dict[str, Product]:
        if not ids:
            return {}
        return {p.id: p for p in (await db.execute(select(Product).where(Product.id.in_(ids)))).scalars()}

    async def _cards(self, db: AsyncSession, user_ids: set[str]) -> dict[str, StoredCard]:
        if not user_ids:
            return {}
        rows = (
            await db.execute(
                select(StoredCard).where(StoredCard.user_id.in_(user_ids), StoredCard.provider == self.provider.name)
            )
        ).scalars()
        return {card.user_id: card for card in rows}

    # --- one contract --------------------------------------------------------------------------

    def _renews(self, contract: Contract, product: Product) -> bool:
        return (
            contract.user_id is not None
            and contract.renewable
            and contract.auto_renew
            and contract.canceled_at is None
            and next_period_end(contract.period_end, product) is not None
        )

    async def one(self, contract: Contract, product: Product | None, card: StoredCard | None) -> None:
        if product is None:  # it cannot run another period without its product
            return await self._expire(contract)
        if contract.status == "past_due":
            grace_over = contract.grace_until is None or contract.grace_until <= self.now
            if grace_over or contract.user_id is None:
                return await self._expire(contract)
            if not self._renews(contract, product):
                return None  # canceled meanwhile: it expires when the grace period ends
            if card is None:
                return await self._refused(contract, product, None)  # still no card: tried again tomorrow
            return await self._charge(contract, product, card, retry=True)
        if not self._renews(contract, product):
            return await self._expire(contract)
        if card is None:
            return await self._refused(contract, product, None)
        return await self._charge(contract, product, card, retry=False)

    def _reference(self, contract: Contract, retry: bool) -> str:
        reference = f"renewal:{contract.id}:{contract.renewals + 1}"
        if retry:
            reference += f":retry:{int(contract.updated.timestamp())}"
        return reference

    async def _charge(self, contract: Contract, product: Product, card: StoredCard, *, retry: bool) -> None:
        if self.dry_run:
            self.report.renewed += 1
            return None
        if contract.price_minor <= 0:
            return await self._renewed(contract, product, None)
        try:
            charge = await self.provider.charge(
                card.reference,
                owner_id=card.user_id,
                amount_minor=contract.price_minor,
                currency=contract.currency or "EUR",
                reference=self._reference(contract, retry),
            )
        except InvalidCardToken:
            # The stored card cannot pay any more (the provider no longer knows it).
            return await self._refused(contract, product, None)
        if charge.succeeded:
            return await self._renewed(contract, product, charge)
        if charge.pending:
            return await self._processing(contract, charge)
        return await self._refused(contract, product, charge)

    # --- outcomes ------------------------------------------------------------------------------

    async def _apply(
        self,
        contract: Contract,
        where: tuple,
        values: dict,
        notify: Notify | None = None,
        tell: tuple[Product | None, str] | None = None,
    ) -> bool:
        """The conditional update; when it applied, `notify` writes the viewer's mail with it and
        `tell` (product, status) the viewer's `user-purchase-status` notice (announced after)."""
        async with self.database.write_session() as db:
            applied = await _conditional(db, Contract, contract.id, where, values)
            if applied and notify is not None:
                self.report.mail_ids.extend(mail.queued_ids([await notify(db, self.settings)]))
            announcement = None
            if applied and tell is not None and contract.user_id is not None:  # None: an erased account
                product, status = tell
                told = Announcement(
                    contract.user_id, contract.id, status, contract.product_id, product.event_id if product else None
                )
                notice = await status_notices.add(
                    db, told.user_id, told.record_id, status, told.product_id, told.event_id
                )
                announcement = replace(told, notice_id=notice)
            await db.commit()
        if announcement is not None:
            self.report.announcements.append(announcement)
        return applied

    async def _renewed(self, contract: Contract, product: Product, charge: Charge | None) -> None:
        where = (Contract.status.in_(("active", "past_due")), Contract.renewals == contract.renewals)
        values = renewed_values(contract, product, self.now, charge)

        async def receipt(db: AsyncSession, settings: Settings) -> OutboxMail | None:
            return await receipts.contract_paid(
                db, settings, contract, product, period_end=values["period_end"], renewal=True
            )

        if await self._apply(contract, where, values, receipt, tell=(product, "success")):
            self.report.renewed += 1

    async def _refused(self, contract: Contract, product: Product | None, charge: Charge | None) -> None:
        if self.dry_run:
            self.report.past_due += 1
            return
        if contract.status == "past_due":  # a retry that failed: the same grace period goes on
            where: tuple[ColumnElement[bool], ...] = (
                Contract.status == "past_due",
                Contract.renewals == contract.renewals,
                Contract.payment_status != "in progress",
                or_(Contract.charge_id.is_(None), Contract.charge_id != charge.id)
                if charge is not None
                else Contract.updated == contract.updated,
            )
        else:
            where = (
                Contract.status == "active",
                Contract.renewals == contract.renewals,
                Contract.payment_status != "in progress",
            )
        values = past_due_values(contract, self.now, charge)

        async def notice(db: AsyncSession, settings: Settings) -> OutboxMail | None:
            # Told once, when the contract falls past due; a retry that fails again writes nothing.
            if contract.status != "active":
                return None
            return await receipts.renewal_failed(db, settings, contract, product, grace_until=values["grace_until"])

        # A retry that failed (already past due) changes nothing the viewer sees: no message.
        tell = (product, "error") if contract.status == "active" else None
        if await self._apply(contract, where, values, notice, tell=tell):
            self.report.past_due += 1

    async def _processing(self, contract: Contract, charge: Charge) -> None:
        where = (
            Contract.status == contract.status,
            Contract.renewals == contract.renewals,
            Contract.payment_status != "in progress",
        )
        values = {"payment_status": "in progress", "charge_id": charge.id, "updated": self.now}
        if await self._apply(contract, where, values):
            self.report.processing += 1

    async def _expire(self, contract: Contract) -> None:
        if self.dry_run:
            self.report.expired += 1
            return
        if contract.status == "past_due":
            where: tuple[ColumnElement[bool], ...] = (
                Contract.status == "past_due",
                Contract.payment_status != "in progress",
            )
        else:
            where = (
                Contract.status == "active",
                Contract.renewals == contract.renewals,
                Contract.payment_status != "in progress",
                Contract.period_end <= self.now,
            )
        values = {"status": "expired", "auto_renew": False, "updated": self.now}
        if contract.status == "past_due":
            values["payment_status"] = "error"
        if await self._apply(contract, where, values):
            self.report.expired += 1
