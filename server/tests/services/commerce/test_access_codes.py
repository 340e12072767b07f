"""Access codes in the service: issuing batches, atomic redemption (races on SQLite and
PostgreSQL), expiry, revocation, what a code grants, and the staff list."""

import asyncio
import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from server import clock
from server.errors import ApiError
from server.models import AccessCode, AccessCodeRedemption, Contract, Purchase, User, new_id
from server.seed.catalogue import table_of
from server.services.access import Viewer, decide
from server.services.commerce import access_codes, holdings
from server.services.commerce.access_codes import ALPHABET, Filters
from server.services.paging import PageQuery
from server.tests.accounts import create_user
from server.tests.commerce import paid_event, product

CODE = re.compile(rf"[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}")


async def new_viewer(database) -> str:
    """A viewer account written straight to the database; its id."""
    email = await create_user(database)
    async with database.session() as db:
        return (await db.execute(select(User.id).where(User.email == email))).scalar_one()


async def new_viewers(database, n: int) -> list[str]:
    return list(await asyncio.gather(*(new_viewer(database) for _ in range(n))))


async def code_only(database, kind: str, **kw):
    """A subscription or bundle off sale, covering an identity item nobody else uses: the session
    database is shared, and other tests' lists of what is on sale (or unlocks their events) must
    not see it. Codes grant it all the same."""
    return await product(database, kind, on_sale=False, identity_items=[new_id()], **kw)


@pytest.fixture
async def match(database):
    event = await paid_event(database)
    return event, await product(database, "ppv", event_id=event.id)


async def one_code(database, product_id: str, **kw) -> str:
    batch = await access_codes.issue(database, product_id=product_id, count=1, **kw)
    return batch.codes[0]


async def code_row(database, display: str) -> AccessCode:
    async with database.session() as db:
        return (await db.execute(select(AccessCode).where(AccessCode.display_code == display))).scalar_one()


async def refused(work) -> ApiError:
    with pytest.raises(ApiError) as caught:
        await work
    return caught.value


# --- issuing -------------------------------------------------------------------------------------


def test_a_code_is_its_prefix_then_three_groups_of_four_from_an_alphabet_without_look_alikes():
    normalised, display = access_codes.new_code("DERBY")
    assert re.fullmatch(rf"DERBY-{CODE.pattern}", display)
    assert normalised == display.replace("-", "")
    assert not set("01IO") & set(ALPHABET) and len(ALPHABET) == 32  # 12 symbols of 5 bits: 60 bits
    assert re.fullmatch(CODE.pattern, access_codes.new_code()[1])


def test_codes_are_not_repeated_in_a_large_draw():
    drawn = {access_codes.new_code()[0] for _ in range(50_000)}
    assert len(drawn) == 50_000


def test_redemption_ignores_case_spaces_and_dashes():
    assert access_codes.normalise(" derby-7kq4 m2xp-9htw ") == "DERBY7KQ4M2XP9HTW"


async def test_a_batch_has_count_distinct_codes_stored_normalised(database, match):
    _, ppv = match
    expires = clock.now() + timedelta(days=30)
    batch = await access_codes.issue(database, product_id=ppv.id, count=5, uses=3, expires_at=expires, prefix="CUP")
    assert len(set(batch.codes)) == 5 and all(re.fullmatch(rf"CUP-{CODE.pattern}", c) for c in batch.codes)
    assert (batch.product_id, batch.uses, batch.expires_at) == (ppv.id, 3, expires)
    async with database.session() as db:
        rows = (await db.execute(select(AccessCode).where(AccessCode.batch_id == batch.batch_id))).scalars().all()
    assert sorted(r.display_code for r in rows) == sorted(batch.codes)
    assert all(r.code == r.display_code.replace("-", "") and r.uses == 3 and r.redeemed_count == 0 for r in rows)


async def test_ten_thousand_codes_are_issued_in_one_batch(database, match):
    # How long it takes: `python -m server.bench.costs` (make bench).
    _, ppv = match
    batch = await access_codes.issue(database, product_id=ppv.id, count=10_000)
    assert len(set(batch.codes)) == 10_000
    async with database.session() as db:
        stored = (
            await db.execute(select(func.count()).select_from(AccessCode).where(AccessCode.batch_id == batch.batch_id))
        ).scalar_one()
    assert stored == 10_000


