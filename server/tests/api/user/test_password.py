"""Forgotten and changed passwords: POST /user/password/forgot, /user/password/reset,
/user/change_password and /user/end_other_sessions."""

import asyncio
import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from server import clock
from server.app import create_api
from server.models import AuthSession, PasswordReset, User
from server.tests.accounts import PASSWORD, new_device, new_email, refresh, sign_in, sign_up
from server.tests.conftest import with_state
from server.tests.mailbox import (
    call_and_look_when_answered,
    client_at,
    mails_to,
    recording_socket,
    request_reset,
    reset_link,
    token_of,
    user_row,
)

NEW_PASSWORD = "a brand new passphrase"
INVALID_TOKEN = {
    "error": True,
    "message": "This reset link is no longer valid",
    "messageErrorCode": "invalid_reset_token",
}


@pytest.fixture
async def visitor(api, database, settings):
    """A client with an address of its own, so per-address limits of other tests do not add up."""
    async with client_at(api, database, settings) as http:
        yield http


async def signed_in_elsewhere(client, account) -> dict:
    """Sign the account in on another device; the sign-in content plus that `device_id`."""
    device_id = new_device()
    answer = await sign_in(client, account["email"], account["password"], device_id)
    assert answer.status_code == 200
    return {**answer.json()["content"], "device_id": device_id}


def bearer_of(content: dict) -> dict:
    return {"Authorization": f"Bearer {content['tokenData']['access_token']}"}


async def resets_of(database, user_id: str) -> list[PasswordReset]:
    async with database.session() as db:
        return list((await db.execute(select(PasswordReset).where(PasswordReset.user_id == user_id))).scalars())


# --- forgot ---------------------------------------------------------------------------------


async def test_forgot_password_mails_a_single_use_link_stored_only_as_a_hash(visitor, database, settings):
    account = await sign_up(visitor)
    answer = await visitor.post("/api/user/password/forgot", json={"email": account["email"]})
    assert answer.status_code == 200
    assert answer.json() == {"content": None, "error": False, "message": ""}
    [mail] = await mails_to(database, account["email"])
    assert (mail.kind, mail.status, mail.sent_at) == ("password_reset", "kept", None)
    assert mail.subject == "Reset your Touchline password"
    link = reset_link(mail.text)
    assert link.startswith(f"{settings.base_url}/auth/password/reset/?token=")
    token = token_of(link)
    [reset] = await resets_of(database, account["profile"]["userId"])
    assert reset.token_hash == hashlib.sha256(token.encode()).hexdigest() != token
    assert reset.expires_at - reset.created == timedelta(seconds=settings.password_reset_lifetime)
    assert reset.used_at is None
    assert f"within {settings.password_reset_lifetime // 60} minutes" in mail.text


async def test_forgot_password_answers_the_same_for_an_unknown_address(visitor, database):
    account = await sign_up(visitor)
    unknown = new_email()
    known_answer = await visitor.post("/api/user/password/forgot", json={"email": account["email"]})
    unknown_answer = await visitor.post("/api/user/password/forgot", json={"email": unknown})
    assert known_answer.status_code == unknown_answer.status_code == 200
    assert known_answer.content == unknown_answer.content
    assert dict(known_answer.headers) == dict(unknown_answer.headers)
    assert await mails_to(database, unknown) == []
    assert len(await mails_to(database, account["email"])) == 1


async def test_forgot_password_answers_before_the_address_is_even_looked_up(api, database, settings, visitor):
    """The answer goes out before any work that depends on the address: its timing cannot tell."""
    account = await sign_up(visitor)
    user_id = account["profile"]["userId"]
    resets_when_answered: list[int] = []

    async def look():
        resets_when_answered.append(len(await resets_of(database, user_id)))

    app = with_state(api, {"database": database, "settings": settings})
    status = await call_and_look_when_answered(
        app, "POST", "/api/user/password/forgot", json={"email": account["email"]}, look=look
    )
    assert status == 200
    assert resets_when_answered == [0]
    assert len(await resets_of(database, user_id)) == 1  # made once the answer was out


async def test_forgot_password_matches_the_address_case_insensitively(visitor, database):
    account = await sign_up(visitor)
    await visitor.post("/api/user/password/forgot", json={"email": "  " + account["email"].upper() + " "})
    [mail] = await mails_to(database, account["email"])
    assert mail.to_address == account["email"]


