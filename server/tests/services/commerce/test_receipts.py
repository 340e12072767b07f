"""Mail about money: every purchase, subscription and renewal that was paid leaves a receipt in
the outbox for the viewer, and a renewal that failed tells them, exactly once per outcome however
many settlers or runs apply it; refusals and free products write nothing.

The module runs on a database of its own (a renewal run looks at every contract of its database)."""

from datetime import timedelta

import pytest
from sqlalchemy import delete, select

from server import clock
from server.models import Contract, User
from server.services import mail
from server.services.commerce import checkout, renewals, settlement
from server.tests.billing import (
    ACTION_DELAY,
    ACTION_THEN_DECLINE,
    ACTION_THEN_SUCCESS,
    DECLINED,
    GOOD_CARD,
    active_contract,
    card,
    new_viewer,
    pending_contract,
    pending_purchase,
    private_database,
    sandbox,
    store_card,
)
from server.tests.commerce import paid_event, product
from server.tests.mailbox import mails_to

RECEIPT = mail.MailKind.PURCHASE_RECEIPT
RENEWAL_FAILED = mail.MailKind.RENEWAL_FAILED


@pytest.fixture(scope="module")
async def database(database_url, tmp_path_factory):
    async with private_database(database_url, tmp_path_factory.mktemp("receipts")) as database:
        yield database


@pytest.fixture(autouse=True)
async def no_contracts_left(database):
    yield
    async with database.session() as db:
        await db.execute(delete(Contract))
        await db.commit()


@pytest.fixture
def provider(database):
    return sandbox(database)


async def email_of(database, user_id: str | None) -> str:
    async with database.session() as db:
        return (await db.execute(select(User.email).where(User.id == user_id))).scalar_one()


async def buy_ppv(database, provider, settings, number: str = GOOD_CARD):
    event = await paid_event(database)
    ppv = await product(database, "ppv", event_id=event.id, price_minor=999, title="Derby pay-per-view")
    user_id = await new_viewer(database)
    token = await provider.tokenize(card(number), owner_id=user_id)
    outcome = await checkout.buy_ppv(
        database,
        provider,
        user_id,
        event_id=event.id,
        product_id=ppv.id,
        source=checkout.PaymentSource(token=token.token),
        idempotency_key=f"key-{user_id}",
        region=None,
        settings=settings,
    )
    return outcome, await email_of(database, user_id)


async def test_a_pay_per_view_paid_by_card_writes_one_receipt_to_the_buyer(database, provider, settings):
    outcome, email = await buy_ppv(database, provider, settings)
    assert outcome.status == 200

    [receipt] = await mails_to(database, email, RECEIPT)
    assert receipt.subject == "Your Touchline receipt: Derby pay-per-view"
    assert "Amount paid: 9.99 EUR" in receipt.text
    assert "Paid with: Visa ending in 4242" in receipt.text
    assert f"Receipt number: {outcome.record_id}" in receipt.text
    assert f"{settings.base_url}/account/ppv/{outcome.record_id}" in receipt.text
    assert receipt.status == mail.KEPT and outcome.mail_ids == ()  # no SMTP: nothing to send


async def test_with_smtp_the_receipt_is_queued_for_sending_after_the_answer(database, provider, settings):
    outcome, email = await buy_ppv(database, provider, settings.model_copy(update={"smtp_host": "127.0.0.1"}))
    [receipt] = await mails_to(database, email, RECEIPT)
    assert receipt.status == mail.QUEUED
    assert outcome.mail_ids == (receipt.id,)


async def test_a_refused_card_writes_no_receipt(database, provider, settings):
    outcome, email = await buy_ppv(database, provider, settings, DECLINED)
    assert outcome.status == 402
    assert await mails_to(database, email) == []


async def test_a_requires_action_purchase_gets_its_receipt_once_when_it_settles(database, provider, settings):
    bought, _ = await pending_purchase(database, provider, ACTION_THEN_SUCCESS)
    email = await email_of(database, bought.user_id)
    assert await mails_to(database, email) == []  # still processing

    clock.advance(ACTION_DELAY)
    await settlement.settle_due(database, provider, settings=settings)
    await settlement.settle_due(database, provider, settings=settings)
    await settlement.settle_purchase(database, provider, bought.id, settings)

    [receipt] = await mails_to(database, email, RECEIPT)
    assert f"Receipt number: {bought.id}" in receipt.text


