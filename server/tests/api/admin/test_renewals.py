"""POST /admin/billing/renew: staff run the renewal job now; viewers and strangers cannot."""

from datetime import timedelta

import pytest

from server import clock
from server.services.commerce import renewals
from server.tests.accounts import sign_up
from server.tests.billing import (
    DECLINED,
    active_contract,
    contract,
    new_viewer,
    purchase_messages,
    renewal_charges,
    sandbox,
    store_card,
)
from server.tests.commerce import product
from server.tests.mailbox import recording_socket, staff_headers

RENEW = "/api/admin/billing/renew"


@pytest.fixture
async def staff(client, database, settings) -> dict:
    return await staff_headers(client, database, settings)


async def due_contract(database, number: str = "4242424242424242"):
    """A monthly svod contract whose period ended a minute ago, of a viewer with a stored card."""
    user_id = await new_viewer(database)
    await store_card(database, sandbox(database), user_id, number)
    plan = await product(database, "svod", price_minor=1499, on_sale=False)  # not offered to other tests
    now = clock.now()
    return await active_contract(
        database, plan, user_id, start_date=now - timedelta(days=30), period_end=now - timedelta(minutes=1)
    )


async def test_staff_run_renewals_and_get_the_counts_and_the_viewers_are_told(client, database, staff):
    paid, refused = await due_contract(database), await due_contract(database, DECLINED)
    with recording_socket() as socket:
        answer = await client.post(RENEW, headers=staff, json={"dry_run": False})
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    assert set(content) == {"dryRun", "due", "renewed", "pastDue", "expired", "processing", "errors", "announced"}
    # The session database holds other tests' contracts too: at least these two were due.
    assert content["dryRun"] is False and content["due"] >= 2 and content["renewed"] >= 1 and content["pastDue"] >= 1
    assert content["errors"] == 0 and content["announced"] >= 2
    assert (await contract(database, paid.id)).renewals == 1
    assert (await contract(database, refused.id)).status == "past_due"
    assert [m["status"] for m in purchase_messages(socket, paid.id)] == ["success"]
    assert [m["status"] for m in purchase_messages(socket, refused.id)] == ["error"]


async def test_without_a_body_the_run_is_real(client, database, staff):
    c = await due_contract(database)
    answer = await client.post(RENEW, headers=staff)
    assert answer.status_code == 200, answer.text
    assert answer.json()["content"]["dryRun"] is False
    assert (await contract(database, c.id)).renewals == 1


async def test_a_dry_run_through_the_api_charges_nothing(client, database, staff):
    c = await due_contract(database)
    answer = await client.post(RENEW, headers=staff, json={"dry_run": True})
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    assert content["dryRun"] is True and content["renewed"] >= 1
    assert (await contract(database, c.id)).renewals == 0 and not await renewal_charges(database, c.id)


async def test_a_second_run_while_one_is_in_progress_gets_409(client, staff):
    async with renewals._lock:  # a run of this process (the schedule's, or another staff member's)
        answer = await client.post(RENEW, headers=staff, json={})
    assert answer.status_code == 409
    assert answer.json() == {
        "error": True,
        "message": "A renewal run is already in progress",
        "messageErrorCode": "conflict",
    }


@pytest.mark.parametrize("body", [{"dry_run": "yes"}, {"dry_run": True, "everything": True}])
async def test_a_body_the_contract_refuses_gets_400(client, staff, body):
    answer = await client.post(RENEW, headers=staff, json=body)
    assert answer.status_code == 400
    assert answer.json()["messageErrorCode"] == "validation_error"


async def test_a_json_null_body_is_not_a_missing_body_and_gets_400(client, staff):
    answer = await client.post(RENEW, headers={**staff, "Content-Type": "application/json"}, content=b"null")
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"


async def test_viewers_cannot_run_renewals(client, database):
    c = await due_contract(database)
    viewer = await sign_up(client)
    answer = await client.post(RENEW, headers=viewer["headers"], json={"dry_run": False})
    assert answer.status_code == 403
    assert answer.json()["messageErrorCode"] == "forbidden_role"
    assert (await contract(database, c.id)).renewals == 0


async def test_without_a_token_the_run_is_refused(client):
    answer = await client.post(RENEW, json={})
    assert answer.status_code == 401
