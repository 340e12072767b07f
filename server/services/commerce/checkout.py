"""Buying with a card: pay-per-view purchases and subscription contracts.

Each checkout runs in three steps, so no database transaction stays open while the provider
works (the sandbox provider writes to the same database):

1. under the buyer's lock: check the product, that the viewer does not hold it and is not paying
   for it already, and record the purchase (`init`) or contract (`processing`); commit;
2. pay: save the card first when asked (the stored reference is then charged), else charge the
   single-use token or the stored card, with the reference `{user_id}:{Idempotency-Key}`, so a
   retry never charges twice even if this process died after charging;
3. record the outcome: paid (access starts), refused (402, nothing charged) or still processing
   (202; server.services.commerce.settlement finishes it and tells the viewer on the socket).

Callers wrap the whole checkout in `server.payments.idempotency.idempotent`. The purchase or
contract of step 1 has an id derived from the viewer and the Idempotency-Key (`key_record_id`): when
a process dies in the middle of a checkout, the retry that takes the key over finds what it left
and goes on from there (charging with the same reference, so at most once), instead of being
refused as a second payment in progress.
"""

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from sqlalchemy import delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from ... import clock
from ...db import Database
from ...errors import ApiError, Conflict
from ...models import Contract, Event, OutboxMail, Product, Purchase, StoredCard, new_id
from ...payments import Charge, PaymentProvider, StoredCardRef
from ...settings import Settings, get_settings
from .. import mail
from . import contracts, grants, products, receipts


@dataclass(frozen=True)
class PaymentSource:
    """A single-use card token (optionally saved as the stored card) or the stored card."""

    token: str | None = None
    save_card: bool = False

    @property
    def stored(self) -> bool:
        return self.token is None


@dataclass(frozen=True)
class Outcome:
    record_id: str
    status: int  # 200 paid, 202 processing
    failure: ApiError | None = None  # a refused charge (402), recorded before it is raised
    mail_ids: tuple[str, ...] = ()  # the receipt of a paid checkout, for SMTP to send after the answer


class NoStoredCard(Conflict):
    code = "no_stored_card"


class KeyReused(Conflict):
    """The key's record is another product's: the key was used again after its lifetime."""

    code = "idempotency_key_reused"


async def stored_card(db: AsyncSession, user_id: str) -> StoredCard | None:
    return await db.get(StoredCard, user_id)


async def save_stored_card(database: Database, user_id: str, provider: str, ref: StoredCardRef) -> None:
    """The viewer's one stored card becomes `ref` (replacing any earlier card)."""
    now = clock.now()
    values = {
        "provider": provider,
        "reference": ref.reference,
        "brand": ref.card.brand,
        "last4": ref.card.last4,
        "exp_month": ref.card.exp_month,
        "exp_year": ref.card.exp_year,
        "holder": ref.card.holder,
        "added": now,
    }
    async with database.write_session() as db:
        insert = postgresql.insert if db.bind.dialect.name == "postgresql" else sqlite.insert
        await db.execute(
            insert(StoredCard)
            .values(user_id=user_id, **values)
            .on_conflict_do_update(index_elements=[StoredCard.user_id], set_=values)
        )
        await db.commit()


async def forget_stored_card(database: Database, user_id: str) -> None:
    async with database.write_session() as db:
        await db.execute(delete(StoredCard).where(StoredCard.user_id == user_id))
        await db.commit()


async def _pay(
    database: Database,
    provider: PaymentProvider,
    user_id: str,
    source: PaymentSource,
    amount_minor: int,
    currency: str | None,
    reference: str,
) -> Charge | None:
    """Charge for a checkout; None when there is nothing to charge (a free product)."""
    if source.token is None:  # the stored card
        async with database.session() as db:
            card = await stored_card(db, user_id)
        if card is None:
            raise NoStoredCard("There is no stored card; add a card first")
        charge_with = card.reference
    elif source.save_card:
        ref = await provider.store_card(source.token, owner_id=user_id)
        await save_stored_card(database, user_id, provider.name, ref)
        charge_with = ref.reference
    else:
        charge_with = source.token
    if amount_minor == 0:
        return None
    return await provider.charge(
        charge_with, owner_id=user_id, amount_minor=amount_minor, currency=currency or "EUR", reference=reference
    )


