"""Signing up with a confirmation link (issue 26 §5, §11): POST /user/register and
/user/verify_email."""

import json
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from server import clock
from server.auth.passwords import Passwords
from server.models import EmailVerification, User
from server.services import signup
from server.settings import Settings
from server.tests.accounts import (
    PASSWORD,
    new_email,
    register,
    sign_in,
    sign_up,
    verification_token,
    verify_email,
)
from server.tests.mailbox import mails_to, request_reset

REQUEST = {"device_id": "same-device", "strategy": "refresh"}


async def accounts_with(database, email: str) -> int:
    async with database.session() as db:
        return await db.scalar(select(func.count()).select_from(User).where(User.email == email))


async def test_registering_a_new_and_a_taken_address_gives_byte_identical_answers(client):
    taken = await sign_up(client)
    fresh = await register(client, new_email(), display_name="Same Fan", **REQUEST)
    again = await register(client, taken["email"], display_name="Same Fan", **REQUEST)
    assert fresh.status_code == again.status_code == 202
    assert fresh.content == again.content
    assert fresh.json() == {"content": {"status": "verification_sent"}, "error": False, "message": ""}
    assert "tokenData" not in fresh.text


async def test_registering_hashes_the_password_whether_or_not_the_address_is_taken(client, monkeypatch):
    taken = await sign_up(client)
    hashed: list[str] = []
    original = Passwords.hash

    async def counting(self, password: str) -> str:
        hashed.append(password)
        return await original(self, password)

    monkeypatch.setattr(Passwords, "hash", counting)
    await register(client, new_email(), "first secret words")
    await register(client, taken["email"], "second secret words")
    assert hashed == ["first secret words", "second secret words"]


async def test_registering_a_taken_address_mails_its_owner_and_changes_nothing(client, database):
    owner = await sign_up(client)
    answer = await register(client, owner["email"].upper(), "intruder picked these words", display_name="Someone Else")
    assert answer.status_code == 202, answer.text
    [note] = await mails_to(database, owner["email"], "signup_attempt")
    assert "tried to create a Touchline account" in note.text and "/auth/password/forgot/" in note.text
    assert await accounts_with(database, owner["email"]) == 1
    assert (await sign_in(client, owner["email"], "intruder picked these words")).status_code == 401
    assert (await sign_in(client, owner["email"])).status_code == 200


async def test_a_new_address_gets_a_confirmation_link_and_cannot_sign_in_before_opening_it(client, database):
    email = new_email()
    assert (await register(client, email)).status_code == 202
    [mail] = await mails_to(database, email, "email_verification")
    assert "/auth/verify/?token=ev_" in mail.text
    refused = await sign_in(client, email)
    assert refused.status_code == 401 and refused.json()["messageErrorCode"] == "invalid_credentials"


async def test_the_confirmation_link_is_stored_only_as_its_hash(client, database):
    email = new_email()
    await register(client, email)
    token = await verification_token(database, email)
    async with database.session() as db:
        stored = list(await db.scalars(select(EmailVerification.token_hash)))
    assert signup.token_hash(token) in stored and token not in stored


async def test_a_confirmation_link_works_once(client, database):
    email = new_email()
    await register(client, email)
    token = await verification_token(database, email)
    first = await verify_email(client, token)
    assert first.status_code == 200 and first.json()["auth_data"] == {"isRegister": True, "provider": "credentials"}
    again = await verify_email(client, token)
    assert again.status_code == 400 and again.json()["messageErrorCode"] == "invalid_verification_token"
    assert (await sign_in(client, email)).status_code == 200


async def test_an_expired_confirmation_link_is_refused(client, database, settings):
    email = new_email()
    await register(client, email)
    token = await verification_token(database, email)
    clock.advance(timedelta(seconds=settings.email_verification_lifetime + 1))
    try:
        late = await verify_email(client, token)
    finally:
        clock.reset()
    assert late.status_code == 400 and late.json()["messageErrorCode"] == "invalid_verification_token"
    assert (await sign_in(client, email)).status_code == 401


