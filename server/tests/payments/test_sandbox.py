"""The sandbox provider: test card outcomes, card checks, single-use tokens, stored cards."""

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from server import clock
from server.models import CardHandle, PaymentCharge, new_id
from server.payments import (
    ChargeStatus,
    InvalidCard,
    InvalidCardToken,
    PaymentProvider,
    SandboxProvider,
    provider_for,
)
from server.payments.cards import brand_of, luhn_valid
from server.settings import Settings

from .conftest import card


async def pay(sandbox, user_id, number, amount=1999, currency="EUR"):
    token = await sandbox.tokenize(card(number), owner_id=user_id)
    return await sandbox.charge(
        token.token, owner_id=user_id, amount_minor=amount, currency=currency, reference=new_id()
    )


@pytest.mark.parametrize(
    ("number", "status", "code"),
    [
        ("4242424242424242", ChargeStatus.SUCCEEDED, None),
        ("5555555555554444", ChargeStatus.SUCCEEDED, None),
        ("4000000000000002", ChargeStatus.DECLINED, "card_declined"),
        ("4000000000009995", ChargeStatus.INSUFFICIENT_FUNDS, "insufficient_funds"),
        ("4000000000000069", ChargeStatus.EXPIRED_CARD, "card_expired"),
    ],
)
async def test_each_immediate_test_card_gives_its_documented_outcome(sandbox, user_id, number, status, code):
    charge = await pay(sandbox, user_id, number)
    assert charge.status is status
    assert charge.amount_minor == 1999 and charge.currency == "EUR"
    failure = charge.failure()
    if code is None:
        assert failure is None and charge.succeeded
    else:
        assert failure.status == 402 and failure.code == code


async def test_requires_action_card_processes_for_the_delay_then_succeeds(sandbox, user_id):
    charge = await pay(sandbox, user_id, "4000000000003220")
    assert charge.status is ChargeStatus.REQUIRES_ACTION and charge.pending and charge.failure() is None
    clock.advance(timedelta(seconds=4))
    assert (await sandbox.charge_status(charge.id)).status is ChargeStatus.REQUIRES_ACTION
    clock.advance(timedelta(seconds=1))
    assert (await sandbox.charge_status(charge.id)).status is ChargeStatus.SUCCEEDED
    clock.reset()  # decided for good: the outcome no longer depends on the clock
    assert (await sandbox.charge_status(charge.id)).status is ChargeStatus.SUCCEEDED


async def test_requires_action_failure_card_processes_for_the_delay_then_is_declined(sandbox, user_id):
    charge = await pay(sandbox, user_id, "4000000000003063")
    assert charge.status is ChargeStatus.REQUIRES_ACTION
    clock.advance(timedelta(seconds=5))
    final = await sandbox.charge_status(charge.id)
    assert final.status is ChargeStatus.DECLINED and final.failure().code == "card_declined"


async def test_requires_action_delay_follows_the_setting(database, user_id):
    provider = provider_for(Settings(environment="test", payment_sandbox_action_seconds=30), database)
    charge = await pay(provider, user_id, "4000000000003220")
    clock.advance(timedelta(seconds=29))
    assert (await provider.charge_status(charge.id)).pending
    clock.advance(timedelta(seconds=1))
    assert (await provider.charge_status(charge.id)).succeeded


async def test_unknown_charge_id_is_a_lookup_error(sandbox):
    with pytest.raises(LookupError):
        await sandbox.charge_status("ch_sandbox_nothing")


async def test_tokenize_returns_only_what_may_be_shown_about_the_card(sandbox, user_id, database):
    token = await sandbox.tokenize(card("4242424242424242", exp_month=7, exp_year=2031), owner_id=user_id)
    assert token.token.startswith("tok_sandbox_")
    assert token.card.as_contract() == {"brand": "visa", "last4": "4242", "expMonth": 7, "expYear": 2031}
    assert abs(token.expires_at - (clock.now() + timedelta(minutes=15))) <= timedelta(seconds=5)
    async with database.session() as db:
        row = (await db.execute(select(CardHandle).where(CardHandle.owner_id == user_id))).scalar_one()
    stored = " ".join(str(getattr(row, column.key)) for column in CardHandle.__table__.columns)
    assert "4242424242424242" not in stored and token.token not in stored
    assert (row.brand, row.last4, row.holder, row.test_outcome) == ("visa", "4242", "Ada Lovelace", "success")


@pytest.mark.parametrize(
    ("number", "brand"),
    [
        ("4242424242424242", "visa"),
        ("5555555555554444", "mastercard"),
        ("2223003122003222", "mastercard"),
        ("378282246310005", "amex"),
        ("6011111111111117", "discover"),
        ("3566002020360505", "unknown"),
    ],
)
def test_brand_comes_from_the_number_prefix(number, brand):
    assert luhn_valid(number)
    assert brand_of(number) == brand


async def test_number_failing_the_luhn_check_is_refused(sandbox, user_id):
    with pytest.raises(InvalidCard) as refused:
        await sandbox.tokenize(card("4242424242424241"), owner_id=user_id)
    assert refused.value.status == 400 and refused.value.code == "invalid_card"


async def test_card_past_its_expiry_month_is_refused(sandbox, user_id):
    now = clock.now()
    last_month = (now.month - 2) % 12 + 1
    year = now.year if now.month > 1 else now.year - 1
    with pytest.raises(InvalidCard, match="expired"):
        await sandbox.tokenize(card(exp_month=last_month, exp_year=year), owner_id=user_id)
    # Valid through the last day of its expiry month.
    assert await sandbox.tokenize(card(exp_month=now.month, exp_year=now.year), owner_id=user_id)


