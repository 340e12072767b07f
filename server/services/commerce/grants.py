"""Recording what a viewer comes to hold: purchases (pay-per-view, bundles) and contracts
(svod, cvod, renewable bundles), by card or by access code.

Every flow runs its check-then-insert inside `Database.write_session()` after `lock_account`
(the buyer's row lock on PostgreSQL, the write lock on SQLite), so one viewer's concurrent
purchases of one product see each other; the partial unique indexes on pending purchases and
holding contracts are the last line of defence.
"""

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ...errors import Conflict
from ...models import Contract, Event, Product, Purchase
from ...payments import CardSummary
from ..account_lock import lock_account
from .periods import add_duration, ppv_window

PURCHASE_TYPES = ("ppv",)  # bundles are bought as contracts unless they neither renew nor last
CONTRACT_TYPES = ("svod", "cvod", "bundle")


class AlreadyHeld(Conflict):
    code = "already_purchased"


def bought_as_contract(product: Product) -> bool:
    """Subscriptions are contracts; a bundle is one too (it runs for its period or its dates)."""
    return product.type in CONTRACT_TYPES


async def lock_buyer(db: AsyncSession, user_id: str) -> None:
    await lock_account(db, user_id)


# A purchase or first payment recorded but never charged (its process died before the provider
# was asked) stops blocking the product after this long.
ABANDONED_AFTER = timedelta(minutes=15)


async def refuse_if_held(db: AsyncSession, user_id: str, product: Product, now: datetime) -> None:
    """409 when the viewer already holds `product` or is paying for it right now. Holding rows
    that no longer give access (a period that ended before the renewal job saw it, a payment
    abandoned before any charge) are closed here, so they cannot block a new purchase."""
    if bought_as_contract(product):
        contracts = (
            (
                await db.execute(
                    select(Contract).where(
                        Contract.user_id == user_id,
                        Contract.product_id == product.id,
                        Contract.status.in_(("processing", "active", "past_due")),
                    )
                )
            )
            .scalars()
            .all()
        )
        for contract in contracts:
            if contract.status == "processing":
                if contract.charge_id is None and contract.created <= now - ABANDONED_AFTER:
                    fail_contract(contract, now)
                    continue
                raise Conflict("A payment for this subscription is already processing", code="purchase_in_progress")
            if contract.gives_access(now):
                raise AlreadyHeld("You already have this subscription", code="already_subscribed")
            contract.status, contract.auto_renew, contract.updated = "expired", False, now
        await db.flush()
        return
    purchases = (
        (
            await db.execute(
                select(Purchase).where(
                    Purchase.user_id == user_id,
                    Purchase.product_id == product.id,
                    Purchase.status.in_(("init", "in progress", "success")),
                )
            )
        )
        .scalars()
        .all()
    )
    for purchase in purchases:
        if purchase.status != "success":
            if purchase.charge_id is None and purchase.created <= now - ABANDONED_AFTER:
                fail_purchase(purchase, "payment_abandoned", now)
                continue
            raise Conflict("A payment for this product is already processing", code="purchase_in_progress")
        if purchase.valid_until is None or purchase.valid_until > now:
            raise AlreadyHeld("You have already bought this", code="already_purchased")
    await db.flush()


def _card_columns(card: CardSummary | None) -> dict:
    if card is None:
        return {"card_brand": None, "card_last4": None, "card_exp_month": None, "card_exp_year": None}
    return {
        "card_brand": card.brand,
        "card_last4": card.last4,
        "card_exp_month": card.exp_month,
        "card_exp_year": card.exp_year,
    }


def new_purchase(
    product: Product,
    user_id: str,
    now: datetime,
    *,
    status: str,
    payment_action: str,
    card: CardSummary | None = None,
    access_code: str | None = None,
) -> Purchase:
    free = payment_action == "redeemAccessCode"
    return Purchase(
        user_id=user_id,
        product_id=product.id,
        event_id=product.event_id,
        type=product.type,
        status=status,
        payment_action=payment_action,
        price_minor=0 if free else product.price_minor,
        currency=product.currency,
        access_code=access_code,
        created=now,
        updated=now,
        **_card_columns(card),
    )


async def complete_purchase(db: AsyncSession, purchase: Purchase, product: Product, now: datetime) -> None:
    """The purchase is paid (or granted): access from now until the product's window ends."""
    kickoff = None
    if product.event_id:
        event = await db.get(Event, product.event_id)
        kickoff = (event.game_start_date or event.event_date) if event else None
    purchase.status = "success"
    purchase.error_code = None
    purchase.valid_from = now
    purchase.valid_until = ppv_window(now, kickoff, product.duration, product.duration_units)
    purchase.updated = now


def fail_purchase(purchase: Purchase, error_code: str, now: datetime) -> None:
    purchase.status = "error"
    purchase.error_code = error_code
    purchase.updated = now


def new_contract(
    product: Product, user_id: str, now: datetime, *, card: CardSummary | None = None, access_code: str | None = None
) -> Contract:
    """A contract whose first payment is not settled yet (`processing`). Contracts granted by a
    code never renew."""
    renews = product.renewable and access_code is None
    return Contract(
        user_id=user_id,
        product_id=product.id,
        type=product.type,
        platform="web",
        status="processing",
        payment_status="in progress",
        renewable=product.renewable,
        auto_renew=renews,
        price_minor=0 if access_code else product.price_minor,
        currency=product.currency,
        access_code=access_code,
        renewals=0,
        created=now,
        updated=now,
        **_card_columns(card),
    )


def activate_contract(contract: Contract, product: Product, now: datetime) -> None:
    """The first payment succeeded (or a code granted it): the first period starts now. A bundle
    with fixed dates runs until its end date."""
    contract.status = "active"
    contract.payment_status = "success"
    contract.start_date = now
    end = add_duration(now, product.duration, product.duration_units)
    if product.type == "bundle" and product.bundle_end is not None:
        end = product.bundle_end if end is None else min(end, product.bundle_end)
    contract.period_end = end
    contract.grace_until = None
    contract.updated = now


def fail_contract(contract: Contract, now: datetime) -> None:
    contract.status = "failed"
    contract.payment_status = "error"
    contract.auto_renew = False
    contract.updated = now
