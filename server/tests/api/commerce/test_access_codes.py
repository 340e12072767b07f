"""Access codes over HTTP: staff issue, list and revoke them (/admin/access_codes); viewers
redeem them (POST /commerce/access_code/redeem) and get what they grant."""

import asyncio
import re
from datetime import timedelta

import pytest

from server import clock
from server.models import new_id
from server.tests.accounts import sign_up
from server.tests.api.commerce.shop import event_for
from server.tests.commerce import paid_event, product
from server.tests.mailbox import staff_headers

NOBODY = "f" * 24
GROUPS = r"[23456789A-HJ-NP-Z]{4}-[23456789A-HJ-NP-Z]{4}-[23456789A-HJ-NP-Z]{4}"


async def code_only(database, kind: str, **kw):
    """A subscription or bundle off sale, covering an identity item nobody else uses: the session
    database is shared, and other tests' lists of what is on sale (or unlocks their events) must
    not see it. Codes grant it all the same."""
    return await product(database, kind, on_sale=False, identity_items=[new_id()], **kw)


@pytest.fixture(scope="module")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


@pytest.fixture
async def match(database):
    event = await paid_event(database)
    return event, await product(database, "ppv", event_id=event.id, price_minor=1299, currency="EUR")


async def issue(client, staff, **body) -> dict:
    answer = await client.post("/api/admin/access_codes", headers=staff, json={"count": 1, **body})
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


async def one_code(client, staff, product_id: str, **body) -> str:
    return (await issue(client, staff, product_id=product_id, **body))["codes"][0]


async def redeem(client, headers: dict, code: str):
    return await client.post("/api/commerce/access_code/redeem", headers=headers, json={"code": code})