async def test_issuing_for_an_event_grants_its_pay_per_view_product(database, match):
    event, ppv = match
    batch = await access_codes.issue(database, event_id=event.id, count=1)
    assert batch.product_id == ppv.id


async def test_issuing_for_an_event_without_a_pay_per_view_product_gives_product_not_found(database):
    event = await paid_event(database)
    error = await refused(access_codes.issue(database, event_id=event.id, count=1))
    assert (error.status, error.code) == (404, "product_not_found")
    error = await refused(access_codes.issue(database, product_id="f" * 24, count=1))
    assert (error.status, error.code) == (404, "product_not_found")


async def test_issuing_needs_exactly_one_of_product_and_event(database, match):
    event, ppv = match
    for kw in ({}, {"product_id": ppv.id, "event_id": event.id}):
        error = await refused(access_codes.issue(database, count=1, **kw))
        assert (error.status, error.code) == (400, "validation_error")


@pytest.mark.parametrize(
    "kw, field",
    [
        ({"expires_at": "past"}, "expires_at"),
        ({"prefix": "derby"}, "prefix"),
        ({"prefix": "ABCDEFGHIJKLM"}, "prefix"),
        ({"count": 0}, "count"),
        ({"count": 10_001}, "count"),
        ({"uses": 0}, "uses"),
    ],
)
async def test_issuing_refuses_a_past_expiry_a_bad_prefix_or_count(database, match, kw, field):
    _, ppv = match
    if kw.get("expires_at") == "past":
        kw = {"expires_at": clock.now() - timedelta(seconds=1)}
    error = await refused(access_codes.issue(database, product_id=ppv.id, **{"count": 1, **kw}))
    assert error.details is not None
    assert (error.status, error.details[0]["field"]) == (400, field)


# --- redeeming -----------------------------------------------------------------------------------


async def test_a_pay_per_view_code_creates_a_free_purchase_that_unlocks_the_event(database, match):
    event, ppv = match
    viewer = await new_viewer(database)
    code = await one_code(database, ppv.id)

    redeemed = await access_codes.redeem(database, viewer, code.lower().replace("-", " "))

    assert redeemed.code == code and redeemed.contract is None
    bought = redeemed.purchase
    assert bought is not None
    assert (bought.status, bought.payment_action, bought.price_minor, bought.access_code) == (
        "success",
        "redeemAccessCode",
        0,
        code,
    )
    assert bought.valid_until is not None and bought.valid_until > clock.now()
    async with database.session() as db:
        held = await holdings.load(db, viewer, clock.now())
    access = decide(
        Viewer(viewer, held, "GB"),
        event_id=event.id,
        media_type="event",
        commerce_type=event.commerce_type,
        commerce_modes=event.commerce_modes,
        identity_ids=(),
    )
    assert access.available_for_user
    assert (await code_row(database, code)).redeemed_count == 1


@pytest.mark.parametrize("kind", ["svod", "cvod", "bundle"])
async def test_a_subscription_code_gives_an_active_contract_that_does_not_renew(database, kind):
    granted = await code_only(database, kind, renewable=True, duration=1, duration_units="months")
    viewer = await new_viewer(database)
    redeemed = await access_codes.redeem(database, viewer, await one_code(database, granted.id))
    contract = redeemed.contract
    assert redeemed.purchase is None
    assert contract is not None
    assert (contract.status, contract.payment_status, contract.auto_renew, contract.price_minor) == (
        "active",
        "success",
        False,
        0,
    )
    assert contract.period_end is not None and contract.period_end > clock.now() + timedelta(days=27)
    async with database.session() as db:
        assert (await holdings.load(db, viewer, clock.now())).holds(granted.id)


