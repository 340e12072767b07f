"""Failed sign-ins hold back the client that fails, not the account (issue 26 §7).

Each client is its own httpx client with its own address (the connection's address is the
client address: no proxy is trusted in these settings)."""

import httpx
import pytest
from sqlalchemy import update

from server import clock
from server.app import create_api
from server.models import User
from server.tests.accounts import create_user, new_device, new_email, sign_in
from server.tests.conftest import with_state

WRONG = "wrong password!"


@pytest.fixture(scope="module")
def limited_settings(settings):
    return settings.model_copy(
        update={
            "login_attempts_per_address": 1_000,  # every attempt per address: tested in test_signin.py
            "login_failures_per_client": 3,
            "login_client_failure_window": 900,
            "login_failures_per_address": 5,
            "login_address_failure_window": 3600,
            "login_failures_per_account": 6,
            "login_failure_window": 900,
        }
    )


@pytest.fixture(scope="module")
def client_at(limited_settings, database):
    api = create_api(limited_settings)

    def make(address: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(
            app=with_state(api, {"database": database, "settings": limited_settings}), client=(address, 40000)
        )
        return httpx.AsyncClient(transport=transport, base_url="http://touchline.test")

    return make


async def _account_with_device(client_at, database, address: str, *, role: str = "viewer") -> tuple[str, str]:
    """An account that has signed in once from `address`: (its e-mail address, its device id)."""
    email, device = await create_user(database, role=role), new_device()
    async with database.session() as db:  # a verified address (sign-in needs one)
        await db.execute(update(User).where(User.email == email).values(email_verified_at=clock.now()))
        await db.commit()
    async with client_at(address) as owner:
        assert (await sign_in(owner, email, device_id=device)).status_code == 200
    return email, device


async def _fail(client_at, address: str, email: str, *, device_id: str | None = None, times: int = 1) -> list[int]:
    async with client_at(address) as attacker:
        return [(await sign_in(attacker, email, password=WRONG, device_id=device_id)).status_code for _ in range(times)]


async def test_a_client_that_keeps_failing_is_refused_with_retry_after(client_at, database):
    email, _ = await _account_with_device(client_at, database, "10.7.0.1")
    assert await _fail(client_at, "10.7.0.2", email, times=3) == [401] * 3
    async with client_at("10.7.0.2") as attacker:
        refused = await sign_in(attacker, email)  # even the right password, from this client
    assert refused.status_code == 429
    assert refused.json()["error"] is True
    assert refused.json()["messageErrorCode"] == "too_many_requests"
    assert 0 < int(refused.headers["Retry-After"]) <= 900


async def test_the_owner_signs_in_from_another_address_while_the_attacker_waits(client_at, database):
    email, _ = await _account_with_device(client_at, database, "10.7.1.1")
    assert await _fail(client_at, "10.7.1.2", email, times=4) == [401] * 3 + [429]
    async with client_at("10.7.1.3") as owner:
        assert (await sign_in(owner, email, device_id=new_device())).status_code == 200


async def test_a_success_clears_the_clients_failures_on_that_account(client_at, database):
    email, device = await _account_with_device(client_at, database, "10.7.2.1")
    assert await _fail(client_at, "10.7.2.1", email, times=2) == [401, 401]
    async with client_at("10.7.2.1") as owner:
        assert (await sign_in(owner, email, device_id=device)).status_code == 200
    assert await _fail(client_at, "10.7.2.1", email, times=3) == [401] * 3


async def test_an_address_spraying_many_accounts_is_refused_and_its_neighbours_are_not(client_at, database):
    statuses = [(await _fail(client_at, "10.7.3.1", new_email()))[0] for _ in range(6)]
    assert statuses == [401] * 5 + [429]
    assert await _fail(client_at, "10.7.3.2", new_email()) == [401]


async def test_a_spread_out_attack_stops_unknown_devices_but_not_known_ones(client_at, database):
    email, device = await _account_with_device(client_at, database, "10.7.4.1")
    for n in range(6):  # fewer failures per address than any one client's budget
        assert await _fail(client_at, f"10.7.5.{n}", email) == [401]
    async with client_at("10.7.4.9") as newcomer:
        slowed = await sign_in(newcomer, email, device_id=new_device())
    assert slowed.status_code == 429
    assert slowed.json()["messageErrorCode"] == "too_many_requests"
    assert "device you used before" in slowed.json()["message"]
    assert 0 < int(slowed.headers["Retry-After"]) <= 900
    async with client_at("10.7.4.9") as owner:
        assert (await sign_in(owner, email, device_id=device)).status_code == 200


async def test_guesses_claiming_a_known_device_have_a_budget_of_their_own(client_at, database):
    email, device = await _account_with_device(client_at, database, "10.7.6.1")
    for n in range(6):  # a guesser who copied the owner's device id (a browser's user agent)
        assert await _fail(client_at, f"10.7.7.{n}", email, device_id=device) == [401]
    async with client_at("10.7.6.1") as owner:
        assert (await sign_in(owner, email, device_id=device)).status_code == 429
        assert (await sign_in(owner, email, device_id=new_device())).status_code == 200


async def test_a_staff_account_cannot_be_locked_by_others(client_at, database):
    email, device = await _account_with_device(client_at, database, "10.7.8.1", role="admin")
    assert await _fail(client_at, "10.7.8.2", email, times=4) == [401] * 3 + [429]
    for n in range(6):
        await _fail(client_at, f"10.7.9.{n}", email)
    async with client_at("10.7.8.3") as staff:
        signed_in = await sign_in(staff, email, device_id=device)
    assert signed_in.status_code == 200
    assert signed_in.json()["content"]["profile"]["role"] in {"admin", "staff"}


async def test_a_password_reset_lets_new_devices_in_again(client_at, database, client):
    from server.tests.mailbox import request_reset

    email, _ = await _account_with_device(client_at, database, "10.7.10.1")
    for n in range(6):
        await _fail(client_at, f"10.7.11.{n}", email)
    async with client_at("10.7.10.2") as owner:
        assert (await sign_in(owner, email, device_id=new_device())).status_code == 429
        token = await request_reset(owner, database, email)
        new_password = "a brand new passphrase for the reset"
        reset = await owner.post("/api/user/password/reset", json={"token": token, "password": new_password})
        assert reset.status_code == 200, reset.text
        assert (await sign_in(owner, email, password=new_password, device_id=new_device())).status_code == 200
