"""Settlement: "requires action" charges reach their purchase or contract once the provider has
decided, and exactly one settler returns the announcement the viewer is told with
(`user-purchase-status`), however many settlers (server processes, reads) run at the same time."""

import asyncio

import pytest

from server import clock
from server.db import Database
from server.models import Purchase
from server.payments import Charge
from server.services.commerce import settlement
from server.tests.billing import (
    ACTION_DELAY,
    ACTION_THEN_DECLINE,
    ACTION_THEN_SUCCESS,
    UnexpectedCalls,
    contract,
    pending_contract,
    pending_purchase,
    purchase,
    purchase_messages,
    sandbox,
    told_here,
)
from server.tests.commerce import paid_event
from server.tests.mailbox import recording_socket


@pytest.fixture
def provider(database):
    return sandbox(database)


# --- purchases ------------------------------------------------------------------------------------


async def test_requires_action_purchase_that_succeeds_settles_once_and_tells_the_viewer(database, provider):
    bought, event_id = await pending_purchase(database, provider, ACTION_THEN_SUCCESS)
    with told_here() as told:
        told(await settlement.settle_due(database, provider))
        assert (await purchase(database, bought.id)).status == "in progress"  # still deciding

        clock.advance(ACTION_DELAY)
        report = told(await settlement.settle_due(database, provider))
        told(await settlement.settle_due(database, provider))
        assert not told(await settlement.settle_purchase(database, provider, bought.id))

    assert report.settled >= 1
    settled = await purchase(database, bought.id)
    assert settled.status == "success" and settled.error_code is None
    assert settled.valid_from is not None and settled.valid_until is not None and settled.valid_until > clock.now()
    assert purchase_messages(told, bought.id) == [
        {"purchaseId": bought.id, "status": "success", "productId": bought.product_id, "eventId": event_id}
    ]
    [(_, _, room)] = [m for m in told.sent if m[1].get("purchaseId") == bought.id]
    assert room == f"user:{bought.user_id}"


async def test_requires_action_purchase_that_is_declined_settles_as_an_error_with_the_card_code(database, provider):
    bought, event_id = await pending_purchase(database, provider, ACTION_THEN_DECLINE)
    clock.advance(ACTION_DELAY)
    with told_here() as told:
        told(await settlement.settle_due(database, provider))
        told(await settlement.settle_due(database, provider))

    failed = await purchase(database, bought.id)
    assert failed.status == "error" and failed.error_code == "card_declined" and failed.valid_until is None
    assert purchase_messages(told, bought.id) == [
        {"purchaseId": bought.id, "status": "error", "productId": bought.product_id, "eventId": event_id}
    ]


async def test_a_read_after_the_provider_decided_shows_the_outcome_without_the_background_loop(database, provider):
    bought, _ = await pending_purchase(database, provider, ACTION_THEN_SUCCESS)
    with told_here() as told:
        assert not told(await settlement.settle_purchase(database, provider, bought.id))  # not decided yet
        clock.advance(ACTION_DELAY)
        assert told(await settlement.settle_purchase(database, provider, bought.id))
        assert not told(await settlement.settle_purchase(database, provider, bought.id))
    assert (await purchase(database, bought.id)).status == "success"
    assert [m["status"] for m in purchase_messages(told, bought.id)] == ["success"]


async def test_reading_a_purchase_that_is_not_pending_asks_the_provider_nothing(database, provider):
    bought, _ = await pending_purchase(database, provider, ACTION_THEN_SUCCESS)
    clock.advance(ACTION_DELAY)
    await settlement.settle_purchase(database, provider, bought.id)

    class Silent(UnexpectedCalls):
        name = "sandbox"

        async def charge_status(self, charge_id: str) -> Charge:
            raise AssertionError("a settled purchase needs no provider call")

    assert not await settlement.settle_purchase(database, Silent(), bought.id)
    assert not await settlement.settle_purchase(database, Silent(), "f" * 24)  # no such purchase


