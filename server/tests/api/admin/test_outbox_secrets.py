"""Issue 26 §2: support staff cannot become admin through the outbox. The outbox shows staff a
reset mail with its link's token redacted (to a support account and a support API key alike),
the delivered text still carries it, and every read of the outbox is in the audit log."""

import json

import pytest
import pytest_asyncio

from server.app import create_api
from server.services import mail
from server.tests.accounts import create_user
from server.tests.mailbox import client_at, mails_to, reset_link, token_of

from .test_roles_keys_audit import staff_account

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def admin(client, database):
    return await staff_account(client, database, "admin")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def support(client, database):
    return await staff_account(client, database, "support")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def support_key(client, admin) -> dict:
    answer = await client.post(
        "/api/admin/keys", json={"name": "outbox reader", "role": "support"}, headers=admin["headers"]
    )
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    return {"id": content["key"]["_id"], "headers": {"X-API-Key": content["secret"]}}


async def an_admins_reset_mail(api, database, settings) -> tuple[str, str]:
    """The reproduction's first step: a reset of an admin's password is asked for (from an address
    of its own: resets are limited per client address). The admin's address and the token the mail
    really carries."""
    target = await create_user(database, role="admin")
    async with client_at(api, database, settings) as http:
        assert (await http.post("/api/user/password/forgot", json={"email": target})).status_code == 200
    [written] = await mails_to(database, target, "password_reset")
    return target, token_of(reset_link(written.text))


async def outbox_entry(client, headers: dict, to: str) -> dict:
    answer = await client.get("/api/admin/outbox", params={"to": to, "kind": "password_reset"}, headers=headers)
    assert answer.status_code == 200, answer.text
    [entry] = answer.json()["content"]["entries"]
    return entry


@pytest.mark.parametrize("caller", ["support", "support_key"])
async def test_staff_see_an_admins_reset_link_redacted(api, client, database, settings, support, support_key, caller):
    headers = {"support": support, "support_key": support_key}[caller]["headers"]
    target, token = await an_admins_reset_mail(api, database, settings)
    entry = await outbox_entry(client, headers, target)
    assert token not in entry["text"]
    assert "/auth/password/reset/?token=…redacted…\n" in entry["text"]


async def test_the_redacted_token_cannot_reset_the_password(api, client, database, settings, support):
    target, _ = await an_admins_reset_mail(api, database, settings)
    shown = (await outbox_entry(client, support["headers"], target))["text"]
    guessed = shown.split("?token=")[1].split("\n")[0]
    answer = await client.post(
        "/api/user/password/reset", json={"token": guessed, "password": "Kettle-Orbit-Lantern-9472"}
    )
    assert answer.status_code == 400


async def test_a_resent_reset_mail_is_shown_redacted_and_delivers_the_real_link(
    api, client, database, settings, support
):
    target, token = await an_admins_reset_mail(api, database, settings)
    original = await outbox_entry(client, support["headers"], target)
    answer = await client.post(f"/api/admin/outbox/{original['_id']}/resend", headers=support["headers"])
    assert answer.status_code == 200, answer.text
    assert token not in answer.json()["content"]["text"]
    _, copy = await mails_to(database, target, "password_reset")
    assert token_of(reset_link(copy.text)) == token


async def test_reading_the_outbox_is_audited_with_the_mail_read(api, client, database, settings, admin, support_key):
    target, _ = await an_admins_reset_mail(api, database, settings)
    entry = await outbox_entry(client, support_key["headers"], target)
    answer = await client.get(
        "/api/admin/audit", params={"action": "list_outbox", "actor": support_key["id"]}, headers=admin["headers"]
    )
    [audited, *_] = answer.json()["content"]["entries"]
    assert (audited["actorType"], audited["actorId"], audited["method"], audited["status"]) == (
        "key",
        support_key["id"],
        "GET",
        200,
    )
    assert audited["target"] == target and audited["detail"] == {"mailIds": [entry["_id"]]}


async def test_a_refused_read_of_the_outbox_is_audited_too(client, admin):
    assert (await client.get("/api/admin/outbox", params={"to": "refused-reader@example.com"})).status_code == 401
    answer = await client.get("/api/admin/audit", params={"action": "list_outbox"}, headers=admin["headers"])
    assert any(e["actorType"] == "anonymous" and e["status"] == 401 for e in answer.json()["content"]["entries"])


async def test_a_mail_whose_secret_is_not_named_is_refused_at_write(database, settings):
    async with database.session() as db:
        with pytest.raises(mail.UndeclaredSecret):
            mail.write(
                db,
                settings,
                to="someone@example.com",
                kind=mail.MailKind.PASSWORD_CHANGED,
                message=mail.Message("Sign in", "Open https://touchline.test/auth/x/?token=abc123 now\n"),
            )
        with pytest.raises(mail.UndeclaredSecret):
            mail.write(
                db,
                settings,
                to="someone@example.com",
                kind=mail.MailKind.PASSWORD_RESET,
                message=mail.Message("Reset", "No secret named\n"),
            )


async def test_test_runs_read_the_whole_reset_mail_from_the_mail_drop_only(database, settings, tmp_path):
    """Out-of-process test clients (the contract check) follow the link from the drop directory."""
    configured = settings.model_copy(update={"mail_drop_dir": tmp_path})
    target = await create_user(database, role="admin")
    async with client_at(create_api(configured), database, configured) as http:
        assert (await http.post("/api/user/password/forgot", json={"email": target})).status_code == 200
    [written] = await mails_to(database, target, "password_reset")
    [dropped] = [json.loads(path.read_text()) for path in tmp_path.glob(f"*-{written.id}.json")]
    assert dropped["text"] == written.text and token_of(reset_link(dropped["text"]))
