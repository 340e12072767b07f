"""`touchline login` / `logout`: a staff sign-in kept with mode 600, used, refreshed, and said
plainly to have expired; API keys and the variables still work for scripts."""

import json
import stat

import httpx
from typer.testing import CliRunner

from cli import credentials
from cli.main import app
from cli.tests.conftest import PASSWORD

runner = CliRunner()
CLEAN_ENV = {
    "TOUCHLINE_API_URL": None,
    "TOUCHLINE_STAFF_EMAIL": None,
    "TOUCHLINE_STAFF_PASSWORD": None,
    "TOUCHLINE_API_KEY": None,
    "COLUMNS": "300",
}


def touchline(*args: str, input: str | None = None, **env: str | None):
    return runner.invoke(app, list(args), input=input, env={**CLEAN_ENV, **env})


def login(server, email: str | None = None):
    return touchline("login", "--api-url", server.url, "--email", email or server.staff, input=f"{PASSWORD}\n")


def test_login_keeps_the_tokens_with_mode_600_and_logout_removes_them(live_server, config_dir):
    result = login(live_server)
    assert result.exit_code == 0, result.output
    assert PASSWORD not in result.output
    path = config_dir / credentials.FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stored = json.loads(path.read_text())
    assert stored["email"] == live_server.staff and stored["role"] == "admin" and stored["api_url"] == live_server.url
    assert stored["access_token"] and stored["refresh_token"] and PASSWORD not in path.read_text()
    # Later commands use it, without a URL or an account.
    found = touchline("users", "--json", "find", live_server.staff)
    assert found.exit_code == 0, found.output
    assert [e["email"] for e in json.loads(found.stdout)["entries"]] == [live_server.staff]
    token = stored["access_token"]
    result = touchline("logout")
    assert result.exit_code == 0 and "ended" in result.output
    assert not path.exists()
    # The session is over on the server too.
    answer = httpx.get(
        f"{live_server.url}/api/admin/users", params={"q": "x"}, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 401
    assert "Not signed in" in touchline("users", "find", "x").output


def test_the_password_is_never_an_argument(live_server):
    result = touchline("login", "--api-url", live_server.url, "--password", PASSWORD)
    assert result.exit_code == 2


def test_a_viewer_cannot_log_in(live_server, config_dir):
    result = login(live_server, live_server.viewer)
    assert result.exit_code == 1 and "is not a staff account" in result.output
    assert not (config_dir / credentials.FILE_NAME).exists()


def test_a_refused_token_is_refreshed_and_the_new_pair_kept(live_server, config_dir):
    assert login(live_server).exit_code == 0
    stored = credentials.load()
    assert stored is not None
    stored.access_token = "not-a-token"
    credentials.save(stored)
    result = touchline("users", "--json", "find", live_server.staff)
    assert result.exit_code == 0, result.output
    refreshed = credentials.load()
    assert refreshed is not None and refreshed.access_token != "not-a-token"
    assert refreshed.refresh_token != stored.refresh_token


def test_an_expired_sign_in_says_so_plainly(live_server, config_dir):
    assert login(live_server).exit_code == 0
    stored = credentials.load()
    assert stored is not None
    stored.access_token, stored.refresh_token = "expired", "rt_expired"
    credentials.save(stored)
    result = touchline("users", "find", "x")
    assert result.exit_code == 1
    assert "Your sign-in has expired: run `touchline login` again" in result.output


def test_a_sign_in_is_used_only_for_its_server(live_server, config_dir):
    assert login(live_server).exit_code == 0
    result = touchline("users", "--api-url", "http://127.0.0.1:9", "find", "x")
    assert result.exit_code == 1 and "Not signed in" in result.output


def test_the_variables_win_over_the_stored_sign_in(live_server, config_dir):
    assert login(live_server).exit_code == 0
    result = touchline(
        "users",
        "find",
        "x",
        TOUCHLINE_API_URL=live_server.url,
        TOUCHLINE_STAFF_EMAIL=live_server.staff,
        TOUCHLINE_STAFF_PASSWORD="wrong password",
    )
    assert result.exit_code == 1, result.output
