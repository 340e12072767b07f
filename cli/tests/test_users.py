"""`touchline users …`, run as support staff would (CliRunner) against a real server."""

import json
import uuid

import httpx
import pytest
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD, register_and_confirm

runner = CliRunner()
NOBODY = "f" * 24
# Variables of the operator's shell that would change where the command goes; a wide terminal so
# table cells are not wrapped.
CLEAN_ENV = {
    "TOUCHLINE_API_URL": None,
    "TOUCHLINE_STAFF_EMAIL": None,
    "TOUCHLINE_STAFF_PASSWORD": None,
    "COLUMNS": "300",
}


def staff_env(server) -> dict:
    return {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }


def touchline(server, *args: str, **env: str | None):
    return runner.invoke(app, ["users", *args], env={**CLEAN_ENV, **(staff_env(server) if server else {}), **env})


def as_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def sign_up(server, name: str = "Test Fan", **fields) -> dict:
    """A viewer registered through the API: {userId, email, device, access, refresh}."""
    word = uuid.uuid4().hex[:10]
    device = f"Mozilla/5.0 CliTest/{word}"
    answer = register_and_confirm(
        server.url,
        {
            "email": f"fan-{word}@example.com",
            "password": PASSWORD,
            "displayName": name,
            "device_id": device,
            "device_name": device,
            "strategy": "refresh",
            **fields,
        },
    )
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    return {
        "userId": content["profile"]["userId"],
        "email": f"fan-{word}@example.com",
        "device": device,
        "access": content["tokenData"]["access_token"],
        "refresh": content["tokenData"]["refresh_token"],
    }


def sign_in_elsewhere(server, account: dict) -> str:
    """Sign the account in from another device; that device's id."""
    device = f"Mozilla/5.0 CliTest/{uuid.uuid4().hex[:10]}"
    answer = httpx.post(
        f"{server.url}/api/user/login",
        json={"username": account["email"], "password": PASSWORD, "device_id": device, "device_name": device},
    )
    assert answer.status_code == 200 and answer.json()["content"]["tokenData"], answer.text
    return device


def devices_answer(server, account: dict) -> httpx.Response:
    return httpx.get(f"{server.url}/api/user/get_devices", headers={"Authorization": f"Bearer {account['access']}"})


# --- find and show -------------------------------------------------------------------------------


def test_find_prints_a_table_of_the_matching_accounts(live_server):
    word = f"zq{uuid.uuid4().hex[:8]}"
    ada = sign_up(live_server, name=f"Ada {word}")
    result = touchline(live_server, "find", word.upper())
    assert result.exit_code == 0, result.output
    assert f"Accounts matching '{word.upper()}'" in result.output
    [row] = [line for line in result.output.splitlines() if ada["userId"] in line]
    for cell in (ada["email"], f"Ada {word}", "viewer", "credentials"):
        assert cell in row


def test_on_a_narrow_terminal_each_account_is_listed_field_by_field_without_cutting_values(live_server):
    ada = sign_up(live_server, name="Ada Lovelace")
    result = touchline(live_server, "find", ada["email"], COLUMNS="60")
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    assert f"ID:                 {ada['userId']}" in lines
    assert f"E-mail:             {ada['email']}" in lines and "Name:               Ada Lovelace" in lines


def test_names_are_printed_as_written_not_read_as_markup(live_server):
    word = f"zq{uuid.uuid4().hex[:8]}"
    sign_up(live_server, name=f"[bold]{word}[/bold] :smile:")
    result = touchline(live_server, "find", word)
    assert result.exit_code == 0 and f"[bold]{word}[/bold] :smile:" in result.output


def test_find_json_prints_the_page_the_api_answered(live_server):
    ada = sign_up(live_server)
    content = as_json(touchline(live_server, "--json", "find", ada["email"]))
    [entry] = content["entries"]
    assert (entry["userId"], entry["deviceCount"], entry["activeSessionCount"]) == (ada["userId"], 1, 1)


def test_find_filters_by_role(live_server):
    content = as_json(touchline(live_server, "--json", "find", live_server.staff, "--role", "viewer"))
    assert content["entries"] == []
    content = as_json(touchline(live_server, "--json", "find", live_server.staff, "--role", "admin"))
    assert [e["email"] for e in content["entries"]] == [live_server.staff]


def test_find_says_when_nothing_matches(live_server):
    result = touchline(live_server, "find", f"nobody-{uuid.uuid4().hex}")
    assert result.exit_code == 0 and "No account matches" in result.output


def test_find_hints_at_the_next_page_when_one_may_follow(live_server):
    word = f"zq{uuid.uuid4().hex[:8]}"
    for n in range(3):
        sign_up(live_server, name=f"{word} {n}")
    first = touchline(live_server, "find", word, "--size", "2")
    assert first.exit_code == 0 and "More may follow: --page 1" in first.output
    last = touchline(live_server, "find", word, "--size", "2", "--page", "1")
    assert last.exit_code == 0 and "More may follow" not in last.output


def test_show_prints_the_account_and_its_profile(live_server):
    ada = sign_up(live_server, name="Ada Lovelace", city="London")
    result = touchline(live_server, "show", ada["userId"])
    assert result.exit_code == 0, result.output
    assert f"Account {ada['userId']}" in result.output
    for text in (ada["email"], "Ada Lovelace", "London", "credentials"):
        assert text in result.output


