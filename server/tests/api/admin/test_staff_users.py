"""Accounts for support staff (/admin/users...): find accounts, look at one, its sessions and
devices, end a session, remove a device."""

import uuid
from datetime import datetime, timedelta

import pytest
import pytest_asyncio
from sqlalchemy import update

from server import clock
from server.models import AuthSession, FederatedIdentity, new_id
from server.tests.accounts import bearer, new_device, new_email, refresh, sign_in, sign_up
from server.tests.mailbox import recording_socket, staff_headers

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOBODY = "f" * 24


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


def tag() -> str:
    """A word no other test uses, to find only this test's accounts."""
    return f"zq{uuid.uuid4().hex[:10]}"


def when(text: str) -> datetime:
    return datetime.fromisoformat(text)


def user_id(account: dict) -> str:
    return account["profile"]["userId"]


async def find(client, staff, q: str, **params) -> list[dict]:
    answer = await client.get("/api/admin/users", params={"q": q, **params}, headers=staff)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["entries"]


async def sessions_of(client, staff, account: dict, **params) -> list[dict]:
    answer = await client.get(f"/api/admin/users/{user_id(account)}/sessions", params=params, headers=staff)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["entries"]


async def devices_of(client, staff, account: dict) -> list[dict]:
    answer = await client.get(f"/api/admin/users/{user_id(account)}/devices", headers=staff)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["devices"]


def session_on(sessions: list[dict], device_id: str) -> dict:
    [found] = [s for s in sessions if s["deviceId"] == device_id]
    return found


def device_on(devices: list[dict], device_id: str) -> dict:
    [found] = [d for d in devices if d["deviceId"] == device_id]
    return found


async def set_session(database, session_id: str, **values) -> None:
    async with database.session() as db:
        await db.execute(update(AuthSession).where(AuthSession.id == session_id).values(**values))
        await db.commit()


def signed_out(socket, account: dict) -> list[str]:
    room = f"user:{user_id(account)}"
    return [data["deviceId"] for name, data, to in socket.sent if name == "remove-user-device" and to == room]


# --- who may ask ---------------------------------------------------------------------------------

REQUESTS = [
    ("GET", "/api/admin/users?q=fan"),
    ("GET", f"/api/admin/users/{NOBODY}"),
    ("GET", f"/api/admin/users/{NOBODY}/sessions"),
    ("POST", f"/api/admin/users/{NOBODY}/sessions/{NOBODY}/revoke"),
    ("GET", f"/api/admin/users/{NOBODY}/devices"),
    ("POST", f"/api/admin/users/{NOBODY}/devices/{NOBODY}/revoke"),
]
REQUEST_IDS = ["find", "get", "sessions", "revoke-session", "devices", "revoke-device"]


@pytest.mark.parametrize(("method", "path"), REQUESTS, ids=REQUEST_IDS)
async def test_viewers_are_refused_with_403(client, method, path):
    viewer = await sign_up(client)
    answer = await client.request(method, path, headers=viewer["headers"])
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


@pytest.mark.parametrize(("method", "path"), REQUESTS, ids=REQUEST_IDS)
async def test_anonymous_callers_are_refused_with_401(client, method, path):
    answer = await client.request(method, path)
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


# --- finding accounts ----------------------------------------------------------------------------


async def test_staff_find_accounts_by_part_of_the_email_address_whatever_the_case(client, staff):
    word = tag()
    ada = await sign_up(client, email=f"ada.{word}@example.com", display_name="Ada Lovelace")
    await sign_up(client, email=f"grace.{word}@example.com", display_name="Grace Hopper")
    entries = await find(client, staff, f"ADA.{word.upper()}@")
    assert [e["userId"] for e in entries] == [user_id(ada)]
    assert entries[0]["email"] == ada["email"] and entries[0]["displayName"] == "Ada Lovelace"


async def test_staff_find_accounts_by_part_of_the_display_name(client, staff):
    word = tag()
    ada = await sign_up(client, display_name=f"Ada {word.upper()} Lovelace")
    await sign_up(client, display_name=f"Grace {word[:-1]} Hopper")  # one letter short: no match
    assert [e["userId"] for e in await find(client, staff, f"a {word}")] == [user_id(ada)]


