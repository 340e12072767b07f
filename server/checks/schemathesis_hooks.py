"""Schemathesis hooks for `make contract` (loaded through SCHEMATHESIS_HOOKS).

Bearer tokens per operation: operations that end or change a session or an account get a
freshly registered account each time, so fuzzing them never signs out the demo accounts the
other operations use; `/admin/` operations use the demo staff account, the rest the demo viewer.
"""

import itertools
import json
import os
import urllib.request
from pathlib import Path

import schemathesis

# A tus upload's bytes (PATCH /admin/uploads/{id}) are bytes like any octet stream.
schemathesis.serializer.alias("application/offset+octet-stream", "application/octet-stream")

# Operations after which the caller's token (or account) no longer works as before.
SESSION_CHANGING = frozenset(
    {
        "logout_user",
        "end_other_sessions",
        "delete_account",
        "change_password",
        "delete_device",
    }
)

_fixtures = json.loads(Path(os.environ["TOUCHLINE_CONTRACT_FIXTURES"]).read_text())
_counter = itertools.count(1)


def _post(path: str, payload: dict) -> dict:
    request = urllib.request.Request(
        f"{_fixtures['base']}/api{path}",
        data=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _fresh_account_token() -> str:
    """A new account: signed up, then its confirmation link (from the server's mail drop) opened."""
    from server.checks.contract import verification_token

    n = next(_counter)
    device = f"schemathesis-{os.getpid()}-{n}"
    email = f"st-{os.getpid()}-{n}@example.com"
    _post(
        "/user/register",
        {
            "email": email,
            "password": "vellum copper tundra 2026",
            "displayName": "Schemathesis",
            "device_id": device,
            "device_name": device,
        },
    )
    confirmed = _post(
        "/user/verify_email", {"token": verification_token(email), "device_id": device, "device_name": device}
    )
    return confirmed["content"]["tokenData"]["access_token"]


@schemathesis.auth(refresh_interval=None)
class TouchlineBearer:
    def get(self, case, context):
        operation_id = case.operation.definition.raw.get("operationId")
        if operation_id in SESSION_CHANGING:
            return _fresh_account_token()
        if case.operation.path.startswith("/admin/"):
            return _fixtures["tokens"]["staff"]
        return _fixtures["tokens"]["viewer"]

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
