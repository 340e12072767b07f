"""GET /admin/outbox: staff read the mail the server wrote, newest first."""

from datetime import timedelta

import pytest

from server import clock
from server.services import mail
from server.tests.accounts import new_email, sign_up
from server.tests.mailbox import client_at, staff_headers


@pytest.fixture
async def visitor(api, database, settings):
    async with client_at(api, database, settings) as http:
        yield http


async def write_mails(database, settings, to: str, kinds: list[mail.MailKind]) -> list[str]:
    """One mail per kind, a second apart (oldest first); their ids. A kind that carries a secret
    names one, as its real mail does."""
    ids = []
    for kind in kinds:
        secrets = (f"secret-of-{kind}",) if kind in mail.SECRET_KINDS else ()
        text = f"Text of {kind}\n" + "".join(f"{secret}\n" for secret in secrets)
        async with database.session() as db:
            written = mail.write(
                db, settings, to=to, kind=kind, message=mail.Message(f"About {kind}", text, secrets=secrets)
            )
            await db.commit()
        ids.append(written.id)
        clock.advance(timedelta(seconds=1))
    return ids


async def test_staff_read_the_outbox_newest_first_filtered_by_address(visitor, database, settings):
    headers = await staff_headers(visitor, database, settings)
    to = new_email()
    kinds = [mail.MailKind.PASSWORD_RESET, mail.MailKind.PASSWORD_CHANGED, mail.MailKind.ACCOUNT_DELETED]
    ids = await write_mails(database, settings, to, kinds)
    await write_mails(database, settings, new_email(), [mail.MailKind.PASSWORD_RESET])  # someone else's
    answer = await visitor.get("/api/admin/outbox", params={"to": to.upper()}, headers=headers)
    assert answer.status_code == 200
    content = answer.json()["content"]
    assert [e["_id"] for e in content["entries"]] == ids[::-1]
    newest = content["entries"][0]
    assert newest == {
        "_id": ids[-1],
        "to": to,
        "subject": "About account_deleted",
        "kind": "account_deleted",
        "text": "Text of account_deleted\n",
        "status": "kept",
        "added": newest["added"],
        "sentAt": None,
    }
    assert (content["entryCount"], content["count"], content["itemsPerPage"], content["startIndex"]) == (3, 3, 10, 0)


async def test_staff_filter_the_outbox_by_kind_and_page_through_it(visitor, database, settings):
    headers = await staff_headers(visitor, database, settings)
    to = new_email()
    ids = await write_mails(
        database,
        settings,
        to,
        [mail.MailKind.PASSWORD_RESET, mail.MailKind.PASSWORD_CHANGED, mail.MailKind.PASSWORD_RESET],
    )
    resets = await visitor.get("/api/admin/outbox", params={"to": to, "kind": "password_reset"}, headers=headers)
    assert [e["_id"] for e in resets.json()["content"]["entries"]] == [ids[2], ids[0]]
    second = await visitor.get("/api/admin/outbox", params={"to": to, "page": 1, "size": 2}, headers=headers)
    content = second.json()["content"]
    assert [e["_id"] for e in content["entries"]] == [ids[0]]
    assert (content["startIndex"], content["itemsPerPage"]) == (2, 2)


async def test_the_outbox_shows_the_reset_mail_of_a_forgotten_password(visitor, database, settings):
    headers = await staff_headers(visitor, database, settings)
    account = await sign_up(visitor)
    await visitor.post("/api/user/password/forgot", json={"email": account["email"]})
    answer = await visitor.get(
        "/api/admin/outbox", params={"to": account["email"], "kind": "password_reset"}, headers=headers
    )
    [entry] = answer.json()["content"]["entries"]
    assert entry["kind"] == "password_reset" and "/auth/password/reset/?token=…redacted…\n" in entry["text"]


async def test_viewers_cannot_read_the_outbox(visitor):
    account = await sign_up(visitor)
    answer = await visitor.get("/api/admin/outbox", headers=account["headers"])
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


async def test_the_outbox_needs_a_signed_in_caller(visitor):
    answer = await visitor.get("/api/admin/outbox")
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


async def test_an_unknown_kind_is_refused(visitor, database, settings):
    headers = await staff_headers(visitor, database, settings)
    answer = await visitor.get("/api/admin/outbox", params={"kind": "newsletter"}, headers=headers)
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"
