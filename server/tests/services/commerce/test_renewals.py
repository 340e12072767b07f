"""The renewal job: contracts at their period end are charged on the stored card and renewed for
one calendar month, go past due and then expire when the card is refused, or expire without a
charge when they do not renew. No run, crashed, repeated or concurrent, charges a period twice.

The tests run on a database of their own (emptied of contracts after each test), so the counts
of a run are exactly what the test set up."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, update

from server import clock
from server.errors import ApiError
from server.models import CardHandle, Contract, StoredCard
from server.services.commerce import holdings, periods, renewals, settlement
from server.tests.billing import (
    ACTION_DELAY,
    ACTION_THEN_DECLINE,
    ACTION_THEN_SUCCESS,
    DECLINED,
    UnexpectedCalls,
    active_contract,
    contract,
    new_viewer,
    private_database,
    purchase_messages,
    renewal_charges,
    sandbox,
    store_card,
    told_here,
)
from server.tests.commerce import product


def to_period_end(c: Contract) -> None:
    """Move the clock a minute past the contract's period end."""
    assert c.period_end is not None
    clock.advance(c.period_end - clock.now() + timedelta(minutes=1))


@pytest.fixture(scope="module")
async def database(database_url, tmp_path_factory):
    async with private_database(database_url, tmp_path_factory.mktemp("renewals")) as database:
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


async def subscriber(database, provider, number: str | None = "4242424242424242", **columns):
    """A viewer with a monthly svod contract that started now, and (unless `number` is None) a
    stored card of that test number."""
    user_id = await new_viewer(database)
    if number is not None:
        await store_card(database, provider, user_id, number)
    plan = await product(database, "svod", price_minor=1499)
    return await active_contract(database, plan, user_id, **columns)


async def access_now(database, c: Contract) -> bool:
    assert c.user_id is not None
    async with database.session() as db:
        return (await holdings.load(db, c.user_id, clock.now())).holds(c.product_id)


# --- renewed --------------------------------------------------------------------------------------


async def test_successful_renewal_extends_the_period_by_one_calendar_month_and_tells_the_viewer(database, provider):
    c = await subscriber(database, provider)
    to_period_end(c)
    with told_here() as told:
        report = told(await renewals.run(database, provider))

    assert (report.due, report.renewed, report.past_due, report.expired, report.processing) == (1, 1, 0, 0, 0)
    renewed = await contract(database, c.id)
    assert (renewed.status, renewed.payment_status, renewed.renewals) == ("active", "success", 1)
    assert renewed.period_end == periods.add_duration(c.period_end, 1, "months")
    assert await access_now(database, renewed)
    [charge] = await renewal_charges(database, c.id)
    assert (charge.reference, charge.amount_minor, charge.status) == (f"renewal:{c.id}:1", 1499, "succeeded")
    assert renewed.charge_id == charge.id
    assert purchase_messages(told, c.id) == [{"purchaseId": c.id, "status": "success", "productId": c.product_id}]


async def test_a_period_ending_on_the_31st_is_renewed_to_the_end_of_the_next_month(database, provider):
    end = datetime(clock.now().year - 1, 1, 31, 12, 0, tzinfo=UTC)
    c = await subscriber(database, provider, start_date=end - timedelta(days=31), period_end=end)
    await renewals.run(database, provider)
    assert (await contract(database, c.id)).period_end == datetime(end.year, 2, 28, 12, 0, tzinfo=UTC)


async def test_a_contract_not_yet_at_its_period_end_is_left_alone(database, provider):
    c = await subscriber(database, provider)
    report = await renewals.run(database, provider)
    assert report.due == 0
    assert (await contract(database, c.id)).renewals == 0 and not await renewal_charges(database, c.id)


# --- refused --------------------------------------------------------------------------------------