async def test_an_unknown_confirmation_token_is_refused(client):
    answer = await verify_email(client, "ev_" + "x" * 40)
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "invalid_verification_token"


async def test_each_sign_up_of_a_waiting_address_gets_its_own_link_with_its_own_password(client, database):
    """Issue 26 §5: someone signs up first with the owner's address and a password of their own;
    the owner signs up too and opens her link. The account has her password, never the first."""
    email = new_email()
    await register(client, email, "squatter picked these words")
    squatters_link = await verification_token(database, email)
    again = await register(client, email)
    assert again.status_code == 202
    owners_link = await verification_token(database, email)
    assert owners_link != squatters_link
    assert (await verify_email(client, owners_link)).status_code == 200
    assert (await sign_in(client, email)).status_code == 200
    assert (await sign_in(client, email, "squatter picked these words")).status_code == 401
    late = await verify_email(client, squatters_link)
    assert late.status_code == 400 and late.json()["messageErrorCode"] == "invalid_verification_token"
    assert await accounts_with(database, email) == 1


async def test_a_link_no_longer_works_once_a_password_reset_confirmed_the_address(client, database):
    email = new_email()
    await register(client, email, "squatter picked these words")
    squatters_link = await verification_token(database, email)
    token = await request_reset(client, database, email)
    assert (
        await client.post("/api/user/password/reset", json={"token": token, "password": PASSWORD})
    ).status_code == 200
    late = await verify_email(client, squatters_link)
    assert late.status_code == 400 and late.json()["messageErrorCode"] == "invalid_verification_token"
    assert (await sign_in(client, email, "squatter picked these words")).status_code == 401


async def test_a_password_reset_confirms_the_address_and_replaces_the_sign_up_password(client, database):
    email = new_email()
    await register(client, email, "squatter picked these words")
    token = await request_reset(client, database, email)
    reset = await client.post("/api/user/password/reset", json={"token": token, "password": PASSWORD})
    assert reset.status_code == 200, reset.text
    assert (await sign_in(client, email)).status_code == 200
    assert (await sign_in(client, email, "squatter picked these words")).status_code == 401


async def test_the_sign_up_display_name_follows_the_profile_rules_for_a_taken_address_too(client):
    taken = await sign_up(client)
    for address in (new_email(), taken["email"]):
        answer = await register(client, address, display_name="Esc\x1bape")
        assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"


def test_the_mail_drop_is_refused_in_production(tmp_path):
    with pytest.raises(ValueError, match="MAIL_DROP"):
        Settings(environment="production", secret_key="s" * 40, mail_drop_dir=tmp_path)


async def test_the_mail_drop_holds_the_confirmation_mail_for_test_clients(client, database, tmp_path):
    email = new_email()
    await register(client, email)
    [mail] = await mails_to(database, email, "email_verification")
    signup.drop(Settings(environment="test", mail_drop_dir=tmp_path), mail)
    [dropped] = [json.loads(path.read_text()) for path in tmp_path.iterdir()]
    assert (dropped["to"], dropped["kind"], dropped["text"]) == (email, "email_verification", mail.text)


async def test_a_developer_without_smtp_reads_the_confirmation_link_on_the_console(client, database, caplog):
    email = new_email()
    await register(client, email)
    [mail] = await mails_to(database, email, "email_verification")
    token = await verification_token(database, email)
    with caplog.at_level("WARNING", logger="server.services.signup"):
        signup.drop(Settings(environment="development"), mail)
        signup.drop(Settings(environment="development", smtp_host="mail.example"), mail)
        signup.drop(Settings(environment="test"), mail)
    assert [token in record.getMessage() for record in caplog.records] == [True]


async def test_staff_are_never_shown_a_working_confirmation_link(client, database):
    email = new_email()
    await register(client, email)
    token = await verification_token(database, email)
    [mail] = await mails_to(database, email, "email_verification")
    assert token in mail.text and token not in mail.staff_text and "redacted" in mail.staff_text
