"""`touchline keys …` and `touchline audit list` as admin staff would run them, and scripts using
a key through TOUCHLINE_API_KEY."""

import json

from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD

runner = CliRunner()
CLEAN_ENV = {"TOUCHLINE_API_KEY": None, "COLUMNS": "300"}


def staff_env(server) -> dict:
    return {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }


def touchline(server, *args: str, **env: str | None):
    return runner.invoke(app, list(args), env={**CLEAN_ENV, **staff_env(server), **env})


def as_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def key_env(server, secret: str) -> dict:
    return {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": None,
        "TOUCHLINE_STAFF_PASSWORD": None,
        "TOUCHLINE_API_KEY": secret,
    }


def test_create_prints_the_secret_once_and_list_never(live_server):
    result = touchline(
        live_server, "keys", "create", "--role", "support", "--name", "nightly report", "--expires", "2099-12-31"
    )
    assert result.exit_code == 0, result.output
    secret = result.stdout.strip().splitlines()[-1]
    assert secret.startswith("tlk_")
    listed = touchline(live_server, "keys", "list")
    assert listed.exit_code == 0 and "nightly report" in listed.stdout and secret not in listed.stdout
    entries = as_json(touchline(live_server, "keys", "--json", "list"))["entries"]
    [entry] = [e for e in entries if e["name"] == "nightly report"]
    assert entry["expires_at"] == "2099-12-31T23:59:59Z" and entry["role"] == "support"


def test_a_support_key_reads_but_cannot_issue_codes(live_server):
    created = as_json(touchline(live_server, "keys", "--json", "create", "--role", "support", "--name", "script"))
    env = key_env(live_server, created["secret"])
    assert runner.invoke(app, ["users", "find", "x"], env={**CLEAN_ENV, **env}).exit_code == 0
    refused = runner.invoke(app, ["codes", "issue", "--product", "f" * 24, "--count", "1"], env={**CLEAN_ENV, **env})
    assert refused.exit_code == 1
    assert "forbidden_role" in refused.output


def test_a_revoked_key_is_refused(live_server):
    created = as_json(touchline(live_server, "keys", "--json", "create", "--role", "admin", "--name", "to revoke"))
    result = touchline(live_server, "keys", "revoke", created["key"]["_id"])
    assert result.exit_code == 0 and "Revoked" in result.output
    refused = runner.invoke(app, ["keys", "list"], env={**CLEAN_ENV, **key_env(live_server, created["secret"])})
    assert refused.exit_code == 1 and "This API key was revoked (api_key_revoked)" in refused.output


def test_a_bad_expiry_is_refused_before_the_server(live_server):
    result = touchline(live_server, "keys", "create", "--role", "admin", "--name", "x", "--expires", "soon")
    assert result.exit_code == 1 and "--expires 'soon'" in result.output


def test_audit_list_shows_who_did_what(live_server):
    created = as_json(touchline(live_server, "keys", "--json", "create", "--role", "admin", "--name", "audited"))
    entries = as_json(
        touchline(
            live_server, "audit", "--json", "list", "--action", "create_api_key", "--target", created["key"]["_id"]
        )
    )["entries"]
    [entry] = entries
    assert (entry["actor"], entry["status"]) == (live_server.staff, 200)
    table = touchline(live_server, "audit", "list", "--actor", live_server.staff, "--since", "2000-01-01")
    assert table.exit_code == 0 and "create_api_key" in table.stdout
    assert touchline(live_server, "audit", "list", "--since", "yesterday").exit_code == 1