async def test_failed_renewal_marks_contract_past_due_then_expired(database, provider):
    c = await subscriber(database, provider, DECLINED)
    to_period_end(c)
    with told_here() as told:
        report = told(await renewals.run(database, provider))
    assert (report.due, report.renewed, report.past_due) == (1, 0, 1)
    due = await contract(database, c.id)
    assert (due.status, due.payment_status) == ("past_due", "error")
    assert due.grace_until == c.period_end + periods.RENEWAL_GRACE
    assert await access_now(database, due)  # the grace period keeps access while the card is fixed
    assert purchase_messages(told, c.id) == [{"purchaseId": c.id, "status": "error", "productId": c.product_id}]

    # Within the grace period: tried again once a day, quietly.
    clock.advance(timedelta(hours=1))
    assert (await renewals.run(database, provider)).due == 0
    clock.advance(renewals.RETRY_EVERY)
    with told_here() as told:
        retry = told(await renewals.run(database, provider))
    assert (retry.due, retry.past_due) == (1, 1)
    assert len(await renewal_charges(database, c.id)) == 2 and not purchase_messages(told, c.id)
    assert (await contract(database, c.id)).grace_until == due.grace_until  # the grace period does not grow

    clock.advance(periods.RENEWAL_GRACE)
    final = await renewals.run(database, provider)
    assert final.expired == 1
    expired = await contract(database, c.id)
    assert (expired.status, expired.payment_status, expired.auto_renew) == ("expired", "error", False)
    assert not await access_now(database, expired)
    assert len(await renewal_charges(database, c.id)) == 2  # expiring charges nothing


async def test_a_past_due_contract_is_renewed_by_the_daily_retry_once_the_card_works(database, provider):
    c = await subscriber(database, provider, DECLINED)
    to_period_end(c)
    await renewals.run(database, provider)
    async with database.session() as db:  # the viewer saves a working card
        await db.execute(delete(StoredCard).where(StoredCard.user_id == c.user_id))
        await db.commit()
    await store_card(database, provider, c.user_id)

    clock.advance(renewals.RETRY_EVERY)
    with told_here() as told:
        report = told(await renewals.run(database, provider))
    assert report.renewed == 1
    renewed = await contract(database, c.id)
    assert (renewed.status, renewed.renewals, renewed.grace_until) == ("active", 1, None)
    assert renewed.period_end == periods.add_duration(c.period_end, 1, "months")  # from the old end
    assert purchase_messages(told, c.id) == [{"purchaseId": c.id, "status": "success", "productId": c.product_id}]


async def test_renewal_without_a_stored_card_is_past_due_without_a_charge(database, provider):
    c = await subscriber(database, provider, number=None)
    to_period_end(c)
    report = await renewals.run(database, provider)
    assert report.past_due == 1
    assert (await contract(database, c.id)).status == "past_due" and not await renewal_charges(database, c.id)


async def test_without_a_card_the_daily_retry_changes_nothing_but_its_time(database, provider):
    c = await subscriber(database, provider, number=None)
    to_period_end(c)
    await renewals.run(database, provider)
    first = await contract(database, c.id)
    clock.advance(renewals.RETRY_EVERY)
    with told_here() as told:
        retry = told(await renewals.run(database, provider))
        again = told(await renewals.run(database, provider))
    assert (retry.due, retry.past_due, again.due) == (1, 1, 0)
    retried = await contract(database, c.id)
    assert (retried.status, retried.grace_until) == ("past_due", first.grace_until)
    assert retried.updated > first.updated and not await renewal_charges(database, c.id) and not told.sent


async def test_a_stored_card_the_provider_no_longer_knows_makes_the_renewal_past_due(database, provider):
    c = await subscriber(database, provider)
    async with database.session() as db:
        await db.execute(delete(CardHandle).where(CardHandle.owner_id == c.user_id))
        await db.commit()
    to_period_end(c)
    report = await renewals.run(database, provider)
    assert (report.past_due, report.errors) == (1, 0)
    assert (await contract(database, c.id)).status == "past_due" and not await renewal_charges(database, c.id)