async def test_a_whole_user_id_finds_that_account(client, staff):
    account = await sign_up(client)
    assert [e["userId"] for e in await find(client, staff, user_id(account))] == [user_id(account)]


async def test_the_best_match_comes_first(client, staff):
    word = tag()
    exact = await sign_up(client, email=f"{word}@example.com")
    prefix = await sign_up(client, email=f"{word}-fan@example.com")
    inside = await sign_up(client, email=f"the-{word}@example.com")  # the newest, but the weakest match
    assert [e["userId"] for e in await find(client, staff, word)] == [user_id(prefix), user_id(exact), user_id(inside)]
    entries = await find(client, staff, f"{word}@example.com")
    assert [e["userId"] for e in entries] == [user_id(exact), user_id(inside)]


async def test_wildcards_in_the_query_are_plain_characters(client, staff):
    word = tag()
    await sign_up(client, display_name=f"{word} Fan")
    assert await find(client, staff, f"{word}%") == []
    assert await find(client, staff, f"{word[:3]}_{word[4:]}") == []


async def test_the_role_filter_keeps_staff_or_viewers(client, staff, database, settings):
    word = tag()
    viewer = await sign_up(client, display_name=f"{word} viewer")
    colleague_headers = await staff_headers(client, database, settings)
    colleague = (await client.get("/api/user/get_profile", headers=colleague_headers)).json()["content"]
    await client.post(
        "/api/user/update_profile", json={"data": {"displayName": f"{word} staff"}}, headers=colleague_headers
    )
    assert [e["userId"] for e in await find(client, staff, word, role="admin")] == [colleague["userId"]]
    assert [e["userId"] for e in await find(client, staff, word, role="viewer")] == [user_id(viewer)]


async def test_results_come_in_pages(client, staff):
    word = tag()
    accounts = [await sign_up(client, display_name=f"{word} {n}") for n in range(3)]
    first = await client.get("/api/admin/users", params={"q": word, "size": 2}, headers=staff)
    second = await client.get("/api/admin/users", params={"q": word, "size": 2, "page": 1}, headers=staff)
    first, second = first.json()["content"], second.json()["content"]
    assert (first["entryCount"], first["itemsPerPage"], first["startIndex"]) == (2, 2, 0)
    assert (second["entryCount"], second["startIndex"]) == (1, 2)
    found = [e["userId"] for e in first["entries"] + second["entries"]]
    assert sorted(found) == sorted(user_id(a) for a in accounts)


async def test_an_account_shows_how_it_signs_in_its_devices_live_sessions_and_last_sign_in(client, staff, database):
    word = tag()
    account = await sign_up(client, display_name=f"{word} Fan")
    await sign_in(client, account["email"])
    third = await sign_in(client, account["email"])
    await client.post("/api/user/logout", headers=bearer(third.json()["content"]["tokenData"]["access_token"]))
    async with database.session() as db:
        db.add(
            FederatedIdentity(
                id=new_id(), user_id=user_id(account), provider="google", subject=f"g-{word}", email=account["email"]
            )
        )
        await db.commit()
    [entry] = await find(client, staff, word)
    assert entry["providers"] == ["credentials", "google"]
    assert (entry["deviceCount"], entry["activeSessionCount"]) == (3, 2)
    assert entry["role"] == "viewer" and entry["deleted"] is False
    assert when(entry["lastSignIn"]) >= when(entry["added"])


async def test_an_expired_session_is_not_counted_as_active(client, staff, database):
    word = tag()
    account = await sign_up(client, display_name=f"{word} Fan")
    [session] = await sessions_of(client, staff, account)
    await set_session(database, session["_id"], expires_at=clock.now() - timedelta(seconds=1))
    [entry] = await find(client, staff, word)
    assert (entry["deviceCount"], entry["activeSessionCount"]) == (1, 0)


async def test_deleted_accounts_are_found_and_marked_deleted(client, staff):
    account = await sign_up(client)
    assert (await client.post("/api/user/delete_account", headers=account["headers"])).status_code == 200
    [entry] = await find(client, staff, user_id(account))
    assert entry["deleted"] is True and entry["email"] is None
    assert (entry["providers"], entry["deviceCount"], entry["activeSessionCount"]) == ([], 0, 0)
    live = await find(client, staff, account["email"])
    assert live == []  # the address was erased with the account