async def codes(client, staff, **params) -> list[dict]:
    answer = await client.get("/api/admin/access_codes", headers=staff, params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["entries"]


def refused(answer, status: int, code: str) -> dict:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert (body["error"], body["messageErrorCode"]) == (True, code)
    return body


# --- staff only ----------------------------------------------------------------------------------

STAFF_CALLS = [
    ("POST", "/api/admin/access_codes", {"product_id": NOBODY, "count": 1}),
    ("GET", "/api/admin/access_codes", None),
    ("POST", f"/api/admin/access_codes/{NOBODY}/revoke", None),
]


@pytest.mark.parametrize("method, path, body", STAFF_CALLS, ids=["issue", "list", "revoke"])
async def test_access_code_staff_calls_refuse_viewers_and_anonymous_callers(client, viewer, method, path, body):
    refused(await client.request(method, path, json=body, headers=viewer["headers"]), 403, "forbidden_role")
    refused(await client.request(method, path, json=body), 401, "unauthorized")


async def test_redeeming_needs_a_signed_in_viewer(client):
    refused(await redeem(client, {}, "DERBY-7KQ4-M2XP-9HTW"), 401, "unauthorized")


# --- issuing -------------------------------------------------------------------------------------


async def test_staff_issue_a_batch_and_get_every_code(client, staff, match):
    _, ppv = match
    batch = await issue(
        client, staff, product_id=ppv.id, count=3, uses=2, expires_at="2099-12-31T23:59:59Z", prefix="DERBY"
    )
    assert (batch["product_id"], batch["count"], batch["uses"], batch["expires_at"]) == (
        ppv.id,
        3,
        2,
        "2099-12-31T23:59:59Z",
    )
    assert len(set(batch["codes"])) == 3 and all(re.fullmatch(rf"DERBY-{GROUPS}", c) for c in batch["codes"])
    listed = await codes(client, staff, batch_id=batch["batchId"])
    assert sorted(c["code"] for c in listed) == sorted(batch["codes"])
    assert {(c["status"], c["uses"], c["redeemedCount"], c["event_id"], c["revoked"]) for c in listed} == {
        ("active", 2, 0, ppv.event_id, False)
    }


async def test_issuing_for_an_event_uses_its_pay_per_view_product(client, staff, match):
    event, ppv = match
    batch = await issue(client, staff, event_id=event.id)
    assert batch["product_id"] == ppv.id and batch["expires_at"] is None and batch["uses"] == 1


async def test_an_expiry_with_an_offset_is_kept_and_answered_in_utc(client, staff, match):
    _, ppv = match
    batch = await issue(client, staff, product_id=ppv.id, expires_at="2099-06-30T18:00:00+02:00")
    assert batch["expires_at"] == "2099-06-30T16:00:00Z"
    [listed] = await codes(client, staff, batch_id=batch["batchId"])
    assert listed["expires_at"] == "2099-06-30T16:00:00Z"


async def test_issuing_for_an_event_without_pay_per_view_gives_product_not_found(client, staff, database):
    event = await paid_event(database)
    answer = await client.post("/api/admin/access_codes", headers=staff, json={"event_id": event.id, "count": 1})
    refused(answer, 404, "product_not_found")
    answer = await client.post("/api/admin/access_codes", headers=staff, json={"product_id": NOBODY, "count": 1})
    refused(answer, 404, "product_not_found")


@pytest.mark.parametrize(
    "body",
    [
        {"count": 1},
        {"count": 1, "product_id": "PRODUCT", "event_id": "EVENT"},
        {"count": 1, "product_id": "PRODUCT", "expires_at": "2001-01-01T00:00:00Z"},
        {"count": 10_001, "product_id": "PRODUCT"},
        {"count": 1, "product_id": "PRODUCT", "prefix": "derby"},
    ],
    ids=["neither", "both", "past-expiry", "too-many", "lower-case-prefix"],
)
async def test_issuing_refuses_a_request_it_cannot_fulfil_with_400(client, staff, match, body):
    event, ppv = match
    body = {k: {"PRODUCT": ppv.id, "EVENT": event.id}.get(v, v) for k, v in body.items()}
    refused(await client.post("/api/admin/access_codes", headers=staff, json=body), 400, "validation_error")


# --- redeeming -----------------------------------------------------------------------------------


async def test_redeeming_a_pay_per_view_code_makes_the_event_available(client, staff, viewer, match):
    event, ppv = match
    code = await one_code(client, staff, ppv.id)
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is False

    answer = await redeem(client, viewer["headers"], f"  {code.lower()} ")

    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    assert content["code"] == code and content["contract"] is None and content["redeemedAt"]
    assert content["product"]["_id"] == ppv.id and content["product"]["active"] is True
    bought = content["purchase"]
    assert (bought["status"], bought["paymentAction"], bought["priceMinor"], bought["price"], bought["accessCode"]) == (
        "success",
        "redeemAccessCode",
        0,
        0,
        code,
    )
    assert bought["validUntil"] and bought["card"] is None
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is True
    [listed] = await codes(client, staff, code=code)
    assert (listed["status"], listed["redeemedCount"]) == ("used", 1)
    assert [r["userId"] for r in listed["redemptions"]] == [viewer["id"]]


async def test_a_subscription_code_gives_a_contract_that_does_not_renew(client, staff, viewer, database):
    svod = await code_only(database, "svod", renewable=True)
    answer = await redeem(client, viewer["headers"], await one_code(client, staff, svod.id))
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    contract = content["contract"]
    assert content["purchase"] is None
    assert (
        contract["status"],
        contract["active"],
        contract["autoRenew"],
        contract["nextBillingDate"],
        contract["priceMinor"],
    ) == ("active", True, False, None, 0)
    assert contract["contractEndDate"] and content["product"]["active"] is True


async def test_redeem_code_twice_gives_already_redeemed(client, staff, viewer, match):
    _, ppv = match
    code = await one_code(client, staff, ppv.id)
    assert (await redeem(client, viewer["headers"], code)).status_code == 200
    refused(await redeem(client, viewer["headers"], code), 409, "already_redeemed")
    other = await sign_up(client)
    refused(await redeem(client, other["headers"], code), 409, "already_redeemed")


async def test_the_same_account_cannot_redeem_a_multi_use_code_twice(client, staff, viewer, database):
    svod = await code_only(database, "svod")
    code = await one_code(client, staff, svod.id, uses=10)
    assert (await redeem(client, viewer["headers"], code)).status_code == 200
    refused(await redeem(client, viewer["headers"], code), 409, "already_redeemed")


async def test_an_n_use_code_is_redeemed_by_n_accounts_then_refused(client, staff, match):
    _, ppv = match
    code = await one_code(client, staff, ppv.id, uses=2)
    for _ in range(2):
        assert (await redeem(client, (await sign_up(client))["headers"], code)).status_code == 200
    refused(await redeem(client, (await sign_up(client))["headers"], code), 409, "already_redeemed")


async def test_a_viewer_holding_the_product_gets_already_purchased_and_the_code_keeps_its_use(
    client, staff, viewer, match
):
    _, ppv = match
    assert (await redeem(client, viewer["headers"], await one_code(client, staff, ppv.id))).status_code == 200
    code = await one_code(client, staff, ppv.id)
    refused(await redeem(client, viewer["headers"], code), 409, "already_purchased")
    [listed] = await codes(client, staff, code=code)
    assert (listed["status"], listed["redeemedCount"]) == ("active", 0)


async def test_an_expired_code_gives_410(client, staff, viewer, match):
    _, ppv = match
    expires = (clock.now() + timedelta(minutes=5)).isoformat()
    code = await one_code(client, staff, ppv.id, expires_at=expires)
    clock.advance(timedelta(minutes=6))  # access tokens last longer than that
    body = refused(await redeem(client, viewer["headers"], code), 410, "access_code_expired")
    assert body["message"] == "This code has expired"
    [listed] = await codes(client, staff, code=code)
    assert listed["status"] == "expired"


async def test_a_revoked_code_gives_404_and_what_it_granted_stays(client, staff, viewer, match):
    event, ppv = match
    code = await one_code(client, staff, ppv.id, uses=2)
    assert (await redeem(client, viewer["headers"], code)).status_code == 200
    [listed] = await codes(client, staff, code=code)

    answer = await client.post(f"/api/admin/access_codes/{listed['_id']}/revoke", headers=staff)

    assert answer.status_code == 200, answer.text
    revoked = answer.json()["content"]
    assert (revoked["status"], revoked["revoked"], revoked["redeemedCount"]) == ("revoked", True, 1)
    again = await client.post(f"/api/admin/access_codes/{listed['_id']}/revoke", headers=staff)
    assert again.status_code == 200 and again.json()["content"] == revoked
    other = await sign_up(client)
    body = refused(await redeem(client, other["headers"], code), 404, "access_code_not_found")
    assert body["message"] == "This code does not exist"
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is True


async def test_an_unknown_code_gives_404(client, viewer):
    refused(await redeem(client, viewer["headers"], "NOPE-NOPE-NOPE"), 404, "access_code_not_found")


async def test_revoking_an_unknown_code_gives_404(client, staff):
    refused(await client.post(f"/api/admin/access_codes/{NOBODY}/revoke", headers=staff), 404, "access_code_not_found")


async def test_redemption_attempts_are_limited_per_account(client, staff, viewer, settings, match):
    _, ppv = match
    code = await one_code(client, staff, ppv.id)
    for _ in range(settings.access_code_attempts):
        refused(await redeem(client, viewer["headers"], "WRONG-WRONG-WRONG"), 404, "access_code_not_found")

    answer = await redeem(client, viewer["headers"], code)  # even the right code, now

    refused(answer, 429, "too_many_requests")
    assert 1 <= int(answer.headers["Retry-After"]) <= settings.access_code_window
    other = await sign_up(client)  # another account has its own budget
    assert (await redeem(client, other["headers"], code)).status_code == 200


async def test_concurrent_redemptions_of_a_single_use_code_over_http_give_exactly_one_success(client, staff, match):
    _, ppv = match
    code = await one_code(client, staff, ppv.id)
    viewers = await asyncio.gather(*(sign_up(client) for _ in range(8)))
    answers = await asyncio.gather(*(redeem(client, v["headers"], code) for v in viewers))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] + [409] * 7, [a.text for a in answers if a.status_code not in (200, 409)]
    assert {a.json()["messageErrorCode"] for a in answers if a.status_code == 409} == {"already_redeemed"}