async def _prepare(
    db: AsyncSession, user_id: str, product: Product, source: PaymentSource, region: str | None, now: datetime
) -> None:
    """The checks of a new checkout, with the buyer locked (grants.lock_buyer) by the caller."""
    products.require_on_sale(product, now, region)
    await grants.refuse_if_held(db, user_id, product, now)
    if source.stored and await stored_card(db, user_id) is None:
        raise NoStoredCard("There is no stored card; add a card first")


R = TypeVar("R", Purchase, Contract)


@dataclass(frozen=True)
class _Record(Generic[R]):
    """How one kind of checkout record (a purchase or a contract) takes each payment outcome."""

    model: type[R]
    pending: tuple[str, ...]  # statuses in which the payment is still open
    paid: Callable[[AsyncSession, R, Product, datetime], Awaitable[None]]
    refused: Callable[[R, str, datetime], None]
    processing: Callable[[R, datetime], None]


async def _complete_purchase(db: AsyncSession, purchase: Purchase, product: Product, now: datetime) -> None:
    await grants.complete_purchase(db, purchase, product, now)


async def _activate_contract(_db: AsyncSession, contract: Contract, product: Product, now: datetime) -> None:
    grants.activate_contract(contract, product, now)


def _purchase_processing(purchase: Purchase, now: datetime) -> None:
    purchase.status, purchase.updated = "in progress", now


def _contract_processing(contract: Contract, now: datetime) -> None:
    contract.updated = now  # stays `processing` until settled


PURCHASE: _Record[Purchase] = _Record(
    Purchase, ("init", "in progress"), _complete_purchase, grants.fail_purchase, _purchase_processing
)
CONTRACT: _Record[Contract] = _Record(
    Contract,
    ("processing",),
    _activate_contract,
    lambda contract, _code, now: grants.fail_contract(contract, now),
    _contract_processing,
)


def key_record_id(user_id: str, idempotency_key: str) -> str:
    """The id of the purchase or contract a checkout with this key records (24 hex characters,
    like `new_id`): every attempt with the key, in any process, gets the same one."""
    return hashlib.sha256(f"checkout:{user_id}:{idempotency_key}".encode()).hexdigest()[:24]


async def _earlier(
    db: AsyncSession, kind: _Record[R], user_id: str, idempotency_key: str, product: Product
) -> tuple[R | None, str]:
    """The record an earlier attempt with this key left to go on with (its process died before
    answering): one still paying, or one with a charge, whose outcome the provider gives again
    for the same reference. None when there is none; then the id for a new record: the key's,
    unless an attempt gave up on it before any charge (`_abandon`)."""
    found = await db.get(kind.model, key_record_id(user_id, idempotency_key))
    if found is None:
        return None, key_record_id(user_id, idempotency_key)
    if found.product_id != product.id:
        raise KeyReused("This Idempotency-Key was already used with another request")
    if found.status in kind.pending or found.charge_id is not None:
        return found, found.id
    return None, new_id()


async def buy_ppv(
    database: Database,
    provider: PaymentProvider,
    user_id: str,
    *,
    event_id: str,
    product_id: str,
    source: PaymentSource,
    idempotency_key: str,
    region: str | None,
    settings: Settings | None = None,
) -> Outcome:
    now = clock.now()
    async with database.write_session() as db:
        product = await db.get(Product, product_id)
        event = await db.get(Event, event_id)
        if event is None or product is None or product.type != "ppv" or product.event_id != event_id:
            raise products.ProductNotFound("Product not found")
        await grants.lock_buyer(db, user_id)
        purchase, new_record_id = await _earlier(db, PURCHASE, user_id, idempotency_key, product)
        if purchase is None:
            await _prepare(db, user_id, product, source, region, now)
            purchase = grants.new_purchase(product, user_id, now, status="init", payment_action="creditCardPay")
            purchase.id = new_record_id
            db.add(purchase)
        await db.commit()
    reference = f"{user_id}:{idempotency_key}"
    return await _pay_for(database, provider, PURCHASE, purchase, user_id, source, reference, settings)


