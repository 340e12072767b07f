"""Weak passwords are refused where a password is chosen: sign-up, change and reset (issue 26 §12)."""

import pytest

from server.tests.accounts import PASSWORD, new_email, register, sign_in, sign_up
from server.tests.mailbox import request_reset

STRONG = "lantern meadow copper violin"


def assert_weak(answer, field: str, reason: str) -> None:
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["error"] is True and body["messageErrorCode"] == "weak_password"
    assert body["details"] == [{"field": field, "message": body["message"], "reason": reason}]


@pytest.mark.parametrize(
    ("password", "reason"), [("password", "common"), ("aaaaaaaa", "repeated"), (" " * 8, "repeated")]
)
async def test_registration_refuses_common_and_one_character_passwords(client, password, reason):
    assert_weak(await register(client, new_email(), password), "password", reason)


async def test_registration_refuses_the_address_itself_as_the_password(client):
    email = new_email()
    assert_weak(await register(client, email, email), "password", "personal")


async def test_registration_refuses_the_display_name_in_the_password(client):
    answer = await register(client, new_email(), "ada lovelace rules", display_name="Ada Lovelace")
    assert_weak(answer, "password", "personal")


async def test_a_weak_password_is_refused_the_same_for_a_taken_address(client):
    taken = await sign_up(client)
    assert_weak(await register(client, taken["email"], "password123"), "password", "common")


async def test_password_change_refuses_a_weak_new_password_and_keeps_the_old_one(client):
    account = await sign_up(client)
    answer = await client.post(
        "/api/user/change_password",
        headers=account["headers"],
        json={"current_password": PASSWORD, "new_password": account["email"]},
    )
    assert_weak(answer, "new_password", "personal")
    assert (await sign_in(client, account["email"], PASSWORD)).status_code == 200


async def test_password_reset_refuses_a_weak_password_and_the_link_still_works(client, database):
    account = await sign_up(client)
    token = await request_reset(client, database, account["email"])
    weak = await client.post("/api/user/password/reset", json={"token": token, "password": "12345678"})
    assert_weak(weak, "password", "common")
    strong = await client.post("/api/user/password/reset", json={"token": token, "password": STRONG})
    assert strong.status_code == 200, strong.text
    assert (await sign_in(client, account["email"], STRONG)).status_code == 200
