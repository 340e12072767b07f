"""Sandbox refunds: a succeeded charge is given back, in parts, never beyond what it took; a
reference refunds once, however many processes ask at the same moment."""

import asyncio

import pytest
from sqlalchemy import func, select

from server.db import Database
from server.models import PaymentRefund, new_id
from server.payments import RefundRefused, SandboxProvider

from .conftest import card

DECLINED = "4000000000000002"


async def charged(sandbox, user_id, amount=1000, number="4242424242424242"):
    token = await sandbox.tokenize(card(number), owner_id=user_id)
    return await sandbox.charge(token.token, owner_id=user_id, amount_minor=amount, currency="EUR", reference=new_id())


async def refunds_of(database, charge_id: str) -> list[PaymentRefund]:
    async with database.session() as db:
        return list(await db.scalars(select(PaymentRefund).where(PaymentRefund.charge_id == charge_id)))


async def test_a_refund_gives_back_part_of_a_succeeded_charge_in_its_currency(sandbox, user_id, database):
    charge = await charged(sandbox, user_id)

    refund = await sandbox.refund(charge.id, amount_minor=400, reference="outage-credit:one")

    assert refund.id.startswith("re_sandbox_")
    assert (refund.charge_id, refund.amount_minor, refund.currency, refund.reference) == (
        charge.id,
        400,
        "EUR",
        "outage-credit:one",
    )
    assert [(r.id, r.amount_minor) for r in await refunds_of(database, charge.id)] == [(refund.id, 400)]


async def test_refunding_again_with_the_same_reference_answers_the_first_refund_and_moves_no_money(
    sandbox, user_id, database
):
    charge = await charged(sandbox, user_id)
    first = await sandbox.refund(charge.id, amount_minor=1000, reference="outage-credit:again")

    again = await sandbox.refund(charge.id, amount_minor=1000, reference="outage-credit:again")

    assert again == first
    assert len(await refunds_of(database, charge.id)) == 1


async def test_refunds_of_a_charge_never_add_up_to_more_than_it_took(sandbox, user_id, database):
    charge = await charged(sandbox, user_id, amount=1000)
    await sandbox.refund(charge.id, amount_minor=600, reference=new_id())

    with pytest.raises(RefundRefused):
        await sandbox.refund(charge.id, amount_minor=401, reference=new_id())
    rest = await sandbox.refund(charge.id, amount_minor=400, reference=new_id())

    assert rest.amount_minor == 400
    assert sum(r.amount_minor for r in await refunds_of(database, charge.id)) == 1000
    with pytest.raises(RefundRefused):
        await sandbox.refund(charge.id, amount_minor=1, reference=new_id())


async def test_an_unknown_charge_is_a_lookup_error(sandbox):
    with pytest.raises(LookupError):
        await sandbox.refund("ch_sandbox_nothing", amount_minor=100, reference=new_id())


async def test_a_charge_that_did_not_succeed_cannot_be_refunded(sandbox, user_id, database):
    declined = await charged(sandbox, user_id, number=DECLINED)

    with pytest.raises(RefundRefused):
        await sandbox.refund(declined.id, amount_minor=100, reference=new_id())
    assert await refunds_of(database, declined.id) == []


@pytest.mark.parametrize("amount", [0, -5, 1.5])
async def test_an_amount_that_is_not_a_positive_whole_number_of_minor_units_is_refused(sandbox, user_id, amount):
    charge = await charged(sandbox, user_id)
    with pytest.raises(ValueError):
        await sandbox.refund(charge.id, amount_minor=amount, reference=new_id())


async def test_two_processes_refunding_with_one_reference_at_once_make_one_refund(sandbox, user_id, database):
    charge = await charged(sandbox, user_id)
    # Another process: its own engine (on SQLite its own writer queue, so the database arbitrates).
    other = Database(database.url)
    try:
        answers = await asyncio.gather(
            *(
                provider.refund(charge.id, amount_minor=1000, reference="outage-credit:raced")
                for provider in (sandbox, SandboxProvider(other), sandbox, SandboxProvider(other))
            )
        )
    finally:
        await other.dispose()

    assert len({answer.id for answer in answers}) == 1
    async with database.session() as db:
        rows = await db.scalar(
            select(func.count()).select_from(PaymentRefund).where(PaymentRefund.reference == "outage-credit:raced")
        )
    assert rows == 1


async def test_concurrent_refunds_under_different_references_stop_at_the_charges_amount(sandbox, user_id, database):
    charge = await charged(sandbox, user_id, amount=1000)
    other = Database(database.url)
    try:
        answers = await asyncio.gather(
            *(
                provider.refund(charge.id, amount_minor=400, reference=new_id())
                for provider in (sandbox, SandboxProvider(other), sandbox, SandboxProvider(other))
            ),
            return_exceptions=True,
        )
    finally:
        await other.dispose()

    assert sorted(type(answer).__name__ for answer in answers) == ["Refund", "Refund", "RefundRefused", "RefundRefused"]
    assert sum(r.amount_minor for r in await refunds_of(database, charge.id)) == 800