@pytest.mark.parametrize("details", [{"cvc": "12"}, {"cvc": "abc"}, {"exp_month": 13}, {"number": "42424242"}])
async def test_malformed_card_details_are_refused(sandbox, user_id, details):
    with pytest.raises(InvalidCard):
        await sandbox.tokenize(card(**details), owner_id=user_id)


async def test_token_pays_once(sandbox, user_id):
    token = await sandbox.tokenize(card(), owner_id=user_id)
    await sandbox.charge(token.token, owner_id=user_id, amount_minor=500, currency="USD", reference=new_id())
    with pytest.raises(InvalidCardToken) as refused:
        await sandbox.charge(token.token, owner_id=user_id, amount_minor=500, currency="USD", reference=new_id())
    assert refused.value.status == 400 and refused.value.code == "invalid_card_token"


async def test_token_expires_after_fifteen_minutes(sandbox, user_id):
    token = await sandbox.tokenize(card(), owner_id=user_id)
    clock.advance(timedelta(minutes=15))
    with pytest.raises(InvalidCardToken):
        await sandbox.charge(token.token, owner_id=user_id, amount_minor=500, currency="USD", reference=new_id())


async def test_token_is_usable_until_it_expires(sandbox, user_id):
    token = await sandbox.tokenize(card(), owner_id=user_id)
    clock.advance(timedelta(minutes=14, seconds=59))
    charge = await sandbox.charge(token.token, owner_id=user_id, amount_minor=500, currency="USD", reference=new_id())
    assert charge.succeeded


async def test_another_accounts_token_cannot_pay(sandbox, user_id, database):
    from server.models import User

    async with database.session() as db:
        other = User(
            id=new_id(), email=f"other-{new_id()}@example.test", display_name="Other", club_list=[], options={}
        )
        db.add(other)
        await db.commit()
    token = await sandbox.tokenize(card(), owner_id=other.id)
    with pytest.raises(InvalidCardToken):
        await sandbox.charge(token.token, owner_id=user_id, amount_minor=500, currency="USD", reference=new_id())
    with pytest.raises(InvalidCardToken):
        await sandbox.charge(
            "tok_sandbox_made_up", owner_id=user_id, amount_minor=500, currency="USD", reference=new_id()
        )


async def test_stored_card_pays_again_and_again_and_spends_its_token(sandbox, user_id):
    token = await sandbox.tokenize(card("5555555555554444"), owner_id=user_id)
    stored = await sandbox.store_card(token.token, owner_id=user_id)
    assert stored.reference.startswith("card_sandbox_")
    assert (stored.card.brand, stored.card.last4, stored.card.holder) == ("mastercard", "4444", "Ada Lovelace")
    clock.advance(timedelta(days=40))  # stored cards do not expire like tokens
    for _ in range(2):
        charge = await sandbox.charge(
            stored.reference, owner_id=user_id, amount_minor=999, currency="GBP", reference=new_id()
        )
        assert charge.succeeded and charge.card.last4 == "4444"
    with pytest.raises(InvalidCardToken):
        await sandbox.store_card(token.token, owner_id=user_id)


async def test_stored_card_keeps_its_test_outcome(sandbox, user_id):
    token = await sandbox.tokenize(card("4000000000009995"), owner_id=user_id)
    stored = await sandbox.store_card(token.token, owner_id=user_id)
    charge = await sandbox.charge(
        stored.reference, owner_id=user_id, amount_minor=999, currency="EUR", reference=new_id()
    )
    assert charge.status is ChargeStatus.INSUFFICIENT_FUNDS


async def test_stored_card_past_its_expiry_gives_expired_card(sandbox, user_id):
    now = clock.now()
    token = await sandbox.tokenize(card(exp_month=now.month, exp_year=now.year), owner_id=user_id)
    stored = await sandbox.store_card(token.token, owner_id=user_id)
    clock.advance(timedelta(days=62))
    charge = await sandbox.charge(
        stored.reference, owner_id=user_id, amount_minor=999, currency="EUR", reference=new_id()
    )
    assert charge.status is ChargeStatus.EXPIRED_CARD and charge.failure().code == "card_expired"


async def test_charging_again_with_the_same_reference_moves_no_money(sandbox, user_id, database):
    token = await sandbox.tokenize(card("5555555555554444"), owner_id=user_id)
    stored = await sandbox.store_card(token.token, owner_id=user_id)
    reference = new_id()
    first = await sandbox.charge(
        stored.reference, owner_id=user_id, amount_minor=700, currency="EUR", reference=reference
    )
    again = await sandbox.charge(
        stored.reference, owner_id=user_id, amount_minor=700, currency="EUR", reference=reference
    )
    assert again == first
    async with database.session() as db:
        count = await db.scalar(
            select(func.count()).select_from(PaymentCharge).where(PaymentCharge.owner_id == user_id)
        )
    assert count == 1


async def test_settings_choose_the_sandbox_behind_the_provider_interface(database):
    settings = Settings(environment="test")
    assert settings.payment_provider == "sandbox"
    provider = provider_for(settings, database)
    assert isinstance(provider, SandboxProvider) and isinstance(provider, PaymentProvider)
    assert provider.action_delay == timedelta(seconds=5)