async def test_a_requires_action_purchase_that_is_declined_writes_no_receipt(database, provider, settings):
    bought, _ = await pending_purchase(database, provider, ACTION_THEN_DECLINE)
    clock.advance(ACTION_DELAY)
    await settlement.settle_due(database, provider, settings=settings)
    assert await mails_to(database, await email_of(database, bought.user_id)) == []


async def test_a_subscription_paid_by_card_writes_a_receipt_with_its_renewal_date(database, provider, settings):
    plan = await product(database, "svod", price_minor=1499, title="League pass", on_sale=True)
    user_id = await new_viewer(database)
    token = await provider.tokenize(card(), owner_id=user_id)
    outcome = await checkout.subscribe(
        database,
        provider,
        user_id,
        product_id=plan.id,
        source=checkout.PaymentSource(token=token.token, save_card=True),
        idempotency_key=f"key-{user_id}",
        region=None,
        settings=settings,
    )
    assert outcome.status == 200
    [receipt] = await mails_to(database, await email_of(database, user_id), RECEIPT)
    assert receipt.subject == "Your Touchline receipt: League pass"
    assert "Amount paid: 14.99 EUR" in receipt.text and "Renews: " in receipt.text
    assert f"{settings.base_url}/account/subscription/{outcome.record_id}" in receipt.text


async def test_a_subscription_settled_after_requires_action_gets_one_receipt(database, provider, settings):
    pending, _ = await pending_contract(database, provider, ACTION_THEN_SUCCESS)
    clock.advance(ACTION_DELAY)
    first = await settlement.settle_contract(database, provider, pending.id, settings)
    again = await settlement.settle_contract(database, provider, pending.id, settings)
    assert first is not None and again is None
    assert len(await mails_to(database, await email_of(database, pending.user_id), RECEIPT)) == 1


async def subscriber(database, provider, number: str | None):
    user_id = await new_viewer(database)
    if number is not None:
        await store_card(database, provider, user_id, number)
    plan = await product(database, "svod", price_minor=1499, title="Monthly pass")
    contract = await active_contract(database, plan, user_id)
    assert contract.period_end is not None
    clock.advance(contract.period_end - clock.now() + timedelta(minutes=1))
    return contract, await email_of(database, user_id)


async def test_a_paid_renewal_writes_a_receipt_once(database, provider, settings):
    contract, email = await subscriber(database, provider, GOOD_CARD)
    report = await renewals.run(database, provider, settings=settings)
    again = await renewals.run(database, provider, settings=settings)
    assert report.renewed == 1 and again.renewed == 0

    [receipt] = await mails_to(database, email, RECEIPT)
    assert receipt.subject == "Your Touchline receipt: Monthly pass (renewal)"
    assert f"Receipt number: {contract.id}-1" in receipt.text
    assert await mails_to(database, email, RENEWAL_FAILED) == []


async def test_a_refused_renewal_tells_the_viewer_once_with_the_end_of_the_grace_period(database, provider, settings):
    contract, email = await subscriber(database, provider, DECLINED)
    await renewals.run(database, provider, settings=settings)
    # The daily retry fails again: the viewer was told already.
    clock.advance(renewals.RETRY_EVERY + timedelta(minutes=1))
    await renewals.run(database, provider, settings=settings)

    [notice] = await mails_to(database, email, RENEWAL_FAILED)
    assert notice.subject == "We could not renew your Touchline subscription: Monthly pass"
    assert "14.99 EUR" in notice.text and f"{settings.base_url}/account/billing" in notice.text
    async with database.session() as db:
        stored = await db.get(Contract, contract.id)
    assert stored is not None and stored.status == "past_due" and stored.grace_until is not None
    assert stored.grace_until.strftime("%d %B %Y") in notice.text
    assert await mails_to(database, email, RECEIPT) == []


async def test_a_renewal_without_a_stored_card_tells_the_viewer(database, provider, settings):
    _, email = await subscriber(database, provider, None)
    await renewals.run(database, provider, settings=settings)
    assert len(await mails_to(database, email, RENEWAL_FAILED)) == 1


async def test_a_dry_run_writes_no_mail(database, provider, settings):
    _, email = await subscriber(database, provider, DECLINED)
    await renewals.run(database, provider, dry_run=True, settings=settings)
    assert await mails_to(database, email) == []
