"""Checkout after a crash: when the process running a checkout dies, the retry that takes its
Idempotency-Key over goes on with the purchase the dead attempt recorded, and pays for it at
most once (the provider answers a charge's reference with the first charge)."""

import uuid

import pytest
from sqlalchemy import func, select

from server import clock
from server.models import Purchase
from server.services.commerce import checkout, grants
from server.tests.billing import charges_of, contract, new_viewer, purchase, sandbox, store_card
from server.tests.commerce import paid_event, product


@pytest.fixture
def provider(database):
    return sandbox(database)


@pytest.fixture
async def shop(database, provider):
    """A viewer with a stored card, a pay-per-view event and its product, and a fresh key."""
    event = await paid_event(database)
    ppv = await product(database, "ppv", event_id=event.id)
    user_id = await new_viewer(database)
    card = await store_card(database, provider, user_id)
    return user_id, event.id, ppv, card, f"key-{uuid.uuid4()}"


async def buy(database, provider, user_id: str, event_id: str, product_id: str, key: str) -> checkout.Outcome:
    return await checkout.buy_ppv(
        database,
        provider,
        user_id,
        event_id=event_id,
        product_id=product_id,
        source=checkout.PaymentSource(),
        idempotency_key=key,
        region=None,
    )


async def left_by_a_dead_attempt(database, user_id: str, ppv, key: str) -> str:
    """The purchase a checkout with `key` recorded (step 1) before its process died."""
    row = grants.new_purchase(ppv, user_id, clock.now(), status="init", payment_action="creditCardPay")
    row.id = checkout.key_record_id(user_id, key)
    async with database.session() as db:
        db.add(row)
        await db.commit()
    return row.id


async def purchases_of(database, user_id: str) -> int:
    async with database.session() as db:
        return await db.scalar(select(func.count()).select_from(Purchase).where(Purchase.user_id == user_id))


async def test_a_retry_after_a_crash_before_the_charge_pays_for_the_recorded_purchase(database, provider, shop):
    user_id, event_id, ppv, _card, key = shop
    recorded = await left_by_a_dead_attempt(database, user_id, ppv, key)

    outcome = await buy(database, provider, user_id, event_id, ppv.id, key)

    assert (outcome.record_id, outcome.status, outcome.failure) == (recorded, 200, None)
    assert (await purchase(database, recorded)).status == "success"
    assert (await purchases_of(database, user_id), await charges_of(database, user_id)) == (1, 1)


async def test_a_retry_after_a_crash_after_the_charge_records_that_charge_without_a_second(database, provider, shop):
    user_id, event_id, ppv, card, key = shop
    recorded = await left_by_a_dead_attempt(database, user_id, ppv, key)
    charged = await provider.charge(
        card, owner_id=user_id, amount_minor=ppv.price_minor, currency="EUR", reference=f"{user_id}:{key}"
    )

    outcome = await buy(database, provider, user_id, event_id, ppv.id, key)

    assert (outcome.record_id, outcome.status) == (recorded, 200)
    paid = await purchase(database, recorded)
    assert (paid.status, paid.charge_id) == ("success", charged.id)
    assert (await purchases_of(database, user_id), await charges_of(database, user_id)) == (1, 1)


async def test_a_retry_after_a_crash_after_the_outcome_answers_it_again_as_it_was(database, provider, shop):
    user_id, event_id, ppv, _card, key = shop
    first = await buy(database, provider, user_id, event_id, ppv.id, key)
    paid = await purchase(database, first.record_id)

    again = await buy(database, provider, user_id, event_id, ppv.id, key)

    assert (again.record_id, again.status, again.mail_ids) == (first.record_id, 200, ())  # no second receipt
    assert (await purchase(database, first.record_id)).valid_until == paid.valid_until
    assert (await purchases_of(database, user_id), await charges_of(database, user_id)) == (1, 1)


async def test_the_key_of_one_products_checkout_cannot_buy_another(database, provider, shop):
    user_id, event_id, ppv, _card, key = shop
    await left_by_a_dead_attempt(database, user_id, ppv, key)
    other = await product(database, "ppv", event_id=event_id)

    with pytest.raises(checkout.KeyReused):
        await buy(database, provider, user_id, event_id, other.id, key)


async def test_a_subscription_retry_after_a_crash_goes_on_with_the_recorded_contract(database, provider, shop):
    user_id, _event_id, _ppv, _card, key = shop
    plan = await product(database, "svod", on_sale=False)  # off sale: the session's catalogue stays as it is
    row = grants.new_contract(plan, user_id, clock.now())
    row.id = checkout.key_record_id(user_id, key)
    async with database.session() as db:
        db.add(row)
        await db.commit()

    outcome = await checkout.subscribe(
        database,
        provider,
        user_id,
        product_id=plan.id,
        source=checkout.PaymentSource(),
        idempotency_key=key,
        region=None,
    )

    assert (outcome.record_id, outcome.status) == (row.id, 200)
    assert (await contract(database, row.id)).status == "active"
    assert await charges_of(database, user_id) == 1