async def test_concurrent_settlers_in_several_processes_apply_and_announce_an_outcome_once(database, provider):
    bought, _ = await pending_purchase(database, provider, ACTION_THEN_SUCCESS)
    subscription, _ = await pending_contract(database, provider, ACTION_THEN_SUCCESS)
    clock.advance(ACTION_DELAY)
    # Another process: its own engine (on SQLite its own writer queue, so the database arbitrates).
    other = Database(database.url)
    try:
        with told_here() as told:
            results = await asyncio.gather(
                *(settlement.settle_due(db, sandbox(db)) for db in (database, other, database, other)),
                *(settlement.settle_purchase(db, sandbox(db), bought.id) for db in (database, other)),
                *(settlement.settle_contract(db, sandbox(db), subscription.id) for db in (database, other)),
            )
            for result in results:
                told(result)
    finally:
        await other.dispose()
    assert (await purchase(database, bought.id)).status == "success"
    assert (await contract(database, subscription.id)).status == "active"
    assert [m["status"] for m in purchase_messages(told, bought.id)] == ["success"]
    assert [m["status"] for m in purchase_messages(told, subscription.id)] == ["success"]


async def test_a_charge_the_provider_does_not_know_is_logged_and_left_pending(database, provider, caplog):
    bought, _ = await pending_purchase(database, provider, ACTION_THEN_SUCCESS)
    async with database.session() as db:
        (await db.get(Purchase, bought.id)).charge_id = "ch_sandbox_unknown"
        await db.commit()
    clock.advance(ACTION_DELAY)
    report = await settlement.settle_due(database, provider)
    assert report.errors >= 1
    assert not await settlement.settle_purchase(database, provider, bought.id)
    assert (await purchase(database, bought.id)).status == "in progress"
    assert "ch_sandbox_unknown" in caplog.text


# --- contracts ------------------------------------------------------------------------------------


async def test_requires_action_subscription_becomes_active_for_one_month_from_settlement(database, provider):
    subscription, plan = await pending_contract(database, provider, ACTION_THEN_SUCCESS)
    with told_here() as told:
        assert not told(await settlement.settle_contract(database, provider, subscription.id))
        clock.advance(ACTION_DELAY)
        settled_at = clock.now()
        told(await settlement.settle_due(database, provider))
        told(await settlement.settle_due(database, provider))

    active = await contract(database, subscription.id)
    assert (active.status, active.payment_status, active.auto_renew) == ("active", "success", True)
    assert active.start_date is not None and active.start_date >= settled_at
    assert active.period_end is not None
    assert active.period_end.month == (active.start_date.month % 12) + 1  # one calendar month
    assert purchase_messages(told, subscription.id) == [
        {"purchaseId": subscription.id, "status": "success", "productId": plan.id}  # svod: no event
    ]


async def test_requires_action_subscription_that_is_declined_fails_and_never_renews(database, provider):
    subscription, plan = await pending_contract(database, provider, ACTION_THEN_DECLINE)
    clock.advance(ACTION_DELAY)
    with told_here() as told:
        assert told(await settlement.settle_contract(database, provider, subscription.id))
        told(await settlement.settle_due(database, provider))

    failed = await contract(database, subscription.id)
    assert (failed.status, failed.payment_status, failed.auto_renew) == ("failed", "error", False)
    assert failed.period_end is None
    assert purchase_messages(told, subscription.id) == [
        {"purchaseId": subscription.id, "status": "error", "productId": plan.id}
    ]


async def test_a_channel_subscription_names_its_channel_in_the_message(database, provider):
    channel = await paid_event(database, status="channel", commerce_type="commerce_subscription-basic_media")
    subscription, plan = await pending_contract(database, provider, ACTION_THEN_SUCCESS, "cvod", channel.id)
    clock.advance(ACTION_DELAY)
    with told_here() as told:
        told(await settlement.settle_contract(database, provider, subscription.id))
    assert purchase_messages(told, subscription.id) == [
        {"purchaseId": subscription.id, "status": "success", "productId": plan.id, "eventId": channel.id}
    ]


async def test_settling_sends_nothing_itself_and_returns_the_announcement_for_its_caller(database, provider):
    bought, event_id = await pending_purchase(database, provider, ACTION_THEN_SUCCESS)
    clock.advance(ACTION_DELAY)
    with recording_socket() as socket:
        announcement = await settlement.settle_purchase(database, provider, bought.id)
    assert not socket.sent
    assert announcement is not None and announcement.notice_id is not None  # for whoever sends it
    assert announcement == settlement.Announcement(
        bought.user_id, bought.id, "success", bought.product_id, event_id, notice_id=announcement.notice_id
    )
    assert (await purchase(database, bought.id)).status == "success"
