"""Automatic credit when a paid stream fails (issue 32 §3): while a pay-per-view event is live, the
`outage-credit` job watches its stream; once its outages add up to TOUCHLINE_OUTAGE_CREDIT_MINUTES
every buyer who paid before the outage ended is credited TOUCHLINE_OUTAGE_CREDIT_DELAY_SECONDS
later, exactly once (a refund, a mail, a socket message, an audit entry), whatever dies or runs
twice on the way (server.services.outage_watch, server.services.outage_credit)."""

import asyncio
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from server import clock
from server.db import Database
from server.jobs import jobs_for
from server.models import AccessCode, OutageCredit, OutageCreditGrant, PaymentCharge, Product
from server.services import outage_credit
from server.services.commerce import access_codes
from server.tests.billing import new_viewer, purchase, sandbox
from server.tests.commerce import product
from server.tests.mailbox import recording_socket
from server.tests.outage_credits import (
    DyingSandbox,
    ProcessDied,
    a_round,
    buyers,
    credit_entries,
    credit_mails,
    credited_messages,
    describe,
    failing_starts,
    interrupt,
    later,
    live_ppv_event,
    recover,
    refunds_of,
    set_status,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 1499


async def outage_of(database, settings, event_id: str, minutes: float) -> str:
    """The event's ingest interrupted for `minutes`, seen by a round as it began and as it ended."""
    asset = await interrupt(database, event_id)
    await a_round(database, settings)
    later(minutes=minutes)
    await recover(database, asset)
    await a_round(database, settings)
    return asset


async def credit_scheduled_by_an_outage(database, settings, event_id: str) -> None:
    """An interrupted ingest crosses the threshold (10 minutes) and comes back: a credit is due
    5 minutes later."""
    await outage_of(database, settings, event_id, minutes=11)
    credit = (await describe(database, settings, event_id)).credit
    assert credit is not None and credit.status == "scheduled"


async def credit_status(database, settings, event_id: str) -> str | None:
    credit = (await describe(database, settings, event_id)).credit
    return credit.status if credit is not None else None


async def assert_credited_once(database, socket, buyer, event_id: str) -> None:
    """The buyer's purchase was refunded in full once, with one mail, one socket message and one
    audit entry."""
    [refund] = await refunds_of(database, buyer.purchase_id)
    paid = await purchase(database, buyer.purchase_id)
    assert (refund.charge_id, refund.amount_minor, refund.currency) == (paid.charge_id, PRICE, "EUR")
    [mail] = await credit_mails(database, buyer.email)
    assert "14.99 EUR" in mail.text and mail.staff_text == mail.text
    assert credited_messages(socket, buyer) == [
        {
            "purchaseId": buyer.purchase_id,
            "eventId": event_id,
            "kind": "refund",
            "amountMinor": PRICE,
            "currency": "EUR",
        }
    ]
    [entry] = await credit_entries(database, buyer.purchase_id)
    assert (entry.actor_type, entry.actor_id, entry.method, entry.path, entry.status) == (
        "system",
        None,
        "JOB",
        "outage-credit",
        200,
    )
    assert entry.detail == {"event": event_id, "kind": "refund", "amountMinor": PRICE}


# --- the watch ------------------------------------------------------------------------------------


async def test_an_ingest_interrupted_past_the_threshold_credits_each_buyer_once_after_the_delay(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    bought = await buyers(database, event, ppv, 3)
    job = jobs_for(settings, database)["outage-credit"][1]  # the round as server.jobs runs it
    asset = await interrupt(database, event.id)

    with recording_socket() as socket:
        await job()
        later(minutes=10)
        await job()  # ten minutes of outage: the credit is scheduled
        described = await describe(database, settings, event.id)
        assert described.credit is not None
        assert (described.credit.status, described.credit.reason, described.credit.buyers) == (
            "scheduled",
            "automatic",
            3,
        )
        assert described.credit.due == described.credit.cutoff + timedelta(seconds=300)
        # Five seconds short of the due time on the server's clock, whatever wall time the steps
        # above took (a loaded CI machine spent more than the one second 4 min 59 s left).
        later(seconds=(described.credit.due - clock.now()).total_seconds() - 5)
        await job()
        assert [await refunds_of(database, b.purchase_id) for b in bought] == [[], [], []]  # staff may cancel
        later(seconds=5)
        await job()
        await recover(database, asset)
        later(minutes=1)
        await job()
        await job()

    for buyer in bought:
        await assert_credited_once(database, socket, buyer, event.id)
    described = await describe(database, settings, event.id)
    assert described.credit is not None
    assert (described.credit.status, described.credit.buyers, described.credit.credited) == ("done", 3, 3)
    assert [(o.cause, o.ended is not None) for o in described.outages] == [("ingest", True)]


async def test_a_process_that_dies_after_a_refund_leaves_each_buyer_credited_exactly_once(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    bought = await buyers(database, event, ppv, 3)
    await credit_scheduled_by_an_outage(database, settings, event.id)
    later(minutes=5)

    with recording_socket() as socket:
        with pytest.raises(ProcessDied):  # the second buyer's money went back; nothing recorded it
            await a_round(database, settings, DyingSandbox(database, dies_after=2))
        assert await credit_status(database, settings, event.id) == "running"
        round_ = await a_round(database, settings)  # the next round, in any process

    assert len(round_.credited) == 2 and round_.finished == [event.id]
    for buyer in bought:
        await assert_credited_once(database, socket, buyer, event.id)


async def test_a_refund_that_fails_is_tried_again_next_round_without_holding_up_the_others(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    first, second = await buyers(database, event, ppv, 2)
    await credit_scheduled_by_an_outage(database, settings, event.id)
    later(minutes=5)
    async with database.session() as db:
        charge = await db.get(PaymentCharge, (await purchase(database, first.purchase_id)).charge_id)
        charge.status = "declined"  # the provider refuses this refund for now
        await db.commit()

    with recording_socket() as socket:
        round_ = await a_round(database, settings)
        assert round_.failed == [first.purchase_id] and [c.purchase_id for c in round_.credited] == [second.purchase_id]
        assert await credit_status(database, settings, event.id) == "running"
        async with database.session() as db:
            (await db.get(PaymentCharge, charge.id)).status = "succeeded"
            await db.commit()
        await a_round(database, settings)

    for buyer in (first, second):
        await assert_credited_once(database, socket, buyer, event.id)
    assert await credit_status(database, settings, event.id) == "done"


async def test_a_buyer_who_paid_after_the_outage_ended_is_not_credited(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    [before] = await buyers(database, event, ppv, 1)
    asset = await interrupt(database, event.id)
    await a_round(database, settings)
    later(minutes=10)
    await a_round(database, settings)  # the threshold is crossed; the outage goes on
    later(minutes=1)
    [during] = await buyers(database, event, ppv, 1)  # paid for a stream that was still down
    later(minutes=1)
    await recover(database, asset)
    await a_round(database, settings)
    later(seconds=1)
    [after] = await buyers(database, event, ppv, 1)
    later(minutes=5)

    with recording_socket() as socket:
        await a_round(database, settings)

    for buyer in (before, during):
        await assert_credited_once(database, socket, buyer, event.id)
    assert await refunds_of(database, after.purchase_id) == []
    assert await credit_mails(database, after.email) == [] and credited_messages(socket, after) == []
    described = await describe(database, settings, event.id)
    assert described.credit is not None and (described.credit.buyers, described.credit.credited) == (2, 2)


async def test_short_outages_that_add_up_past_the_threshold_count_together(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    [buyer] = await buyers(database, event, ppv, 1)
    for minutes in (4, 3):
        await outage_of(database, settings, event.id, minutes)
        later(minutes=2)
    assert (await describe(database, settings, event.id)).credit is None  # seven minutes so far

    await outage_of(database, settings, event.id, 3)
    later(minutes=5)
    with recording_socket() as socket:
        await a_round(database, settings)

    described = await describe(database, settings, event.id)
    assert 600 <= described.outage_seconds < 610 and described.threshold_seconds == 600
    assert [o.cause for o in described.outages] == ["ingest"] * 3
    await assert_credited_once(database, socket, buyer, event.id)


async def test_an_outage_shorter_than_the_threshold_credits_nobody(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    [buyer] = await buyers(database, event, ppv, 1)
    await outage_of(database, settings, event.id, minutes=9)
    later(hours=1)
    await a_round(database, settings)

    described = await describe(database, settings, event.id)
    assert 540 <= described.outage_seconds < 550 and described.credit is None
    assert await refunds_of(database, buyer.purchase_id) == []


async def test_technical_start_failures_above_the_rate_make_the_stream_unavailable(database, settings):
    event, _ = await live_ppv_event(database, PRICE)
    await failing_starts(database, settings, event.id, plays=4, failures=4)  # fewer plays than judged
    await a_round(database, settings)
    assert (await describe(database, settings, event.id)).outages == []

    await failing_starts(database, settings, event.id, plays=6, failures=2)  # 6 of 10 plays failed
    await a_round(database, settings)

    [outage] = (await describe(database, settings, event.id)).outages
    assert (outage.cause, outage.ended) == ("start_failures", None)


async def test_an_event_that_is_no_longer_live_ends_its_outage_and_is_not_watched(database, settings):
    event, _ = await live_ppv_event(database, PRICE)
    await interrupt(database, event.id)
    await a_round(database, settings)
    later(minutes=2)
    await set_status(database, event.id, "archived")
    await a_round(database, settings)
    later(minutes=20)
    await a_round(database, settings)

    described = await describe(database, settings, event.id)
    assert 120 <= described.outage_seconds < 130 and described.credit is None


async def test_an_event_without_a_pay_per_view_product_is_not_watched(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    async with database.session() as db:
        (await db.get(Product, ppv.id)).event_id = None
        await db.commit()
    await interrupt(database, event.id)
    await a_round(database, settings)
    later(minutes=11)
    await a_round(database, settings)
    assert (await describe(database, settings, event.id)).outages == []


# --- staff ----------------------------------------------------------------------------------------


async def test_a_credit_staff_cancel_before_it_runs_credits_nobody_and_later_outages_schedule_no_other(
    database, settings
):
    event, ppv = await live_ppv_event(database, PRICE)
    [buyer] = await buyers(database, event, ppv, 1)
    staff_id = await new_viewer(database)
    await credit_scheduled_by_an_outage(database, settings, event.id)
    async with database.write_session() as db:
        await outage_credit.cancel(db, event.id, staff_id, clock.now())

    later(minutes=5)
    await a_round(database, settings)
    await outage_of(database, settings, event.id, minutes=11)
    later(minutes=10)
    await a_round(database, settings)

    described = await describe(database, settings, event.id)
    assert described.credit is not None and (described.credit.status, described.credit.credited) == ("cancelled", 0)
    assert 22 * 60 <= described.outage_seconds < 22 * 60 + 10
    assert await refunds_of(database, buyer.purchase_id) == []


async def test_a_credit_staff_trigger_runs_at_the_next_round_for_who_paid_before(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    [buyer] = await buyers(database, event, ppv, 1)
    staff_id = await new_viewer(database)
    async with database.write_session() as db:
        await outage_credit.trigger(db, settings, event.id, staff_id, clock.now())
    later(seconds=1)
    [late] = await buyers(database, event, ppv, 1)

    with recording_socket() as socket:
        await a_round(database, settings)

    await assert_credited_once(database, socket, buyer, event.id)
    assert await refunds_of(database, late.purchase_id) == []
    async with database.session() as db:
        credit = await db.get(OutageCredit, event.id)
    assert credit is not None and (credit.status, credit.reason, credit.created_by) == ("done", "staff", staff_id)


# --- at the same time -----------------------------------------------------------------------------


async def test_rounds_running_at_the_same_time_in_two_processes_credit_each_buyer_once(database, settings):
    event, ppv = await live_ppv_event(database, PRICE)
    bought = await buyers(database, event, ppv, 4)
    await credit_scheduled_by_an_outage(database, settings, event.id)
    later(minutes=5)
    # Another process: its own engine (on PostgreSQL its own connections, so the rounds really
    # overlap; on SQLite its own writer queue, so the database arbitrates).
    other = Database(database.url)
    try:
        with recording_socket() as socket:
            rounds = await asyncio.gather(
                a_round(database, settings),
                a_round(other, settings, sandbox(other)),
                a_round(database, settings),
                a_round(other, settings, sandbox(other)),
            )
    finally:
        await other.dispose()

    assert sorted(c.purchase_id for r in rounds for c in r.credited) == sorted(b.purchase_id for b in bought)
    for buyer in bought:
        await assert_credited_once(database, socket, buyer, event.id)
    assert [r.finished for r in rounds].count([event.id]) == 1


# --- an access code instead of a refund -----------------------------------------------------------

CODE = re.compile(r"^([0-9A-Z]{4}(?:-[0-9A-Z]{4}){2})$", re.MULTILINE)


async def test_the_access_code_kind_gives_each_buyer_one_working_code_by_mail(database, settings, monkeypatch):
    event, ppv = await live_ppv_event(database, PRICE)
    bought = await buyers(database, event, ppv, 2)
    another, _ = await live_ppv_event(database)
    make_up = await product(database, "ppv", event_id=another.id, title="A match on us", on_sale=False)
    codes = settings.model_copy(update={"outage_credit_kind": "access_code", "outage_credit_product": make_up.id})
    await outage_of(database, codes, event.id, minutes=11)
    later(minutes=5)
    issue, issued_before = outage_credit._issue_code, list[bool]()

    async def dies_issuing_the_first_code(*args, **kwargs):
        if not issued_before:
            issued_before.append(True)
            raise ProcessDied  # inside the transaction that would mark its grant done
        return await issue(*args, **kwargs)

    monkeypatch.setattr(outage_credit, "_issue_code", dies_issuing_the_first_code)
    with recording_socket() as socket:
        with pytest.raises(ProcessDied):
            await a_round(database, codes)
        await asyncio.gather(a_round(database, codes), a_round(database, codes))

    for buyer in bought:
        assert await refunds_of(database, buyer.purchase_id) == []
        [mail] = await credit_mails(database, buyer.email)
        [code] = CODE.findall(mail.text)
        assert "A match on us" in mail.text and code not in mail.staff_text and "…redacted…" in mail.staff_text
        assert credited_messages(socket, buyer) == [
            {
                "purchaseId": buyer.purchase_id,
                "eventId": event.id,
                "kind": "access_code",
                "amountMinor": 0,
                "currency": None,
            }
        ]
        async with database.session() as db:
            grant = await db.scalar(select(OutageCreditGrant).where(OutageCreditGrant.purchase_id == buyer.purchase_id))
            issued = list(await db.scalars(select(AccessCode).where(AccessCode.batch_id == grant.id)))
        assert [(c.id, c.product_id, c.uses) for c in issued] == [(grant.access_code_id, make_up.id, 1)]
        redeemed = await access_codes.redeem(database, buyer.user_id, code)
        assert redeemed.purchase is not None and redeemed.purchase.product_id == make_up.id
        [entry] = await credit_entries(database, buyer.purchase_id)
        assert entry.detail == {"event": event.id, "kind": "access_code", "amountMinor": 0}