async def test_a_deleted_account_gets_no_reset_link(visitor, database):
    account = await sign_up(visitor)
    assert (await visitor.post("/api/user/delete_account", headers=account["headers"])).status_code == 200
    answer = await visitor.post("/api/user/password/forgot", json={"email": account["email"]})
    assert answer.status_code == 200
    assert await mails_to(database, account["email"], "password_reset") == []


# --- reset ----------------------------------------------------------------------------------


async def test_reset_token_works_once(visitor, database):
    account = await sign_up(visitor)
    token = await request_reset(visitor, database, account["email"])
    first = await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD})
    assert first.status_code == 200 and first.json() == {"content": None, "error": False, "message": ""}
    again = await visitor.post("/api/user/password/reset", json={"token": token, "password": "yet another password"})
    assert again.status_code == 400 and again.json() == INVALID_TOKEN
    assert (await sign_in(visitor, account["email"], NEW_PASSWORD)).status_code == 200
    old = await sign_in(visitor, account["email"], PASSWORD)
    assert old.status_code == 401 and old.json()["messageErrorCode"] == "invalid_credentials"


async def test_the_new_password_is_stored_as_an_argon2id_hash(visitor, database):
    account = await sign_up(visitor)
    token = await request_reset(visitor, database, account["email"])
    await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD})
    user = await user_row(database, account["profile"]["userId"])
    assert user.password_hash is not None
    assert user.password_hash.startswith("$argon2id$") and NEW_PASSWORD not in user.password_hash


async def test_two_concurrent_resets_with_one_token_let_exactly_one_win(visitor, database):
    account = await sign_up(visitor)
    token = await request_reset(visitor, database, account["email"])
    passwords = [f"racing password number {n}" for n in range(3)]
    answers = await asyncio.gather(
        *(visitor.post("/api/user/password/reset", json={"token": token, "password": p}) for p in passwords)
    )
    assert sorted(a.status_code for a in answers) == [200, 400, 400]
    assert all(a.json() == INVALID_TOKEN for a in answers if a.status_code == 400)
    winner = next(p for p, a in zip(passwords, answers, strict=True) if a.status_code == 200)
    for candidate in passwords:
        expected = 200 if candidate == winner else 401
        assert (await sign_in(visitor, account["email"], candidate)).status_code == expected
    assert len(await mails_to(database, account["email"], "password_changed")) == 1


async def test_an_unknown_token_is_refused(visitor):
    answer = await visitor.post("/api/user/password/reset", json={"token": "pr_" + "x" * 43, "password": NEW_PASSWORD})
    assert answer.status_code == 400 and answer.json() == INVALID_TOKEN


async def test_a_reset_token_works_until_its_lifetime_is_over(visitor, database, settings):
    account = await sign_up(visitor)
    token = await request_reset(visitor, database, account["email"])
    clock.advance(timedelta(seconds=settings.password_reset_lifetime - 5))
    answer = await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD})
    assert answer.status_code == 200


async def test_an_expired_reset_token_is_refused(visitor, database, settings):
    account = await sign_up(visitor)
    token = await request_reset(visitor, database, account["email"])
    clock.advance(timedelta(seconds=settings.password_reset_lifetime + 1))
    answer = await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD})
    assert answer.status_code == 400 and answer.json() == INVALID_TOKEN
    clock.reset()
    assert (await sign_in(visitor, account["email"], PASSWORD)).status_code == 200, "the password did not change"


async def test_a_reset_spends_every_other_link_of_the_account(visitor, database):
    account = await sign_up(visitor)
    earlier = await request_reset(visitor, database, account["email"])
    later = await request_reset(visitor, database, account["email"])
    assert earlier != later
    assert (
        await visitor.post("/api/user/password/reset", json={"token": later, "password": NEW_PASSWORD})
    ).status_code == 200
    stale = await visitor.post("/api/user/password/reset", json={"token": earlier, "password": "someone else's choice"})
    assert stale.status_code == 400 and stale.json() == INVALID_TOKEN


async def test_a_reset_ends_every_session_of_the_account(visitor, database):
    account = await sign_up(visitor)
    other = await signed_in_elsewhere(visitor, account)
    token = await request_reset(visitor, database, account["email"])
    with recording_socket() as socket:
        await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD})
    for headers in (account["headers"], bearer_of(other)):
        assert (await visitor.get("/api/user/get_devices", headers=headers)).status_code == 401
    for content in (account, other):
        refused = await refresh(visitor, content["tokenData"]["refresh_token"])
        assert refused.status_code == 401 and refused.json()["messageErrorCode"] == "refresh_token_failed"
    user_room = f"user:{account['profile']['userId']}"
    told = sorted(
        data["deviceId"] for name, data, room in socket.sent if name == "remove-user-device" and room == user_room
    )
    assert told == sorted([account["device_id"], other["device_id"]])


