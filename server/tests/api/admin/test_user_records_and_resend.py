"""What support staff see of an account besides its sessions and devices — its purchases,
contracts and follows (/admin/users/{id}/purchases|contracts|follows) — and a mail of the outbox
sent again (POST /admin/outbox/{id}/resend), recorded in the audit log with who asked."""

import pytest
import pytest_asyncio

from server.tests import commerce
from server.tests.accounts import create_user, sign_in, sign_up
from server.tests.billing import active_contract
from server.tests.mailbox import mails_to

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOBODY = "f" * 24
READS = ["purchases", "contracts", "follows"]


async def staff_account(client, database, role: str) -> dict:
    email = await create_user(database, role=role)
    answer = await sign_in(client, email)
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    return {"email": email, "headers": {"Authorization": f"Bearer {content['tokenData']['access_token']}"}}


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def support(client, database):
    return await staff_account(client, database, "support")


def user_id(account: dict) -> str:
    return account["profile"]["userId"]


async def entries(client, support, account: dict, what: str) -> list[dict]:
    answer = await client.get(f"/api/admin/users/{user_id(account)}/{what}", headers=support["headers"])
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["entries"]


async def reset_mail(client, database) -> tuple[dict, str]:
    """An account that asked for a password reset, and the id of that mail."""
    account = await sign_up(client)
    assert (await client.post("/api/user/password/forgot", json={"email": account["email"]})).status_code == 200
    [written] = await mails_to(database, account["email"], "password_reset")
    return account, written.id


# --- who may ask ---------------------------------------------------------------------------------

REQUESTS = [("GET", f"/api/admin/users/{NOBODY}/{what}") for what in READS] + [
    ("POST", f"/api/admin/outbox/{NOBODY}/resend")
]
REQUEST_IDS = [*READS, "resend"]


@pytest.mark.parametrize(("method", "path"), REQUESTS, ids=REQUEST_IDS)
async def test_viewers_are_refused_with_403_forbidden_role(client, method, path):
    viewer = await sign_up(client)
    answer = await client.request(method, path, headers=viewer["headers"])
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


@pytest.mark.parametrize(("method", "path"), REQUESTS, ids=REQUEST_IDS)
async def test_anonymous_callers_are_refused_with_401(client, method, path):
    answer = await client.request(method, path)
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


@pytest.mark.parametrize("what", READS)
async def test_an_unknown_account_is_not_found(client, support, what):
    answer = await client.get(f"/api/admin/users/{NOBODY}/{what}", headers=support["headers"])
    assert answer.status_code == 404
    assert answer.json() == {"error": True, "message": "User not found", "messageErrorCode": "user_not_found"}


@pytest.mark.parametrize("what", READS)
async def test_an_account_without_any_has_empty_lists(client, support, what):
    assert await entries(client, support, await sign_up(client), what) == []


# --- purchases, contracts, follows ---------------------------------------------------------------


async def test_support_sees_an_accounts_purchase_as_the_viewer_does(client, database, support):
    account = await sign_up(client)
    event = await commerce.paid_event(database)
    ppv = await commerce.buy(database, user_id(account), event.id)
    [purchase] = await entries(client, support, account, "purchases")
    own = (await client.get("/api/commerce/ppv/purchases", headers=account["headers"])).json()["content"]["entries"]
    assert purchase["_id"] == own[0]["_id"] and purchase["status"] == own[0]["status"] == "success"
    assert (purchase["title"], purchase["priceMinor"], purchase["event_id"]) == (ppv.title, 999, event.id)
    assert purchase["originalProduct"]["_id"] == ppv.id


async def test_support_sees_an_accounts_contracts_active_or_not(client, database, support):
    account = await sign_up(client)
    monthly = await commerce.product(database, "svod", title="Monthly pass")
    await active_contract(database, monthly, user_id(account))
    [contract] = await entries(client, support, account, "contracts")
    assert (contract["title"], contract["status"], contract["active"]) == ("Monthly pass", "active", True)
    assert contract["contractEndDate"] is not None and contract["originalProduct"]["_id"] == monthly.id


async def test_support_sees_what_an_account_follows(client, support, catalogue):
    account = await sign_up(client)
    saved = await client.post(
        "/api/follow/save", json={"reference_id": catalogue["npd"], "type": "identity_item"}, headers=account["headers"]
    )
    assert saved.status_code == 200, saved.text
    [follow] = await entries(client, support, account, "follows")
    assert (follow["reference_id"], follow["type"]) == (catalogue["npd"], "identity_item")
    assert follow["item"]["_id"] == catalogue["npd"]


# --- resending mail ------------------------------------------------------------------------------


async def test_resending_a_mail_writes_a_new_outbox_entry_with_the_same_text(client, database, support):
    account, mail_id = await reset_mail(client, database)
    answer = await client.post(f"/api/admin/outbox/{mail_id}/resend", headers=support["headers"])
    assert answer.status_code == 200, answer.text
    resent = answer.json()["content"]
    original, copy = await mails_to(database, account["email"], "password_reset")
    assert original.id == mail_id and resent["_id"] == copy.id != mail_id
    assert (copy.subject, copy.text, copy.status) == (original.subject, original.text, "kept")
    assert (resent["to"], resent["kind"], resent["status"]) == (account["email"], "password_reset", "kept")
    listed = await client.get(
        "/api/admin/outbox", params={"to": account["email"], "kind": "password_reset"}, headers=support["headers"]
    )
    assert [m["_id"] for m in listed.json()["content"]["entries"]] == [copy.id, mail_id]  # newest first


async def test_a_resend_is_in_the_audit_log_with_its_actor(client, database, support):
    _account, mail_id = await reset_mail(client, database)
    assert (await client.post(f"/api/admin/outbox/{mail_id}/resend", headers=support["headers"])).status_code == 200
    answer = await client.get(
        "/api/admin/audit", params={"action": "resend_mail", "target": mail_id}, headers=support["headers"]
    )
    [entry] = answer.json()["content"]["entries"]
    assert (entry["actor"], entry["actorType"], entry["method"], entry["status"]) == (
        support["email"],
        "user",
        "POST",
        200,
    )
    assert entry["path"] == f"/api/admin/outbox/{mail_id}/resend"


async def test_resending_an_unknown_mail_is_not_found(client, support):
    answer = await client.post(f"/api/admin/outbox/{NOBODY}/resend", headers=support["headers"])
    assert answer.status_code == 404
    assert answer.json() == {"error": True, "message": "Mail not found", "messageErrorCode": "mail_not_found"}


async def test_a_malformed_mail_id_is_refused(client, support):
    answer = await client.post("/api/admin/outbox/not-an-id/resend", headers=support["headers"])
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"