def test_show_json_has_the_account_and_its_profile(live_server):
    ada = sign_up(live_server, city="London")
    content = as_json(touchline(live_server, "--json", "show", ada["userId"]))
    assert content["user"]["userId"] == ada["userId"] and content["profile"]["city"] == "London"


# --- sessions ------------------------------------------------------------------------------------


def test_revoke_session_ends_it_and_its_token_stops_working(live_server):
    ada = sign_up(live_server)
    other = sign_in_elsewhere(live_server, ada)
    sessions = as_json(touchline(live_server, "--json", "sessions", ada["userId"]))["entries"]
    [session] = [s for s in sessions if s["deviceId"] == ada["device"]]
    result = touchline(live_server, "revoke-session", ada["userId"], session["_id"])
    assert result.exit_code == 0, result.output
    assert f"Session {session['_id']} of account {ada['userId']}" in result.output and "is revoked" in result.output
    assert devices_answer(live_server, ada).status_code == 401
    active = touchline(live_server, "sessions", ada["userId"])
    assert other in active.output and session["_id"] not in active.output
    everything = touchline(live_server, "sessions", ada["userId"], "--all")
    [row] = [line for line in everything.output.splitlines() if session["_id"] in line]
    assert "revoked" in row and ada["device"] in row


def test_revoke_session_json_prints_the_revoked_session(live_server):
    ada = sign_up(live_server)
    [session] = as_json(touchline(live_server, "--json", "sessions", ada["userId"]))["entries"]
    revoked = as_json(touchline(live_server, "--json", "revoke-session", ada["userId"], session["_id"]))
    assert revoked["_id"] == session["_id"] and revoked["revoked"] is True


def test_an_account_without_active_sessions_says_so(live_server):
    ada = sign_up(live_server)
    [session] = as_json(touchline(live_server, "--json", "sessions", ada["userId"]))["entries"]
    touchline(live_server, "revoke-session", ada["userId"], session["_id"])
    result = touchline(live_server, "sessions", ada["userId"])
    assert result.exit_code == 0 and f"Account {ada['userId']} has no active sessions." in result.output


# --- devices -------------------------------------------------------------------------------------


def test_devices_lists_the_accounts_devices_and_its_limit(live_server):
    ada = sign_up(live_server)
    other = sign_in_elsewhere(live_server, ada)
    result = touchline(live_server, "devices", ada["userId"])
    assert result.exit_code == 0, result.output
    assert ada["device"] in result.output and other in result.output
    assert "2 of 5 devices" in result.output


def test_revoke_device_removes_it_and_signs_it_out(live_server):
    ada = sign_up(live_server)
    other = sign_in_elsewhere(live_server, ada)
    devices = as_json(touchline(live_server, "--json", "devices", ada["userId"]))["devices"]
    [device] = [d for d in devices if d["deviceId"] == ada["device"]]
    result = touchline(live_server, "revoke-device", ada["userId"], device["_id"])
    assert result.exit_code == 0, result.output
    assert f"Device {device['_id']} is removed from account {ada['userId']}" in result.output
    assert "1 of 5 devices left" in result.output and other in result.output
    assert devices_answer(live_server, ada).status_code == 401
    left = as_json(touchline(live_server, "--json", "devices", ada["userId"]))["devices"]
    assert [d["deviceId"] for d in left] == [other]


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["show", NOBODY],
        ["sessions", NOBODY],
        ["devices", NOBODY],
        ["revoke-session", NOBODY, NOBODY],
        ["revoke-device", NOBODY, NOBODY],
    ],
    ids=["show", "sessions", "devices", "revoke-session", "revoke-device"],
)
def test_an_unknown_account_ends_with_exit_code_1_and_user_not_found(live_server, command):
    result = touchline(live_server, *command)
    assert result.exit_code == 1
    assert "Error: User not found (user_not_found)" in result.output


def test_an_unknown_session_ends_with_exit_code_1(live_server):
    ada = sign_up(live_server)
    result = touchline(live_server, "revoke-session", ada["userId"], NOBODY)
    assert result.exit_code == 1 and "Session not found (session_not_found)" in result.output


def test_an_unknown_device_ends_with_exit_code_1(live_server):
    ada = sign_up(live_server)
    result = touchline(live_server, "revoke-device", ada["userId"], NOBODY)
    assert result.exit_code == 1 and "Device not found (device_not_found)" in result.output


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (["show", "ada@example.com"], "'ada@example.com' is not an account id"),
        (["revoke-session", NOBODY, "42"], "'42' is not a session id"),
        (["revoke-device", NOBODY, "Mozilla/5.0"], "'Mozilla/5.0' is not a device id"),
        (["find", "   "], "QUERY is empty"),
    ],
    ids=["account", "session", "device", "blank-query"],
)
def test_a_malformed_argument_ends_with_exit_code_1_before_anything_is_sent(command, says):
    # No server and no credentials are configured: the command stops before needing them.
    result = touchline(None, *command)
    assert result.exit_code == 1, result.output
    assert says in result.output


def test_a_viewer_account_is_refused_with_exit_code_1(live_server):
    result = touchline(live_server, "find", "fan", TOUCHLINE_STAFF_EMAIL=live_server.viewer)
    assert result.exit_code == 1 and "(forbidden_role)" in result.output