# --- the staff list ------------------------------------------------------------------------------


async def test_the_list_filters_by_product_event_status_and_code_beginning(client, staff, database, match):
    event, ppv = match
    batch = await issue(client, staff, product_id=ppv.id, count=3, prefix="LIST")
    svod = await code_only(database, "svod")
    await one_code(client, staff, svod.id, prefix="LIST")
    first = batch["codes"][0]

    assert {c["code"] for c in await codes(client, staff, product_id=ppv.id)} == set(batch["codes"])
    assert {c["code"] for c in await codes(client, staff, event_id=event.id)} == set(batch["codes"])
    assert [c["code"] for c in await codes(client, staff, code=first.lower()[:10])] == [first]
    assert [c["code"] for c in await codes(client, staff, code=first.replace("-", " "))] == [first]
    assert len(await codes(client, staff, product_id=ppv.id, status="active")) == 3
    assert await codes(client, staff, product_id=ppv.id, status="used") == []


async def test_the_list_pages_newest_first(client, staff, database):
    svod = await code_only(database, "svod")
    older = await one_code(client, staff, svod.id)
    clock.advance(timedelta(seconds=2))
    newer = await one_code(client, staff, svod.id)
    answer = await client.get(
        "/api/admin/access_codes",
        headers=staff,
        params={"product_id": svod.id, "size": 1, "next": "true", "count": "true"},
    )
    assert answer.status_code == 200, answer.text
    page = answer.json()["content"]
    assert ([c["code"] for c in page["entries"]], page["nextExists"], page["totalCount"]) == ([newer], True, 2)
    assert [c["code"] for c in await codes(client, staff, product_id=svod.id)] == [newer, older]


async def test_the_list_refuses_an_unknown_status(client, staff):
    answer = await client.get("/api/admin/access_codes", headers=staff, params={"status": "lost"})
    refused(answer, 400, "validation_error")


async def test_a_method_the_codes_path_lacks_gets_405_allowing_both_of_its_operations(client, staff):
    answer = await client.put("/api/admin/access_codes", headers=staff, json={})
    refused(answer, 405, "method_not_allowed")
    assert set(answer.headers["Allow"].split(", ")) == {"GET", "HEAD", "POST"}