# --- not renewing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "columns",
    [
        pytest.param({"canceled_at": "now", "auto_renew": False}, id="canceled"),
        pytest.param({"auto_renew": False}, id="not-auto-renewing"),
        pytest.param({"renewable": False, "auto_renew": False}, id="not-renewable"),
    ],
)
async def test_a_contract_that_does_not_renew_expires_at_period_end_without_a_charge(database, provider, columns):
    columns = {k: clock.now() if v == "now" else v for k, v in columns.items()}
    c = await subscriber(database, provider, **columns)
    clock.advance(timedelta(days=1))
    assert (await renewals.run(database, provider)).due == 0  # runs to its period end
    assert await access_now(database, await contract(database, c.id))

    to_period_end(c)
    with told_here() as told:
        report = told(await renewals.run(database, provider))
    assert (report.due, report.expired, report.renewed) == (1, 1, 0)
    assert (await contract(database, c.id)).status == "expired"
    assert not await renewal_charges(database, c.id) and not purchase_messages(told, c.id)


async def test_an_erased_accounts_contract_expires_without_a_charge(database, provider):
    c = await subscriber(database, provider)
    async with database.session() as db:  # what account deletion leaves (auto_renew kept on purpose)
        await db.execute(update(Contract).where(Contract.id == c.id).values(user_id=None))
        await db.commit()
    to_period_end(c)
    with told_here() as told:
        report = told(await renewals.run(database, provider))
    assert report.expired == 1
    assert (await contract(database, c.id)).status == "expired"
    assert not await renewal_charges(database, c.id) and not told.sent


async def test_a_bundle_past_its_end_date_expires_instead_of_renewing(database, provider):
    user_id = await new_viewer(database)
    await store_card(database, provider, user_id)
    bundle = await product(
        database,
        "bundle",
        renewable=True,
        duration=1,
        duration_units="months",
        bundle_end=clock.now() + timedelta(days=10),
    )
    c = await active_contract(database, bundle, user_id)
    assert c.period_end == bundle.bundle_end and c.auto_renew
    clock.advance(timedelta(days=11))
    report = await renewals.run(database, provider)
    assert report.expired == 1 and not await renewal_charges(database, c.id)


# --- requires action ------------------------------------------------------------------------------


async def test_a_renewal_that_requires_action_is_processing_until_settlement_renews_it(database, provider):
    c = await subscriber(database, provider, ACTION_THEN_SUCCESS)
    to_period_end(c)
    with told_here() as told:
        report = told(await renewals.run(database, provider))
        assert (report.due, report.processing, report.renewed) == (1, 1, 0)
        waiting = await contract(database, c.id)
        assert (waiting.status, waiting.payment_status) == ("active", "in progress")
        assert (told(await renewals.run(database, provider))).due == 0  # settlement's turn, not charged again

        clock.advance(ACTION_DELAY)
        told(await settlement.settle_due(database, provider))
        told(await settlement.settle_due(database, provider))
    renewed = await contract(database, c.id)
    assert (renewed.status, renewed.payment_status, renewed.renewals) == ("active", "success", 1)
    assert renewed.period_end == periods.add_duration(c.period_end, 1, "months")
    assert len(await renewal_charges(database, c.id)) == 1
    assert purchase_messages(told, c.id) == [{"purchaseId": c.id, "status": "success", "productId": c.product_id}]


async def test_a_renewal_that_requires_action_and_is_declined_makes_the_contract_past_due(database, provider):
    c = await subscriber(database, provider, ACTION_THEN_DECLINE)
    to_period_end(c)
    await renewals.run(database, provider)
    clock.advance(ACTION_DELAY)
    with told_here() as told:
        assert told(await settlement.settle_contract(database, provider, c.id))
    due = await contract(database, c.id)
    assert (due.status, due.payment_status, due.grace_until) == (
        "past_due",
        "error",
        c.period_end + periods.RENEWAL_GRACE,
    )
    assert purchase_messages(told, c.id) == [{"purchaseId": c.id, "status": "error", "productId": c.product_id}]


# --- never twice ----------------------------------------------------------------------------------