async def test_100_concurrent_redemptions_of_a_single_use_code_give_exactly_one_success(database, match):
    _, ppv = match
    code = await one_code(database, ppv.id)
    viewers = await new_viewers(database, 100)

    outcomes = await asyncio.gather(*(access_codes.redeem(database, v, code) for v in viewers), return_exceptions=True)

    won = [o for o in outcomes if not isinstance(o, BaseException)]
    lost = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(won) == 1
    assert all(isinstance(e, ApiError) and (e.status, e.code) == (409, "already_redeemed") for e in lost), lost[:3]
    row = await code_row(database, code)
    async with database.session() as db:
        redemptions = (
            await db.execute(
                select(func.count()).select_from(AccessCodeRedemption).where(AccessCodeRedemption.code_id == row.id)
            )
        ).scalar_one()
        purchases = (
            await db.execute(select(func.count()).select_from(Purchase).where(Purchase.access_code == code))
        ).scalar_one()
    assert (row.redeemed_count, redemptions, purchases) == (1, 1, 1)


async def test_concurrent_redemptions_of_a_three_use_code_give_exactly_three_successes(database):
    granted = await code_only(database, "svod")
    code = await one_code(database, granted.id, uses=3)
    viewers = await new_viewers(database, 20)
    outcomes = await asyncio.gather(*(access_codes.redeem(database, v, code) for v in viewers), return_exceptions=True)
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 3
    async with database.session() as db:
        contracts = (
            await db.execute(select(func.count()).select_from(Contract).where(Contract.access_code == code))
        ).scalar_one()
    assert contracts == 3 and (await code_row(database, code)).redeemed_count == 3


async def test_an_n_use_code_is_redeemed_by_n_accounts_then_refused(database, match):
    _, ppv = match
    code = await one_code(database, ppv.id, uses=3)
    first, second, third, late = await new_viewers(database, 4)
    for viewer in (first, second, third):
        await access_codes.redeem(database, viewer, code)
    error = await refused(access_codes.redeem(database, late, code))
    assert (error.status, error.code) == (409, "already_redeemed")


async def test_redeem_code_twice_gives_already_redeemed(database):
    granted = await product(
        database, "ppv", event_id=(await paid_event(database)).id, duration=1, duration_units="hours"
    )
    code = await one_code(database, granted.id, uses=5)
    viewer = await new_viewer(database)
    await access_codes.redeem(database, viewer, code)
    clock.advance(timedelta(days=30))  # the purchase has run out: still, once per account
    error = await refused(access_codes.redeem(database, viewer, code))
    assert (error.status, error.code) == (409, "already_redeemed")
    assert (await code_row(database, code)).redeemed_count == 1


async def test_a_viewer_who_holds_the_product_is_refused_without_taking_a_use(database):
    granted = await code_only(database, "svod")
    viewer, other = await new_viewers(database, 2)
    await access_codes.redeem(database, viewer, await one_code(database, granted.id))
    code = await one_code(database, granted.id)

    error = await refused(access_codes.redeem(database, viewer, code))

    assert (error.status, error.code) == (409, "already_subscribed")
    assert (await code_row(database, code)).redeemed_count == 0
    await access_codes.redeem(database, other, code)  # the use is still there for someone else


async def test_a_pay_per_view_already_bought_gives_already_purchased(database, match):
    _, ppv = match
    viewer = await new_viewer(database)
    await access_codes.redeem(database, viewer, await one_code(database, ppv.id))
    error = await refused(access_codes.redeem(database, viewer, await one_code(database, ppv.id)))
    assert (error.status, error.code) == (409, "already_purchased")


async def test_an_expired_code_gives_access_code_expired(database, match):
    _, ppv = match
    code = await one_code(database, ppv.id, expires_at=clock.now() + timedelta(hours=1))
    clock.advance(timedelta(hours=1, seconds=1))
    error = await refused(access_codes.redeem(database, await new_viewer(database), code))
    assert (error.status, error.code, error.message) == (410, "access_code_expired", "This code has expired")


@pytest.mark.parametrize("text", ["NOPE-NOPE-NOPE", "----", "ÄÖÜ-1234-5678"])
async def test_an_unknown_code_gives_access_code_not_found(database, text):
    error = await refused(access_codes.redeem(database, await new_viewer(database), text))
    assert (error.status, error.code, error.message) == (404, "access_code_not_found", "This code does not exist")