async def test_a_reset_sends_a_password_changed_mail(visitor, database):
    account = await sign_up(visitor)
    token = await request_reset(visitor, database, account["email"])
    await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD})
    [mail] = await mails_to(database, account["email"], "password_changed")
    assert mail.subject == "Your Touchline password was changed"
    assert "/auth/password/forgot/" in mail.text


async def test_an_account_without_a_password_sets_one_with_a_reset_link(visitor, database):
    account = await sign_up(visitor)  # made passwordless like an account from a federated sign-on
    async with database.session() as db:
        await db.execute(update(User).where(User.id == account["profile"]["userId"]).values(password_hash=None))
        await db.commit()
    token = await request_reset(visitor, database, account["email"])
    assert (
        await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD})
    ).status_code == 200
    assert (await sign_in(visitor, account["email"], NEW_PASSWORD)).status_code == 200


# --- change ---------------------------------------------------------------------------------


async def test_change_password_needs_the_current_password(visitor):
    account = await sign_up(visitor)
    answer = await visitor.post(
        "/api/user/change_password",
        headers=account["headers"],
        json={"current_password": "not my password", "new_password": NEW_PASSWORD},
    )
    assert answer.status_code == 403
    assert answer.json() == {
        "error": True,
        "message": "The current password is wrong",
        "messageErrorCode": "wrong_password",
    }
    assert (await sign_in(visitor, account["email"], PASSWORD)).status_code == 200


