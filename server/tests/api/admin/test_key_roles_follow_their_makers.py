"""An API key never acts above the account that made it, nor above the key that made it: its role
is capped by its makers' current roles on every use, and revoking a key revokes the keys it made
(issue 26 §6). On SQLite and PostgreSQL."""

import pytest
from sqlalchemy import update

from server import clock
from server.models import ApiKey
from server.tests.accounts import sign_up
from server.tests.api.admin.test_roles_keys_audit import make_key, staff_account, with_key

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def set_role(client, headers: dict, user_id: str, role: str):
    return await client.post(f"/api/admin/users/{user_id}/role", json={"role": role}, headers=headers)


async def test_a_demoted_admins_key_can_no_longer_make_an_admin_key_nor_promote_a_user(client, database):
    demoted, other_admin = (
        await staff_account(client, database, "admin"),
        await staff_account(client, database, "admin"),
    )
    key = await make_key(client, demoted, "admin")
    puppet = await sign_up(client)
    answer = await set_role(client, other_admin["headers"], demoted["userId"], "support")
    assert answer.status_code == 200, answer.text

    minted = await client.post(
        "/api/admin/keys", json={"name": "again", "role": "admin"}, headers=with_key(key["secret"])
    )
    promoted = await set_role(client, with_key(key["secret"]), puppet["profile"]["userId"], "admin")

    assert minted.status_code == 403 and minted.json()["messageErrorCode"] == "forbidden_role"
    assert promoted.status_code == 403 and promoted.json()["messageErrorCode"] == "forbidden_role"
    # ...while it still does what its account may do now.
    read = await client.get("/api/admin/users", params={"q": "fan"}, headers=with_key(key["secret"]))
    assert read.status_code == 200, read.text


async def test_the_key_of_a_maker_who_is_no_longer_staff_opens_nothing(client, database):
    maker, other_admin = await staff_account(client, database, "admin"), await staff_account(client, database, "admin")
    key = await make_key(client, maker, "support")
    assert (await set_role(client, other_admin["headers"], maker["userId"], "viewer")).status_code == 200

    answer = await client.get("/api/admin/users", params={"q": "fan"}, headers=with_key(key["secret"]))

    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


async def test_the_key_of_a_deleted_account_is_refused(client, database):
    maker = await staff_account(client, database, "admin")
    key = await make_key(client, maker, "admin")
    assert (await client.post("/api/user/delete_account", headers=maker["headers"])).status_code == 200

    answer = await client.get("/api/admin/users", params={"q": "fan"}, headers=with_key(key["secret"]))

    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "api_key_revoked"


async def test_the_keys_of_a_deleted_account_are_listed_without_their_maker(client, database):
    maker, admin = await staff_account(client, database, "admin"), await staff_account(client, database, "admin")
    key = await make_key(client, maker, "support")
    assert (await client.post("/api/user/delete_account", headers=maker["headers"])).status_code == 200

    listed = await client.get("/api/admin/keys", params={"size": 100}, headers=admin["headers"])

    assert listed.status_code == 200, listed.text
    [entry] = [k for k in listed.json()["content"]["entries"] if k["_id"] == key["key"]["_id"]]
    assert entry["createdBy"] is None


async def test_a_key_made_by_a_key_stops_working_when_that_key_is_revoked(client, database):
    admin = await staff_account(client, database, "admin")
    parent = await make_key(client, admin, "admin")
    child = await make_key(client, {"headers": with_key(parent["secret"])}, "admin")
    grandchild = await make_key(client, {"headers": with_key(child["secret"])}, "support")

    revoked = await client.post(f"/api/admin/keys/{parent['key']['_id']}/revoke", headers=admin["headers"])
    assert revoked.status_code == 200, revoked.text

    for made in (child, grandchild):
        answer = await client.get("/api/admin/users", params={"q": "fan"}, headers=with_key(made["secret"]))
        assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "api_key_revoked"
    listed = await client.get("/api/admin/keys", params={"revoked": "true", "size": 100}, headers=admin["headers"])
    status = {k["_id"]: k["status"] for k in listed.json()["content"]["entries"]}
    assert status[child["key"]["_id"]] == status[grandchild["key"]["_id"]] == "revoked"


async def test_a_key_made_by_a_key_is_checked_against_its_maker_on_every_use(client, database):
    """Without the cascade (a maker revoked by hand in the database), the use still looks up."""
    admin = await staff_account(client, database, "admin")
    parent = await make_key(client, admin, "admin")
    child = await make_key(client, {"headers": with_key(parent["secret"])}, "admin")
    async with database.session() as db:
        await db.execute(update(ApiKey).where(ApiKey.id == parent["key"]["_id"]).values(revoked_at=clock.now()))
        await db.commit()

    answer = await client.get("/api/admin/users", params={"q": "fan"}, headers=with_key(child["secret"]))

    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "api_key_revoked"


async def test_a_key_made_by_a_key_follows_the_demotion_of_their_account(client, database):
    maker, other_admin = await staff_account(client, database, "admin"), await staff_account(client, database, "admin")
    parent = await make_key(client, maker, "admin")
    child = await make_key(client, {"headers": with_key(parent["secret"])}, "admin")
    assert (await set_role(client, other_admin["headers"], maker["userId"], "support")).status_code == 200

    answer = await client.post(
        "/api/admin/keys", json={"name": "x", "role": "admin"}, headers=with_key(child["secret"])
    )

    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"