async def subscribe(
    database: Database,
    provider: PaymentProvider,
    user_id: str,
    *,
    product_id: str,
    source: PaymentSource,
    idempotency_key: str,
    region: str | None,
    settings: Settings | None = None,
) -> Outcome:
    now = clock.now()
    async with database.write_session() as db:
        product = await db.get(Product, product_id)
        if product is None or not grants.bought_as_contract(product):
            raise products.ProductNotFound("Product not found")
        await grants.lock_buyer(db, user_id)
        contract, new_record_id = await _earlier(db, CONTRACT, user_id, idempotency_key, product)
        if contract is None:
            await _prepare(db, user_id, product, source, region, now)
            contract = grants.new_contract(product, user_id, now)
            contract.id = new_record_id
            db.add(contract)
        await db.commit()
    reference = f"{user_id}:{idempotency_key}"
    return await _pay_for(database, provider, CONTRACT, contract, user_id, source, reference, settings)


async def _pay_for(
    database: Database,
    provider: PaymentProvider,
    kind: _Record[R],
    record: R,
    user_id: str,
    source: PaymentSource,
    reference: str,
    settings: Settings | None = None,
) -> Outcome:
    """Steps 2 and 3 for a committed purchase or contract of `user_id`."""
    record_id = record.id
    try:
        charge = await _pay(database, provider, user_id, source, record.price_minor, record.currency, reference)
    except BaseException as exc:
        code = exc.code if isinstance(exc, ApiError) else "payment_error"
        await asyncio.shield(_abandon(database, kind, record_id, code))
        raise
    return await _record_outcome(database, kind, record_id, charge, settings or get_settings())


async def _abandon(database: Database, kind: _Record[R], record_id: str, code: str) -> None:
    """Paying failed before any outcome (bad token, crash): the record stops blocking the product."""
    async with database.write_session() as db:
        record = await db.get(kind.model, record_id)
        if record is not None and record.status in kind.pending:
            kind.refused(record, code, clock.now())
            await db.commit()


async def _receipt(
    db: AsyncSession, settings: Settings, record: Purchase | Contract, product: Product
) -> OutboxMail | None:
    if isinstance(record, Purchase):
        return await receipts.purchase_paid(db, settings, record, product)
    return await receipts.contract_paid(db, settings, record, product, period_end=record.period_end, renewal=False)


async def _record_outcome(
    database: Database, kind: _Record[R], record_id: str, charge: Charge | None, settings: Settings
) -> Outcome:
    """Step 3; a paid checkout writes its receipt in the same transaction."""
    now = clock.now()
    receipt = None
    async with database.write_session() as db:
        record = await db.get(kind.model, record_id)
        if record is None:  # committed in step 1; only an account deletion removes it, and not its row
            raise LookupError(f"{kind.model.__name__} {record_id} is gone")
        product = await db.get(Product, record.product_id)
        if product is None:  # products are never deleted while something refers to them (RESTRICT)
            raise LookupError(f"product {record.product_id} is gone")
        failure = charge.failure() if charge is not None else None
        if record.status not in kind.pending:
            # An attempt that died before answering recorded it: the same charge, told again.
            status = 202 if charge is not None and charge.pending else 402 if failure is not None else 200
            return Outcome(record_id, status, failure)
        if charge is not None:
            record.card_brand, record.card_last4 = charge.card.brand, charge.card.last4
            record.card_exp_month, record.card_exp_year = charge.card.exp_month, charge.card.exp_year
            record.charge_id = charge.id
        if charge is None or charge.succeeded:
            await kind.paid(db, record, product, now)
            receipt = await _receipt(db, settings, record, product)
            status = 200
        elif charge.pending:
            kind.processing(record, now)
            status = 202
        else:
            kind.refused(record, failure.code if failure is not None else "card_declined", now)
            status = 402
        await db.commit()
    return Outcome(record_id, status, failure, tuple(mail.queued_ids([receipt])))


class WrongPlatform(Conflict):
    code = "wrong_platform"


async def cancel(database: Database, user_id: str, contract_id: str) -> Contract:
    """Stop renewing; access runs to the period end. Canceling twice changes nothing."""
    async with database.write_session() as db:
        contract = await contracts.get(db, user_id, contract_id)
        if contract.platform != "web":
            raise WrongPlatform("This subscription was bought in an app store; cancel it there")
        if contract.canceled_at is None:
            now = clock.now()
            contract.canceled_at = now
            contract.auto_renew = False
            contract.updated = now
            await db.commit()
        return contract