async def test_an_account_without_a_password_cannot_change_it(visitor, database):
    account = await sign_up(visitor)
    async with database.session() as db:
        await db.execute(update(User).where(User.id == account["profile"]["userId"]).values(password_hash=None))
        await db.commit()
    answer = await visitor.post(
        "/api/user/change_password",
        headers=account["headers"],
        json={"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "wrong_password"


async def test_change_password_keeps_this_session_and_counts_the_others(visitor, database):
    account = await sign_up(visitor)
    others = [await signed_in_elsewhere(visitor, account) for _ in range(2)]
    answer = await visitor.post(
        "/api/user/change_password",
        headers=account["headers"],
        json={"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    assert answer.status_code == 200
    assert answer.json() == {"content": {"otherSessions": 2}, "error": False, "message": ""}
    assert (await visitor.get("/api/user/get_devices", headers=account["headers"])).status_code == 200
    assert (await visitor.get("/api/user/get_devices", headers=bearer_of(others[0]))).status_code == 200
    assert (await sign_in(visitor, account["email"], NEW_PASSWORD)).status_code == 200
    assert (await sign_in(visitor, account["email"], PASSWORD)).status_code == 401
    [mail] = await mails_to(database, account["email"], "password_changed")
    assert mail.status == "kept"


async def test_change_password_spends_unused_reset_links(visitor, database):
    account = await sign_up(visitor)
    token = await request_reset(visitor, database, account["email"])
    await visitor.post(
        "/api/user/change_password",
        headers=account["headers"],
        json={"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    late = await visitor.post("/api/user/password/reset", json={"token": token, "password": "an attacker's choice"})
    assert late.status_code == 400 and late.json() == INVALID_TOKEN


async def test_change_password_needs_a_signed_in_caller(visitor):
    answer = await visitor.post(
        "/api/user/change_password", json={"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


# --- other sessions -------------------------------------------------------------------------


async def test_end_other_sessions_signs_out_every_other_session_and_keeps_this_one(visitor):
    account = await sign_up(visitor)
    others = [await signed_in_elsewhere(visitor, account) for _ in range(2)]
    with recording_socket() as socket:
        answer = await visitor.post("/api/user/end_other_sessions", headers=account["headers"])
    assert answer.status_code == 200
    assert answer.json() == {"content": {"ended": 2}, "error": False, "message": ""}
    assert (await visitor.get("/api/user/get_devices", headers=account["headers"])).status_code == 200
    for other in others:
        assert (await visitor.get("/api/user/get_devices", headers=bearer_of(other))).status_code == 401
        assert (await refresh(visitor, other["tokenData"]["refresh_token"])).status_code == 401
    assert (await refresh(visitor, account["tokenData"]["refresh_token"])).status_code == 200
    told = sorted((name, data["deviceId"]) for name, data, _room in socket.sent)
    assert told == sorted(("remove-user-device", other["device_id"]) for other in others)
    again = await visitor.post(
        "/api/user/change_password",
        headers=account["headers"],
        json={"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    assert again.json()["content"] == {"otherSessions": 0}


async def test_end_other_sessions_with_no_other_session_ends_none(visitor):
    account = await sign_up(visitor)
    answer = await visitor.post("/api/user/end_other_sessions", headers=account["headers"])
    assert answer.json()["content"] == {"ended": 0}


async def test_end_other_sessions_leaves_other_accounts_alone(visitor, database):
    mine, theirs = await sign_up(visitor), await sign_up(visitor)
    await visitor.post("/api/user/end_other_sessions", headers=mine["headers"])
    assert (await visitor.get("/api/user/get_devices", headers=theirs["headers"])).status_code == 200
    async with database.session() as db:
        revoked = (
            await db.execute(
                select(AuthSession.id).where(
                    AuthSession.user_id == theirs["profile"]["userId"], AuthSession.revoked_at.is_not(None)
                )
            )
        ).all()
    assert revoked == []


# --- rate limits ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def strict_settings(settings):
    return settings.model_copy(
        update={
            "password_reset_requests_per_email": 2,
            "password_reset_requests_per_address": 4,
            "password_reset_address_window": 600,
            "password_change_attempts": 2,
            "password_change_window": 900,
        }
    )


@pytest.fixture(scope="module")
def strict_api(strict_settings):
    api = create_api(strict_settings)
    return api


async def test_reset_requests_are_limited_per_mail_address_known_or_not(strict_api, database, strict_settings):
    async with client_at(strict_api, database, strict_settings) as http:
        account = await sign_up(http)
    for email in (account["email"], new_email()):
        statuses = []
        for _ in range(3):  # from three clients: the address is what is counted
            async with client_at(strict_api, database, strict_settings) as http:
                statuses.append(await http.post("/api/user/password/forgot", json={"email": email}))
        assert [a.status_code for a in statuses] == [200, 200, 429]
        refused = statuses[-1]
        assert refused.json()["messageErrorCode"] == "too_many_requests"
        assert 0 < int(refused.headers["Retry-After"]) <= strict_settings.password_reset_email_window
    assert len(await mails_to(database, account["email"], "password_reset")) == 2


async def test_reset_requests_are_limited_per_client(strict_api, database, strict_settings):
    async with client_at(strict_api, database, strict_settings) as http:
        statuses = [
            (await http.post("/api/user/password/forgot", json={"email": new_email()})).status_code for _ in range(5)
        ]
        assert statuses == [200] * 4 + [429]
        reset = await http.post("/api/user/password/reset", json={"token": "pr_" + "y" * 43, "password": NEW_PASSWORD})
        assert reset.status_code == 429 and "Retry-After" in reset.headers
    async with client_at(strict_api, database, strict_settings) as neighbour:
        assert (await neighbour.post("/api/user/password/forgot", json={"email": new_email()})).status_code == 200


async def test_change_password_attempts_are_limited_per_account(strict_api, database, strict_settings):
    async with client_at(strict_api, database, strict_settings) as http:
        account = await sign_up(http)
        wrong = {"current_password": "guess number one", "new_password": NEW_PASSWORD}
        statuses = [
            (await http.post("/api/user/change_password", headers=account["headers"], json=wrong)).status_code
            for _ in range(2)
        ]
        right = await http.post(
            "/api/user/change_password",
            headers=account["headers"],
            json={"current_password": PASSWORD, "new_password": NEW_PASSWORD},
        )
    assert statuses == [403, 403]
    assert right.status_code == 429 and 0 < int(right.headers["Retry-After"]) <= 900


async def test_a_reset_lets_in_again_the_client_its_failed_sign_ins_held_back(visitor, database, settings):
    account = await sign_up(visitor)
    for _ in range(settings.login_failures_per_client):
        assert (await sign_in(visitor, account["email"], "a wrong password")).status_code == 401
    assert (await sign_in(visitor, account["email"])).status_code == 429
    token = await request_reset(visitor, database, account["email"])
    assert (
        await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD})
    ).status_code == 200
    assert (await sign_in(visitor, account["email"], NEW_PASSWORD)).status_code == 200