# --- one account ---------------------------------------------------------------------------------


async def test_staff_get_one_account_with_its_profile(client, staff):
    account = await sign_up(client, display_name="Ada Lovelace", city="London")
    answer = await client.get(f"/api/admin/users/{user_id(account)}", headers=staff)
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    assert content["user"]["userId"] == user_id(account) and content["user"]["providers"] == ["credentials"]
    assert (content["user"]["deviceCount"], content["user"]["activeSessionCount"]) == (1, 1)
    assert content["profile"]["email"] == account["email"] and content["profile"]["city"] == "London"


# --- sessions ------------------------------------------------------------------------------------


async def test_sessions_are_listed_most_recently_used_first_with_their_device(client, staff, database):
    account = await sign_up(client)
    later_device = new_device()
    await sign_in(client, account["email"], device_id=later_device)
    sessions = await sessions_of(client, staff, account)
    assert [s["deviceId"] for s in sessions] == [later_device, account["device_id"]]
    first = session_on(sessions, account["device_id"])
    assert first["userId"] == user_id(account) and first["provider"] == "credentials"
    assert first["deviceName"] == account["device_id"]  # the test client names the device by its id
    assert (first["revoked"], first["revokedAt"]) == (False, None)
    assert when(first["expiresAt"]) > when(first["lastUsed"]) >= when(first["added"])
    # The first session is used again: it moves to the top.
    await set_session(database, first["_id"], last_used=clock.now() + timedelta(minutes=5))
    assert [s["deviceId"] for s in await sessions_of(client, staff, account)] == [account["device_id"], later_device]


async def test_ended_sessions_are_listed_only_when_active_is_false(client, staff, database):
    account = await sign_up(client)
    expiring = new_device()
    await sign_in(client, account["email"], device_id=expiring)
    leaving = (await sign_in(client, account["email"])).json()["content"]
    await client.post("/api/user/logout", headers=bearer(leaving["tokenData"]["access_token"]))
    expiring_session = session_on(await sessions_of(client, staff, account), expiring)
    await set_session(database, expiring_session["_id"], expires_at=clock.now() - timedelta(seconds=1))
    assert [s["deviceId"] for s in await sessions_of(client, staff, account)] == [account["device_id"]]
    everything = await sessions_of(client, staff, account, active="false")
    assert len(everything) == 3
    logged_out = [s for s in everything if s["revoked"]]
    assert len(logged_out) == 1 and logged_out[0]["revokedAt"] is not None


async def test_a_revoked_sessions_tokens_stop_working_and_its_device_is_told(client, staff):
    account = await sign_up(client)
    other = (await sign_in(client, account["email"])).json()["content"]
    session = session_on(await sessions_of(client, staff, account), account["device_id"])
    with recording_socket() as socket:
        answer = await client.post(
            f"/api/admin/users/{user_id(account)}/sessions/{session['_id']}/revoke", headers=staff
        )
    assert answer.status_code == 200, answer.text
    revoked = answer.json()["content"]
    assert revoked["_id"] == session["_id"] and revoked["revoked"] is True and revoked["revokedAt"] is not None
    assert signed_out(socket, account) == [account["device_id"]]
    assert (await client.get("/api/user/get_devices", headers=account["headers"])).status_code == 401
    refused = await refresh(client, account["tokenData"]["refresh_token"])
    assert refused.status_code == 401 and refused.json()["messageErrorCode"] == "refresh_token_failed"
    # The account's other session goes on, and the device stays registered.
    still = await client.get("/api/user/get_devices", headers=bearer(other["tokenData"]["access_token"]))
    assert still.status_code == 200
    assert account["device_id"] in [d["deviceId"] for d in still.json()["content"]["devices"]]


async def test_revoking_a_session_twice_is_harmless(client, staff):
    account = await sign_up(client)
    [session] = await sessions_of(client, staff, account)
    path = f"/api/admin/users/{user_id(account)}/sessions/{session['_id']}/revoke"
    first = (await client.post(path, headers=staff)).json()["content"]
    with recording_socket() as socket:
        again = await client.post(path, headers=staff)
    assert again.status_code == 200 and again.json()["content"] == first
    assert signed_out(socket, account) == []  # nothing ended this time: nobody to tell


