"""Issue 26 §13, §4 and §9 for the audit log: role changes and new keys say what they set, an
account's sessions read by staff is recorded, refused anonymous calls are counted per source and
minute instead of a row each, and a request's control characters never reach an entry."""

import asyncio
import re
from datetime import timedelta

import pytest
import pytest_asyncio

from server import clock
from server.tests.mailbox import client_at, new_client_address

from .test_roles_keys_audit import staff_account

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOBODY = "f" * 24
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def admin(client, database):
    return await staff_account(client, database, "admin")


def at_the_start_of_a_minute() -> None:
    """Move the server's clock to a second past the next minute: a test's calls share a minute."""
    now = clock.now()
    clock.advance(now.replace(second=1, microsecond=0) + timedelta(minutes=1) - now)


async def audit(client, admin, **params) -> list[dict]:
    answer = await client.get("/api/admin/audit", params={"size": 100, **params}, headers=admin["headers"])
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["entries"]


async def test_a_role_change_records_the_old_and_the_new_role(client, database, admin):
    viewer = await staff_account(client, database, "viewer")
    answer = await client.post(
        f"/api/admin/users/{viewer['userId']}/role", json={"role": "support"}, headers=admin["headers"]
    )
    assert answer.status_code == 200, answer.text
    [entry] = await audit(client, admin, action="set_user_role", target=viewer["userId"])
    assert entry["detail"] == {"oldRole": "viewer", "newRole": "support"}


async def test_a_new_key_records_its_role_and_name(client, admin):
    answer = await client.post(
        "/api/admin/keys", json={"name": "nightly report", "role": "support"}, headers=admin["headers"]
    )
    assert answer.status_code == 200, answer.text
    key_id = answer.json()["content"]["key"]["_id"]
    [entry] = await audit(client, admin, action="create_api_key", target=key_id)
    assert entry["detail"] == {"role": "support", "name": "nightly report"}


async def test_staff_reading_an_accounts_sessions_is_recorded(client, database, admin):
    viewer = await staff_account(client, database, "viewer")
    answer = await client.get(f"/api/admin/users/{viewer['userId']}/sessions", headers=admin["headers"])
    assert answer.status_code == 200, answer.text
    [entry] = await audit(client, admin, action="list_user_sessions", target=viewer["userId"])
    assert (entry["actorId"], entry["method"], entry["status"], entry["count"]) == (admin["userId"], "GET", 200, 1)


async def test_refused_anonymous_calls_from_one_source_in_a_minute_are_one_entry_with_their_count(
    api, database, settings, client, admin
):
    at_the_start_of_a_minute()
    address = new_client_address()
    async with client_at(api, database, settings, address) as anonymous:
        for _ in range(5):  # 20 at a time: the entry's count is kept by concurrent callers too
            answers = await asyncio.gather(
                *(anonymous.post(f"/api/admin/access_codes/{NOBODY}/revoke") for _ in range(20))
            )
            assert {a.status_code for a in answers} == {401}
    entries = await audit(client, admin, action="revoke_access_code", target=NOBODY)
    [entry] = [e for e in entries if e["clientAddress"] == address]
    assert (entry["actorType"], entry["status"], entry["count"]) == ("anonymous", 401, 100)


async def test_the_next_minute_starts_a_new_entry(api, database, settings, client, admin):
    at_the_start_of_a_minute()
    address = new_client_address()
    async with client_at(api, database, settings, address) as anonymous:
        await anonymous.post(f"/api/admin/access_codes/{NOBODY}/revoke")
        clock.advance(timedelta(minutes=1))
        await anonymous.post(f"/api/admin/access_codes/{NOBODY}/revoke")
        await anonymous.post(f"/api/admin/access_codes/{NOBODY}/revoke")
    entries = await audit(client, admin, action="revoke_access_code", target=NOBODY)
    assert sorted(e["count"] for e in entries if e["clientAddress"] == address) == [1, 2]


async def test_signed_in_staff_calls_are_never_counted_together(client, admin):
    for _ in range(2):
        await client.post(f"/api/admin/access_codes/{NOBODY}/revoke", headers=admin["headers"])
    entries = await audit(client, admin, action="revoke_access_code", actor=admin["userId"])
    assert [e["count"] for e in entries] == [1, 1]


async def test_control_characters_in_a_path_never_reach_an_entry(api, database, settings, client, admin):
    # From an address of its own: refused anonymous calls of one address and minute share an
    # entry (the first one's path), and other tests call this operation anonymously too.
    address = new_client_address()
    async with client_at(api, database, settings, address) as anonymous:
        answer = await anonymous.post("/api/admin/access_codes/%1b%5b2J%00%7f%c2%9b/revoke")
    assert answer.status_code in (400, 401, 404)
    entries = await audit(client, admin, action="revoke_access_code")
    [entry] = [e for e in entries if e["clientAddress"] == address]
    assert entry["path"].startswith("/api/admin/access_codes/%1B")
    assert entry["path"] == "/api/admin/access_codes/%1B%5B2J%00%7F%C2%9B/revoke"
    assert not any(CONTROL.search(str(value)) for value in entry.values())
