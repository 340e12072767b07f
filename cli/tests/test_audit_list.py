"""`touchline audit list` shows what an entry adds since issue 26: how many refused anonymous calls
a counted entry stands for, and what a role change, a new key or a read of the outbox recorded.
The admin API is replaced by a fixed answer."""

import pytest
from typer.testing import CliRunner

from cli.admin_client import AdminClient
from cli.main import app

runner = CliRunner()
AT = "2026-11-24T18:00:00Z"


def entry(**fields) -> dict:
    return {
        "_id": "e" * 24,
        "at": AT,
        "actorType": "user",
        "actorId": "a" * 24,
        "actor": "admin@touchline.test",
        "action": "set_user_role",
        "method": "POST",
        "path": "/api/admin/users/x/role",
        "target": "b" * 24,
        "clientAddress": "203.0.113.7",
        "status": 200,
        "count": 1,
        "detail": None,
        **fields,
    }


ANSWER = {
    "entries": [
        entry(detail={"oldRole": "viewer", "newRole": "support"}),
        entry(actorType="anonymous", actorId=None, actor=None, action="revoke_access_code", status=401, count=100),
        entry(action="list_outbox", method="GET", detail={"mailIds": ["c" * 24, "d" * 24]}),
    ],
    "entryCount": 3,
    "itemsPerPage": 10,
}


@pytest.fixture
def fixed_api(monkeypatch):
    async def get(self, path, params=None):
        assert path == "/admin/audit"
        return ANSWER

    monkeypatch.setattr(AdminClient, "get", get)
    return {"TOUCHLINE_API_URL": "http://touchline.test", "TOUCHLINE_API_KEY": "tlk_test", "COLUMNS": "300"}


def test_audit_list_shows_the_count_of_a_counted_entry_and_each_entrys_detail(fixed_api):
    result = runner.invoke(app, ["audit", "list"], env=fixed_api)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    [role] = [line for line in lines if "set_user_role" in line]
    [anonymous] = [line for line in lines if "revoke_access_code" in line]
    [read] = [line for line in lines if "list_outbox" in line]
    assert "oldRole=viewer newRole=support" in role
    assert "401 ×100" in anonymous
    assert "mailIds=2" in read
