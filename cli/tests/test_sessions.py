"""`touchline sessions list|revoke`, run as support staff would (CliRunner) against a real server."""

from typer.testing import CliRunner

from cli.main import app
from cli.tests.test_users import CLEAN_ENV, NOBODY, as_json, devices_answer, sign_in_elsewhere, sign_up, staff_env

runner = CliRunner()


def touchline(server, *args: str, **env: str | None):
    return runner.invoke(app, ["sessions", *args], env={**CLEAN_ENV, **(staff_env(server) if server else {}), **env})


def test_list_shows_the_active_sessions_of_an_account(live_server):
    ada = sign_up(live_server)
    other = sign_in_elsewhere(live_server, ada)
    result = touchline(live_server, "list", ada["userId"])
    assert result.exit_code == 0, result.output
    assert f"Active sessions of account {ada['userId']}" in result.output
    assert ada["device"] in result.output and other in result.output


def test_list_json_prints_the_page_the_api_answered(live_server):
    ada = sign_up(live_server)
    content = as_json(touchline(live_server, "--json", "list", ada["userId"]))
    [session] = content["entries"]
    assert session["deviceId"] == ada["device"] and session["revoked"] is False


def test_revoke_ends_the_session_and_its_token_stops_working(live_server):
    ada = sign_up(live_server)
    [session] = as_json(touchline(live_server, "--json", "list", ada["userId"]))["entries"]
    result = touchline(live_server, "revoke", ada["userId"], session["_id"])
    assert result.exit_code == 0, result.output
    assert f"Session {session['_id']} of account {ada['userId']}" in result.output and "is revoked" in result.output
    assert devices_answer(live_server, ada).status_code == 401
    assert f"Account {ada['userId']} has no active sessions." in touchline(live_server, "list", ada["userId"]).output
    everything = as_json(touchline(live_server, "--json", "list", ada["userId"], "--all"))["entries"]
    assert [s["revoked"] for s in everything] == [True]


def test_an_unknown_session_ends_with_exit_code_1_and_the_apis_message(live_server):
    ada = sign_up(live_server)
    result = touchline(live_server, "revoke", ada["userId"], NOBODY)
    assert result.exit_code == 1 and "Session not found (session_not_found)" in result.output


def test_a_malformed_session_id_is_refused_before_anything_is_sent():
    result = touchline(None, "revoke", NOBODY, "42")
    assert result.exit_code == 1 and "'42' is not a session id" in result.output


def test_a_viewer_account_is_refused_with_exit_code_1(live_server):
    result = touchline(live_server, "list", NOBODY, TOUCHLINE_STAFF_EMAIL=live_server.viewer)
    assert result.exit_code == 1 and "(forbidden_role)" in result.output
