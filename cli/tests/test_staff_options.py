"""The options every staff command shares (--api-url, --staff-email, --staff-password, --json)
are the group's: `touchline users --json find …`; the variables still give their defaults."""

import json

import pytest
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD

runner = CliRunner()
NOBODY = "f" * 24
UNREACHABLE = "http://127.0.0.1:9"
CLEAN_ENV = {
    "TOUCHLINE_API_URL": None,
    "TOUCHLINE_STAFF_EMAIL": None,
    "TOUCHLINE_STAFF_PASSWORD": None,
    "REDIS_URL": None,  # `socket emit` would go through Redis
    "TOUCHLINE_REDIS_URL": None,
}
# One command of each staff group, as it is written after the group's options.
COMMANDS = {
    "users": ["find", "ada"],
    "codes": ["list"],
    "events": ["go-live", NOBODY],
    "billing": ["renew", "--dry-run"],
    "socket": ["emit", "update-event", "--room", f"event:{NOBODY}", "--data", '{"status": "live"}'],
}


def touchline(*args: str, **env: str | None):
    return runner.invoke(app, list(args), env={**CLEAN_ENV, **env})


def staff_options(url: str, email: str) -> list[str]:
    return ["--api-url", url, "--staff-email", email, "--staff-password", PASSWORD]


@pytest.mark.parametrize("group", COMMANDS)
def test_every_staff_group_takes_the_server_and_account_before_its_command(group):
    result = touchline(group, *staff_options(UNREACHABLE, "staff@example.com"), *COMMANDS[group])
    assert result.exit_code == 1, result.output
    assert f"Error: Cannot reach the Touchline API at {UNREACHABLE}" in result.output


@pytest.mark.parametrize("group", COMMANDS)
def test_the_variables_give_the_server_and_account(group):
    result = touchline(
        group,
        *COMMANDS[group],
        TOUCHLINE_API_URL=UNREACHABLE,
        TOUCHLINE_STAFF_EMAIL="staff@example.com",
        TOUCHLINE_STAFF_PASSWORD=PASSWORD,
    )
    assert result.exit_code == 1, result.output
    assert f"Error: Cannot reach the Touchline API at {UNREACHABLE}" in result.output


def test_the_options_win_over_the_variables(live_server):
    result = touchline(
        "users",
        *staff_options(live_server.url, live_server.staff),
        "--json",
        "find",
        live_server.staff,
        TOUCHLINE_API_URL=UNREACHABLE,
        TOUCHLINE_STAFF_EMAIL=live_server.viewer,
        TOUCHLINE_STAFF_PASSWORD="wrong",
    )
    assert result.exit_code == 0, result.output
    assert [e["email"] for e in json.loads(result.stdout)["entries"]] == [live_server.staff]


def test_without_credentials_the_command_says_which_variables_or_options_to_set():
    result = touchline("users", "--api-url", UNREACHABLE, "find", "ada")
    assert result.exit_code == 1
    assert "touchline login" in result.output and "TOUCHLINE_API_KEY" in result.output
    assert "TOUCHLINE_STAFF_EMAIL" in result.output


def test_a_shared_option_after_the_command_is_a_usage_error():
    result = touchline("users", "find", "ada", "--json")
    assert result.exit_code == 2
    assert "No such option: --json" in result.output


@pytest.mark.parametrize("group", COMMANDS)
def test_a_staff_group_without_a_command_shows_its_help_with_the_shared_options(group):
    result = touchline(group)
    for option in ("--api-url", "--staff-email", "--staff-password", "--json", COMMANDS[group][0]):
        assert option in result.output