async def test_a_session_of_another_account_is_not_found(client, staff):
    owner, stranger = await sign_up(client), await sign_up(client)
    [session] = await sessions_of(client, staff, owner)
    answer = await client.post(f"/api/admin/users/{user_id(stranger)}/sessions/{session['_id']}/revoke", headers=staff)
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "session_not_found"
    assert (await client.get("/api/user/get_devices", headers=owner["headers"])).status_code == 200


# --- devices -------------------------------------------------------------------------------------


async def test_staff_list_an_accounts_devices_with_the_limit(client, staff, settings):
    account = await sign_up(client)
    other = new_device()
    await sign_in(client, account["email"], device_id=other)
    answer = await client.get(f"/api/admin/users/{user_id(account)}/devices", headers=staff)
    content = answer.json()["content"]
    assert content["limit"] == settings.device_limit
    assert [d["deviceId"] for d in content["devices"]] == [other, account["device_id"]]  # last used first
    assert content["devices"][0]["deviceName"] == other


async def test_revoking_a_device_removes_it_ends_its_sessions_and_tells_it(client, staff, settings):
    account = await sign_up(client)
    other = new_device()
    await sign_in(client, account["email"], device_id=other)
    device = device_on(await devices_of(client, staff, account), account["device_id"])
    with recording_socket() as socket:
        answer = await client.post(f"/api/admin/users/{user_id(account)}/devices/{device['_id']}/revoke", headers=staff)
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    assert [d["deviceId"] for d in content["devices"]] == [other]
    assert content["limit"] == settings.device_limit
    assert signed_out(socket, account) == [account["device_id"]]
    assert (await client.get("/api/user/get_devices", headers=account["headers"])).status_code == 401
    refused = await refresh(client, account["tokenData"]["refresh_token"])
    assert refused.status_code == 401 and refused.json()["messageErrorCode"] == "refresh_token_failed"
    assert [s["deviceId"] for s in await sessions_of(client, staff, account, active="false")] == [other]


async def test_a_device_of_another_account_is_not_found(client, staff):
    owner, stranger = await sign_up(client), await sign_up(client)
    [device] = await devices_of(client, staff, owner)
    answer = await client.post(f"/api/admin/users/{user_id(stranger)}/devices/{device['_id']}/revoke", headers=staff)
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "device_not_found"
    assert len(await devices_of(client, staff, owner)) == 1


async def test_a_device_is_named_by_its_id_not_by_its_device_string(client, staff):
    looks_like_an_id = uuid.uuid4().hex[:24]  # an app's device id can have the form of an id
    account = await sign_up(client, device_id=looks_like_an_id)
    answer = await client.post(f"/api/admin/users/{user_id(account)}/devices/{looks_like_an_id}/revoke", headers=staff)
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "device_not_found"
    assert [d["deviceId"] for d in await devices_of(client, staff, account)] == [looks_like_an_id]


# --- unknown ids ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path"), REQUESTS[1:], ids=REQUEST_IDS[1:])
async def test_an_unknown_account_is_not_found(client, staff, method, path):
    answer = await client.request(method, path, headers=staff)
    assert answer.status_code == 404
    assert answer.json() == {"error": True, "message": "User not found", "messageErrorCode": "user_not_found"}


async def test_an_unknown_session_is_not_found(client, staff):
    account = await sign_up(client)
    answer = await client.post(f"/api/admin/users/{user_id(account)}/sessions/{NOBODY}/revoke", headers=staff)
    assert answer.status_code == 404
    assert answer.json() == {"error": True, "message": "Session not found", "messageErrorCode": "session_not_found"}


async def test_an_unknown_device_is_not_found(client, staff):
    account = await sign_up(client)
    answer = await client.post(f"/api/admin/users/{user_id(account)}/devices/{NOBODY}/revoke", headers=staff)
    assert answer.status_code == 404
    assert answer.json() == {"error": True, "message": "Device not found", "messageErrorCode": "device_not_found"}


async def test_a_malformed_id_is_refused(client, staff):
    answer = await client.get("/api/admin/users/not-an-id", headers=staff)
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"


async def test_an_unused_email_finds_nobody(client, staff):
    assert await find(client, staff, new_email()) == []
