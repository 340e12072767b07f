""" "Does this contract give access now" is one rule: the Python predicate on a row and the SQL
clause on the class (Contract.gives_access) agree on every state a contract can be in."""

import itertools
from datetime import timedelta

from sqlalchemy import select

from server import clock
from server.models import Contract, new_id
from server.models.commerce import contract_gives_access
from server.tests.commerce import product

STATUSES = ("processing", "active", "past_due", "expired", "failed")
PAYMENT_STATUSES = ("success", "in progress", "error")


def states(now):
    moments = (None, now - timedelta(days=1), now + timedelta(days=1))
    return itertools.product(STATUSES, moments, moments, PAYMENT_STATUSES)


async def test_the_python_predicate_and_the_sql_clause_agree_on_every_state(database):
    now = clock.now()
    plan = await product(database, "svod", on_sale=False)
    async with database.session() as db:
        rows = []
        for status, period_end, grace_until, payment_status in states(now):
            rows.append(
                Contract(
                    id=new_id(),
                    user_id=None,  # no viewer: the one-holding-contract index does not apply
                    product_id=plan.id,
                    type="svod",
                    status=status,
                    payment_status=payment_status,
                    price_minor=100,
                    period_end=period_end,
                    grace_until=grace_until,
                    created=now,
                    updated=now,
                )
            )
        db.add_all(rows)
        await db.flush()
        ids = [row.id for row in rows]
        giving = set(await db.scalars(select(Contract.id).where(Contract.id.in_(ids), Contract.gives_access(now))))
        not_giving = set(await db.scalars(select(Contract.id).where(Contract.id.in_(ids), ~Contract.gives_access(now))))
        await db.rollback()  # the shared database keeps none of them

    expected = {row.id for row in rows if row.gives_access(now)}
    assert giving == expected
    assert not_giving == set(ids) - expected  # the negation selects exactly the others (no NULLs)
    assert 0 < len(expected) < len(ids)


def test_an_active_contract_gives_access_until_its_period_ends_or_while_its_renewal_decides():
    now = clock.now()
    assert contract_gives_access("active", None, None, "success", now)
    assert contract_gives_access("active", now + timedelta(seconds=1), None, "success", now)
    assert not contract_gives_access("active", now, None, "success", now)
    assert contract_gives_access("active", now - timedelta(days=1), None, "in progress", now)


def test_a_past_due_contract_gives_access_until_its_grace_period_ends():
    now = clock.now()
    assert contract_gives_access("past_due", now - timedelta(days=1), now + timedelta(hours=1), "error", now)
    assert not contract_gives_access("past_due", now - timedelta(days=1), now, "error", now)
    assert not contract_gives_access("past_due", now - timedelta(days=1), None, "error", now)


def test_processing_expired_and_failed_contracts_give_no_access():
    now = clock.now()
    for status in ("processing", "expired", "failed"):
        assert not contract_gives_access(status, now + timedelta(days=30), now + timedelta(days=30), "success", now)
