"""Staff roles, API keys and the audit log: who may call which admin operation (from the
contract's `x-touchline-role`), keys made, used, revoked and expired, and every admin write
recorded with its actor."""

import hashlib
import re
from datetime import timedelta

import pytest
import pytest_asyncio
from sqlalchemy import select

from server import clock
from server.api.http.contract_document import document
from server.models import ApiKey
from server.tests.accounts import create_user, sign_in, sign_up

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOBODY = "f" * 24
SPEC = document()


def admin_operations() -> list[tuple[str, str, dict]]:
    return [
        (method.upper(), path, operation)
        for path, item in SPEC["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and (operation.get("tags") or [None])[0] == "admin"
    ]


WRITES = [(m, p, op) for m, p, op in admin_operations() if m not in ("GET", "HEAD")]


async def staff_account(client, database, role: str) -> dict:
    email = await create_user(database, role=role)
    answer = await sign_in(client, email)
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    return {
        "email": email,
        "userId": content["profile"]["userId"],
        "headers": {"Authorization": f"Bearer {content['tokenData']['access_token']}"},
    }


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def admin(client, database):
    return await staff_account(client, database, "admin")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def support(client, database):
    return await staff_account(client, database, "support")


async def make_key(client, admin, role: str, **extra) -> dict:
    answer = await client.post(
        "/api/admin/keys", json={"name": f"test {role}", "role": role, **extra}, headers=admin["headers"]
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


def with_key(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


async def audit(client, headers, **params) -> list[dict]:
    answer = await client.get("/api/admin/audit", params={"size": 100, **params}, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["entries"]


# --- the contract states every admin operation's role ------------------------------------------


async def test_every_admin_operation_states_its_role_in_the_contract():
    for method, path, operation in admin_operations():
        assert operation.get("x-touchline-role") in ("support", "admin"), f"{method} {path}"
        assert f"`{operation['x-touchline-role']}` role" in operation["description"], f"{method} {path}"
        assert {"apiKeyAuth": []} in operation["security"], f"{method} {path}"


# --- roles ---------------------------------------------------------------------------------------


async def test_a_support_session_may_revoke_a_device(client, support):
    viewer = await sign_up(client)
    devices = await client.get(f"/api/admin/users/{viewer['profile']['userId']}/devices", headers=support["headers"])
    assert devices.status_code == 200, devices.text
    [device] = devices.json()["content"]["devices"]
    answer = await client.post(
        f"/api/admin/users/{viewer['profile']['userId']}/devices/{device['_id']}/revoke", headers=support["headers"]
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["content"]["devices"] == []


async def test_a_support_session_cannot_issue_codes(client, support):
    answer = await client.post(
        "/api/admin/access_codes", json={"product_id": NOBODY, "count": 1}, headers=support["headers"]
    )
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


async def test_a_support_key_cannot_issue_codes(client, admin):
    key = await make_key(client, admin, "support")
    answer = await client.post(
        "/api/admin/access_codes", json={"product_id": NOBODY, "count": 1}, headers=with_key(key["secret"])
    )
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"
    # ...but reads what support may read.
    assert (
        await client.get("/api/admin/users", params={"q": "fan"}, headers=with_key(key["secret"]))
    ).status_code == 200


async def test_an_admin_key_is_taken_in_the_x_api_key_header_too(client, admin):
    key = await make_key(client, admin, "admin")
    answer = await client.post(
        "/api/admin/access_codes", json={"product_id": NOBODY, "count": 1}, headers={"X-API-Key": key["secret"]}
    )
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "product_not_found"


async def test_a_viewer_is_refused_with_forbidden_role(client):
    viewer = await sign_up(client)
    answer = await client.get("/api/admin/monitor", headers=viewer["headers"])
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


async def test_support_cannot_manage_keys(client, support):
    answer = await client.post("/api/admin/keys", json={"name": "mine", "role": "admin"}, headers=support["headers"])
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


# --- keys ----------------------------------------------------------------------------------------


async def test_keys_are_stored_hashed_and_listed_without_their_secret(client, admin, database):
    key = await make_key(client, admin, "support")
    secret = key["secret"]
    assert re.fullmatch(r"tlk_[A-Za-z0-9_-]{43}", secret)
    assert secret.startswith(key["key"]["prefix"]) and len(key["key"]["prefix"]) == 12
    async with database.session() as db:
        row = (await db.execute(select(ApiKey).where(ApiKey.id == key["key"]["_id"]))).scalar_one()
    assert row.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {str(v) for v in vars(row).values()}
    listed = await client.get("/api/admin/keys", params={"size": 100}, headers=admin["headers"])
    assert listed.status_code == 200
    [entry] = [e for e in listed.json()["content"]["entries"] if e["_id"] == key["key"]["_id"]]
    assert secret not in str(listed.json())
    assert (entry["role"], entry["status"], entry["createdBy"], entry["createdByEmail"]) == (
        "support",
        "active",
        admin["userId"],
        admin["email"],
    )


async def test_last_use_is_recorded(client, admin):
    key = await make_key(client, admin, "support")
    assert key["key"]["lastUsed"] is None
    assert (await client.get("/api/admin/users", params={"q": "x"}, headers=with_key(key["secret"]))).status_code == 200
    listed = (await client.get("/api/admin/keys", params={"size": 100}, headers=admin["headers"])).json()["content"]
    [entry] = [e for e in listed["entries"] if e["_id"] == key["key"]["_id"]]
    assert entry["lastUsed"] is not None


async def test_a_revoked_key_is_refused_at_once(client, admin):
    key = await make_key(client, admin, "admin")
    assert (await client.get("/api/admin/keys", headers=with_key(key["secret"]))).status_code == 200
    revoked = await client.post(f"/api/admin/keys/{key['key']['_id']}/revoke", headers=admin["headers"])
    assert revoked.status_code == 200 and revoked.json()["content"]["status"] == "revoked"
    answer = await client.get("/api/admin/keys", headers=with_key(key["secret"]))
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "api_key_revoked"
    listed = (await client.get("/api/admin/keys", params={"size": 100}, headers=admin["headers"])).json()["content"]
    assert key["key"]["_id"] not in [e["_id"] for e in listed["entries"]]
    listed = (
        await client.get("/api/admin/keys", params={"size": 100, "revoked": True}, headers=admin["headers"])
    ).json()
    assert key["key"]["_id"] in [e["_id"] for e in listed["content"]["entries"]]


async def test_an_expired_key_is_refused(client, admin):
    expires = (clock.now() + timedelta(minutes=5)).isoformat().replace("+00:00", "Z")
    key = await make_key(client, admin, "admin", expires_at=expires)
    assert (await client.get("/api/admin/keys", headers=with_key(key["secret"]))).status_code == 200
    clock.advance(timedelta(minutes=6))
    answer = await client.get("/api/admin/keys", headers=with_key(key["secret"]))
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "api_key_expired"


async def test_an_unknown_key_is_refused(client):
    answer = await client.get("/api/admin/keys", headers={"X-API-Key": "tlk_" + "A" * 43})
    assert answer.status_code == 401


async def test_a_key_made_with_a_past_expiry_is_expired_from_the_start(client, admin):
    key = await make_key(client, admin, "support", expires_at="2000-01-01T00:00:00Z")
    assert key["key"]["status"] == "expired"
    answer = await client.get("/api/admin/users", params={"q": "x"}, headers=with_key(key["secret"]))
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "api_key_expired"


async def test_revoking_an_unknown_key_is_a_404(client, admin):
    answer = await client.post(f"/api/admin/keys/{NOBODY}/revoke", headers=admin["headers"])
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "api_key_not_found"


# --- the audit log -------------------------------------------------------------------------------


def _request_for(path: str, operation: dict) -> tuple[str, dict]:
    """A request the operation's validation lets through (its example body and required headers;
    unknown ids), as httpx's `request` keywords besides the method."""
    body = None
    content = (operation.get("requestBody") or {}).get("content", {})
    if "application/json" in content:
        body = dict(content["application/json"].get("example") or {})
    if operation["operationId"] == "run_renewals":
        body = {"dry_run": True}
    if operation["operationId"] == "create_api_key":
        body = {"name": "audited", "role": "support"}
    headers = {
        parameter["name"]: str(parameter["example"])
        for parameter in map(_parameter, operation.get("parameters", []))
        if parameter["in"] == "header" and parameter.get("required")
    }
    request: dict = {"headers": headers}
    if body is not None:
        request["json"] = body
    elif content:  # a body of another type (a tus upload's bytes)
        media_type = next(iter(content))
        request["content"], request["headers"] = b"x", {**headers, "Content-Type": media_type}
    return re.sub(r"\{[a-z_]+\}", NOBODY, path), request


def _parameter(parameter: dict) -> dict:
    if "$ref" in parameter:
        return SPEC["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
    return parameter


@pytest.mark.parametrize(("method", "path", "operation"), WRITES, ids=[op["operationId"] for _, _, op in WRITES])
async def test_every_admin_write_is_in_the_audit_log_with_its_actor(client, admin, method, path, operation):
    url, request = _request_for(path, operation)
    answer = await client.request(
        method, f"/api{url}", **{**request, "headers": {**request["headers"], **admin["headers"]}}
    )
    entries = await audit(client, admin["headers"], action=operation["operationId"], actor=admin["userId"])
    assert entries, f"{operation['operationId']} answered {answer.status_code} and left no audit entry"
    entry = entries[0]
    assert (entry["actorType"], entry["actorId"], entry["actor"]) == ("user", admin["userId"], admin["email"])
    assert (entry["method"], entry["path"], entry["status"]) == (method, f"/api{url}", answer.status_code)
    assert entry["clientAddress"]


async def test_a_key_is_the_actor_of_what_it_does_and_refusals_are_recorded(client, admin):
    key = await make_key(client, admin, "support")
    refused = await client.post(
        "/api/admin/access_codes", json={"product_id": NOBODY, "count": 1}, headers=with_key(key["secret"])
    )
    assert refused.status_code == 403
    [entry] = await audit(client, admin["headers"], actor=key["key"]["_id"])
    assert (entry["actorType"], entry["action"], entry["status"]) == ("key", "issue_access_codes", 403)
    assert entry["actor"] == f"test support ({key['key']['prefix']}…)"


async def test_an_anonymous_write_is_recorded_as_refused(client, admin):
    answer = await client.post(f"/api/admin/access_codes/{NOBODY}/revoke")
    assert answer.status_code == 401
    entries = await audit(client, admin["headers"], action="revoke_access_code", target=NOBODY)
    assert any(e["actorType"] == "anonymous" and e["status"] == 401 for e in entries)


async def test_reads_are_not_recorded_and_the_log_filters_by_target_and_time(client, admin):
    since = clock.now().isoformat().replace("+00:00", "Z")
    await client.get("/api/admin/users", params={"q": "nobody"}, headers=admin["headers"])
    revoked = await client.post(f"/api/admin/users/{NOBODY}/devices/{'e' * 24}/revoke", headers=admin["headers"])
    assert revoked.status_code == 404
    entries = await audit(client, admin["headers"], since=since, actor=admin["email"])
    assert [e["action"] for e in entries] == ["revoke_device"]
    assert entries[0]["target"] == f"{NOBODY}/{'e' * 24}"
    assert await audit(client, admin["headers"], until="2000-01-01T00:00:00Z") == []
    page = await client.get("/api/admin/audit", params={"size": 1, "page": 0}, headers=admin["headers"])
    assert page.json()["content"]["entryCount"] == 1


async def test_the_audit_log_cannot_be_written_through_the_api(client, admin):
    answer = await client.post("/api/admin/audit", json={}, headers=admin["headers"])
    assert answer.status_code == 405


# --- the monitoring snapshot ---------------------------------------------------------------------


async def test_support_reads_the_monitoring_snapshot(client, support):
    answer = await client.get("/api/admin/monitor", params={"limit": 3}, headers=support["headers"])
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    assert content["health"]["database"] == "ok"
    assert content["sockets"]["scope"] == "process"
    assert {j["name"] for j in content["jobs"]} == {
        "settlement",
        "renewals",
        "payment-cleanup",
        "kickoff",
        "notices",
        "live-alerts",
        "analytics-retention",
        "outbox-audit-retention",
        "media-sweep",
        "qoe-alerts",
        "outage-credit",
    }
    assert len(content["signIns"]) <= 3 and content["signIns"]


# --- roles are managed by admins -----------------------------------------------------------------


async def test_an_admin_gives_a_viewer_the_support_role_and_it_takes_effect_at_once(client, admin):
    viewer = await sign_up(client)
    assert (await client.get("/api/admin/users", params={"q": "x"}, headers=viewer["headers"])).status_code == 403
    answer = await client.post(
        f"/api/admin/users/{viewer['profile']['userId']}/role", json={"role": "support"}, headers=admin["headers"]
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["content"]["user"]["role"] == "support"
    # The same token: roles are read from the account on every request.
    assert (await client.get("/api/admin/users", params={"q": "x"}, headers=viewer["headers"])).status_code == 200


async def test_staff_cannot_change_their_own_role(client, admin):
    answer = await client.post(
        f"/api/admin/users/{admin['userId']}/role", json={"role": "viewer"}, headers=admin["headers"]
    )
    assert answer.status_code == 409 and answer.json()["messageErrorCode"] == "own_role"


async def test_support_cannot_change_roles(client, support):
    viewer = await sign_up(client)
    answer = await client.post(
        f"/api/admin/users/{viewer['profile']['userId']}/role", json={"role": "admin"}, headers=support["headers"]
    )
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"