async def test_a_revoked_code_gives_not_found_and_what_it_granted_stays(database, match):
    _, ppv = match
    code = await one_code(database, ppv.id, uses=2)
    first, second = await new_viewers(database, 2)
    await access_codes.redeem(database, first, code)
    row = await code_row(database, code)
    async with database.session() as db:
        revoked = await access_codes.revoke(db, row.id)
    assert revoked.status == "revoked" and revoked.code.revoked_at is not None

    error = await refused(access_codes.redeem(database, second, code))

    assert (error.status, error.code) == (404, "access_code_not_found")
    async with database.session() as db:
        assert (await holdings.load(db, first, clock.now())).holds(ppv.id)


async def test_revoking_twice_changes_nothing(database, match):
    _, ppv = match
    row = await code_row(database, await one_code(database, ppv.id))
    async with database.session() as db:
        first = (await access_codes.revoke(db, row.id)).code.revoked_at
    clock.advance(timedelta(minutes=5))
    async with database.session() as db:
        again = await access_codes.revoke(db, row.id)
    assert again.code.revoked_at == first and again.status == "revoked"


async def test_revoking_an_unknown_code_gives_access_code_not_found(database):
    async with database.session() as db:
        error = await refused(access_codes.revoke(db, "f" * 24))
    assert (error.status, error.code) == (404, "access_code_not_found")


# --- the staff list ------------------------------------------------------------------------------


async def listed(database, **filters) -> list[access_codes.CodeView]:
    async with database.session() as db:
        page = await access_codes.list_codes(db, Filters(**filters), PageQuery(0, 100))
    return page.entries


async def test_the_list_computes_each_codes_status(database, match):
    _, ppv = match
    batch = await access_codes.issue(database, product_id=ppv.id, count=4, expires_at=clock.now() + timedelta(days=1))
    active, used, expired, revoked = [await code_row(database, c) for c in batch.codes]
    viewer = await new_viewer(database)
    await access_codes.redeem(database, viewer, used.display_code)
    async with database.session() as db:
        await access_codes.revoke(db, revoked.id)
        await db.execute(
            table_of(AccessCode)
            .update()
            .where(AccessCode.id == expired.id)
            .values(expires_at=clock.now() - timedelta(seconds=1))
        )
        await db.commit()

    statuses = {v.code.id: v.status for v in await listed(database, batch_id=batch.batch_id)}
    assert statuses == {active.id: "active", used.id: "used", expired.id: "expired", revoked.id: "revoked"}
    for status, row in (("active", active), ("used", used), ("expired", expired), ("revoked", revoked)):
        assert [v.code.id for v in await listed(database, batch_id=batch.batch_id, status=status)] == [row.id]
    [entry] = await listed(database, batch_id=batch.batch_id, status="used")
    assert [(r.user_id, r.redeemed_at is not None) for r in entry.redemptions] == [(viewer, True)]


async def test_the_list_finds_codes_by_their_beginning_in_any_case_and_by_event(database, match):
    event, ppv = match
    wanted = await one_code(database, ppv.id, prefix="FINDME")
    await one_code(database, ppv.id, prefix="OTHER")
    beginning = wanted.lower()[:12]  # "findme-xxxx-" with a dash, lower case
    assert [v.code.display_code for v in await listed(database, code=beginning)] == [wanted]
    by_event = await listed(database, event_id=event.id)
    assert {v.code.product_id for v in by_event} == {ppv.id} and all(v.event_id == event.id for v in by_event)
    assert await listed(database, code="100%_") == []


async def test_the_list_is_newest_first_and_pages(database):
    granted = await code_only(database, "svod")
    older = await one_code(database, granted.id)
    clock.advance(timedelta(seconds=2))
    newer = await one_code(database, granted.id)
    assert [v.code.display_code for v in await listed(database, product_id=granted.id)] == [newer, older]
    async with database.session() as db:
        page = await access_codes.list_codes(db, Filters(product_id=granted.id), PageQuery(0, 1, next=True, count=True))
    assert (len(page.entries), page.next_exists, page.total) == (1, True, 2)
