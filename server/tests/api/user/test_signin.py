"""Sign-up and sign-in with credentials: POST /user/register, /user/login, /user/logout."""

import asyncio

import httpx
import pytest
from sqlalchemy import func, select

from server.app import create_api
from server.models import User
from server.tests.accounts import (
    PASSWORD,
    bearer,
    database_of,
    new_email,
    refresh,
    register,
    sign_in,
    sign_up,
)
from server.tests.conftest import with_state


async def test_opening_the_confirmation_link_signs_the_new_account_in(client):
    account = await sign_up(client, display_name="  Ada Lovelace  ", countryName="United Kingdom")
    assert account["profile"]["displayName"] == "Ada Lovelace"
    assert account["profile"]["countryName"] == "United Kingdom"
    assert account["profile"]["role"] == "viewer"
    assert account["device_error"] is None
    assert [d["deviceId"] for d in account["devices"]] == [account["device_id"]]
    profile = await client.get("/api/user/get_profile", headers=account["headers"])
    assert profile.status_code == 200 and profile.json()["content"]["email"] == account["email"]


async def test_the_confirmation_answer_says_it_was_a_registration(client):
    account = await sign_up(client)
    assert account["auth_data"] == {"isRegister": True, "provider": "credentials"}
    login = await sign_in(client, account["email"])
    assert login.json()["auth_data"] == {"isRegister": False, "provider": "credentials"}


async def test_registering_an_address_twice_answers_as_the_first_time(client):
    account = await sign_up(client)
    again = await register(client, account["email"].upper(), display_name="Twin")
    assert again.status_code == 202
    assert again.json()["content"] == {"status": "verification_sent"}


async def test_concurrent_registrations_of_one_address_create_one_account(client):
    email = new_email()
    answers = await asyncio.gather(
        *(register(client, email, display_name="Racer", device_id=f"d{i}") for i in range(5))
    )
    assert [a.status_code for a in answers] == [202] * 5
    async with database_of(client).session() as db:
        owners = await db.scalar(select(func.count()).select_from(User).where(User.email == email))
    assert owners == 1


async def test_a_blank_display_name_is_refused(client):
    answer = await client.post(
        "/api/user/register",
        json={"email": new_email(), "password": PASSWORD, "displayName": "   ", "device_id": "d", "device_name": "d"},
    )
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"


async def test_a_short_password_is_refused_with_the_field_named(client):
    answer = await client.post(
        "/api/user/register",
        json={"email": new_email(), "password": "short", "displayName": "Fan", "device_id": "d", "device_name": "d"},
    )
    assert answer.status_code == 400
    assert answer.json()["details"][0]["field"] == "password"


async def test_sign_in_is_case_insensitive_on_the_address(client):
    account = await sign_up(client)
    answer = await sign_in(client, account["email"].upper())
    assert answer.status_code == 200
    assert answer.json()["content"]["profile"]["userId"] == account["profile"]["userId"]


async def test_wrong_password_and_unknown_user_get_the_same_answer(client):
    account = await sign_up(client)
    wrong = await sign_in(client, account["email"], password="not the password at all")
    unknown = await sign_in(client, new_email())
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {"error": True, "message": "Wrong username or password", "messageErrorCode": "invalid_credentials"}
    )


async def test_sign_in_on_the_same_device_reuses_the_device(client):
    account = await sign_up(client)
    again = await sign_in(client, account["email"], device_id=account["device_id"])
    assert len(again.json()["content"]["devices"]) == 1


async def test_logout_ends_this_session_only(client):
    account = await sign_up(client)
    other = (await sign_in(client, account["email"])).json()["content"]["tokenData"]
    assert (await client.post("/api/user/logout", headers=account["headers"])).status_code == 200
    assert (await client.get("/api/user/get_devices", headers=account["headers"])).status_code == 401
    refused = await refresh(client, account["tokenData"]["refresh_token"])
    assert refused.status_code == 401 and refused.json()["messageErrorCode"] == "refresh_token_failed"
    assert (await client.get("/api/user/get_devices", headers=bearer(other["access_token"]))).status_code == 200


async def test_logout_needs_a_token(client):
    answer = await client.post("/api/user/logout")
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


async def test_a_deleted_session_token_is_refused_everywhere(client):
    account = await sign_up(client)
    await client.post("/api/user/logout", headers=account["headers"])
    again = await client.post("/api/user/logout", headers=account["headers"])
    assert again.status_code == 401


# --- rate limits ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def strict_settings(settings):
    return settings.model_copy(
        update={
            "login_attempts_per_address": 6,
            "login_address_window": 60,
            "login_failures_per_account": 3,
            "login_failure_window": 900,
        }
    )


@pytest.fixture(scope="module")
def strict_client_factory(strict_settings, database):
    api = create_api(strict_settings)

    def make(address: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(
            app=with_state(api, {"database": database, "settings": strict_settings}), client=(address, 40000)
        )
        return httpx.AsyncClient(transport=transport, base_url="http://touchline.test")

    return make


async def test_failures_from_many_addresses_make_new_devices_wait_with_retry_after(client, strict_client_factory):
    account = await sign_up(client)
    for address in ["10.0.0.1", "10.0.0.2", "10.0.0.3"]:
        async with strict_client_factory(address) as other:
            assert (await sign_in(other, account["email"], password="wrong password!")).status_code == 401
    async with strict_client_factory("10.0.0.4") as fresh:
        locked = await sign_in(fresh, account["email"])  # a new device, even with the right password
    assert locked.status_code == 429
    assert locked.json()["messageErrorCode"] == "too_many_requests"
    assert 0 < int(locked.headers["Retry-After"]) <= 900


async def test_one_address_is_limited_across_accounts(strict_client_factory):
    async with strict_client_factory("10.0.1.1") as attacker:
        statuses = [(await sign_in(attacker, new_email())).status_code for _ in range(7)]
    assert statuses == [401] * 6 + [429]
    async with strict_client_factory("10.0.1.2") as neighbour:
        assert (await sign_in(neighbour, new_email())).status_code == 401


async def test_registration_profile_fields_follow_the_profile_rules(client, catalogue):
    account = await sign_up(
        client, city="  Harbor City ", identityItem=catalogue["npd"], clubList=[f"team|{catalogue['mariners']}"]
    )
    profile = account["profile"]
    assert (profile["city"], profile["identityItem"], profile["clubList"]) == (
        "Harbor City",
        catalogue["npd"],
        [f"team|{catalogue['mariners']}"],
    )


async def test_registering_with_an_unknown_league_creates_no_account(client):
    email = new_email()
    answer = await client.post(
        "/api/user/register",
        json={
            "email": email,
            "password": PASSWORD,
            "displayName": "Fan",
            "device_id": "d",
            "device_name": "d",
            "identityItem": "ffffffffffffffffffffffff",
        },
    )
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "identity_not_found"
    assert (await sign_in(client, email)).status_code == 401