async def test_running_renewals_twice_charges_each_period_once(database, provider):
    contracts = [await subscriber(database, provider) for _ in range(3)]
    to_period_end(contracts[-1])
    first = await renewals.run(database, provider)
    second = await renewals.run(database, provider)
    assert (first.due, first.renewed) == (3, 3)
    assert second.due == 0
    for c in contracts:
        assert len(await renewal_charges(database, c.id)) == 1
        assert (await contract(database, c.id)).renewals == 1


async def test_a_run_that_crashed_after_charging_applies_that_charge_instead_of_charging_again(database, provider):
    c = await subscriber(database, provider)
    to_period_end(c)
    async with database.session() as db:
        reference = (await db.get(StoredCard, c.user_id)).reference
    # The crashed run: the provider charged, the contract was never updated.
    charged = await provider.charge(
        reference, owner_id=c.user_id, amount_minor=1499, currency="EUR", reference=f"renewal:{c.id}:1"
    )
    report = await renewals.run(database, provider)
    assert report.renewed == 1
    [charge] = await renewal_charges(database, c.id)
    assert charge.id == charged.id == (await contract(database, c.id)).charge_id


async def test_concurrent_runs_in_two_processes_charge_each_period_once(database, provider):
    contracts = [await subscriber(database, provider) for _ in range(4)]
    contracts.append(await subscriber(database, provider, DECLINED))
    to_period_end(contracts[-1])
    # Each process has its own run lock, so their runs meet only in the database and at the
    # provider: three runs of the job itself, each in the state a process would be in.
    with told_here() as told:
        runs = [renewals._Run(database, provider, clock.now(), False) for _ in range(3)]
        await asyncio.gather(*(run.all(renewals.BATCH_SIZE) for run in runs))
        for run in runs:
            told(run.report)
    reports = [run.report for run in runs]
    assert sum(r.renewed for r in reports) == 4 and sum(r.past_due for r in reports) == 1
    for c in contracts:
        assert len(await renewal_charges(database, c.id)) == 1
        assert len(purchase_messages(told, c.id)) == 1
    assert [(await contract(database, c.id)).status for c in contracts] == ["active"] * 4 + ["past_due"]
    assert [(await contract(database, c.id)).renewals for c in contracts] == [1] * 4 + [0]


async def test_a_second_run_while_one_is_in_progress_is_refused_with_409(database, provider):
    c = await subscriber(database, provider)
    to_period_end(c)
    release = asyncio.Event()

    class SlowProvider(UnexpectedCalls):
        name = provider.name

        async def charge(self, *args, **kwargs):
            await release.wait()
            return await provider.charge(*args, **kwargs)

    first = asyncio.create_task(renewals.run(database, SlowProvider()))
    while not renewals.running():
        await asyncio.sleep(0.01)
    with pytest.raises(renewals.RenewalRunInProgress) as refused:
        await renewals.run(database, provider)
    assert isinstance(refused.value, ApiError)
    assert (refused.value.status, refused.value.code, refused.value.message) == (
        409,
        "conflict",
        "A renewal run is already in progress",
    )
    release.set()
    assert (await first).renewed == 1
    assert not renewals.running()


# --- dry run --------------------------------------------------------------------------------------


async def test_dry_run_charges_nothing_and_changes_nothing_but_counts_what_would_happen(database, provider):
    renewing = await subscriber(database, provider)
    no_card = await subscriber(database, provider, number=None)
    canceled = await subscriber(database, provider, canceled_at=clock.now(), auto_renew=False)
    to_period_end(canceled)
    with told_here() as told:
        report = told(await renewals.run(database, provider, dry_run=True))
    assert report.as_contract() == {"dryRun": True, "due": 3, "renewed": 1, "pastDue": 1, "expired": 1, "processing": 0}
    for c in (renewing, no_card, canceled):
        unchanged = await contract(database, c.id)
        assert (unchanged.status, unchanged.period_end, unchanged.renewals) == ("active", c.period_end, 0)
        assert not await renewal_charges(database, c.id)
    assert not told.sent
