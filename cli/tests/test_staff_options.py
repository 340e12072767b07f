"""The options every staff command shares (--api-url, --api-key, --staff-email,
--staff-password, --json) are taken before the command (`touchline users --json find …`) and
after it (`touchline keys create … --json`), for every command of every staff group; the
variables still give their defaults."""

import json

import pytest
from typer.core import TyperGroup
from typer.main import get_command
from typer.testing import CliRunner

from cli.admin_client import AdminClient
from cli.commands.staff_options import StaffOptions
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


@pytest.mark.parametrize("group", COMMANDS)
def test_a_staff_group_without_a_command_shows_its_help_with_the_shared_options(group):
    result = touchline(group)
    for option in ("--api-url", "--staff-email", "--staff-password", "--json", COMMANDS[group][0]):
        assert option in result.output


# --- after the command -----------------------------------------------------------------------------

# Arguments that get each staff command past its own checks to the server; a command missing
# here fails test_every_staff_command_has_an_example, so none escapes the tests below.
EXAMPLES = {
    "audit list": [],
    "billing renew": ["--dry-run"],
    "codes issue": ["--product", NOBODY, "--count", "1"],
    "codes list": [],
    "codes revoke": [NOBODY],
    "codes show": [NOBODY],
    "credit cancel": [NOBODY],
    "credit show": [NOBODY],
    "credit trigger": [NOBODY],
    "devices list": [NOBODY],
    "devices remove": [NOBODY, NOBODY],
    "events create": ["Derby", "--date", "2030-12-05T15:00:00Z", "--sport", "football"],
    "events finish": [NOBODY],
    "events go-live": [NOBODY],
    "events list": [],
    "events set-stream": [NOBODY, "/media/live/football.m3u8"],
    "events show": [NOBODY],
    "events update": [NOBODY, "--title", "Derby"],
    "ingest key create": [NOBODY],
    "ingest key list": [NOBODY],
    "ingest key revoke": [NOBODY],
    "ingest key rotate": [NOBODY],
    "ingest key take-over": [NOBODY],
    "ingest settings": [NOBODY, "--autostart", "armed"],
    "ingest status": [],
    "ingest test-pattern": [NOBODY],
    "jobs cancel": [NOBODY],
    "jobs list": [],
    "jobs show": [NOBODY],
    "keys create": ["--role", "support", "--name", "ci"],
    "keys list": [],
    "keys revoke": [NOBODY],
    "media list": [NOBODY],
    "media show": [NOBODY],
    "media attach": [NOBODY, "--as", "archive"],
    "media cut": [NOBODY, "--from", "1", "--to", "2", "--title", "A goal"],
    "media delete": [NOBODY, "--yes"],
    "media upload": [__file__, "--event", NOBODY],  # any file: the server is asked before it is read
    "outbox list": [],
    "outbox resend": [NOBODY],
    "outbox show": [NOBODY],
    "sessions list": [NOBODY],
    "sessions revoke": [NOBODY, NOBODY],
    "socket emit": ["update-event", "--room", f"event:{NOBODY}", "--data", '{"status": "live"}'],
    "socket watch": ["--room", f"event:{NOBODY}"],
    "users devices": [NOBODY],
    "users find": ["ada"],
    "users revoke-device": [NOBODY, NOBODY],
    "users revoke-session": [NOBODY, NOBODY],
    "users sessions": [NOBODY],
    "users show": [NOBODY],
}


def staff_commands() -> list[str]:
    """`group command` for every command (hidden ones too) of every group that takes the shared
    options, found by walking the command tree (`ingest key create`: a staff group in a staff
    group)."""

    def walk(group: TyperGroup, path: str) -> list[str]:
        shares = "--json" in {o for p in group.params for o in p.opts}
        found = []
        for name, child in group.commands.items():
            if isinstance(child, TyperGroup):
                found += walk(child, f"{path} {name}".strip())
            elif shares:
                found.append(f"{path} {name}")
        return found

    root = get_command(app)
    assert isinstance(root, TyperGroup)
    return sorted(walk(root, ""))


STAFF_COMMANDS = staff_commands()


def test_every_staff_command_has_an_example():
    assert sorted(EXAMPLES) == STAFF_COMMANDS


@pytest.fixture
def options_used(monkeypatch) -> list[StaffOptions]:
    """The StaffOptions each command makes its admin client from (the client is the real one)."""
    used: list[StaffOptions] = []
    real_client = StaffOptions.client

    def client(self: StaffOptions, **kwargs) -> AdminClient:
        used.append(self)
        return real_client(self, **kwargs)

    monkeypatch.setattr(StaffOptions, "client", client)
    return used


@pytest.mark.parametrize("command", STAFF_COMMANDS)
def test_every_staff_command_takes_the_shared_options_after_it(command, options_used):
    result = touchline(*command.split(), *EXAMPLES[command], *staff_options(UNREACHABLE, "staff@example.com"), "--json")
    assert result.exit_code == 1, result.output
    assert f"Error: Cannot reach the Touchline API at {UNREACHABLE}" in result.output
    assert options_used == [StaffOptions(UNREACHABLE, "staff@example.com", PASSWORD, as_json=True)]


@pytest.mark.parametrize("command", STAFF_COMMANDS)
def test_every_staff_commands_help_lists_the_shared_options(command):
    result = touchline(*command.split(), "--help", COLUMNS="200")
    assert result.exit_code == 0, result.output
    for option in ("--api-url", "--api-key", "--staff-email", "--staff-password", "--json"):
        assert option in result.output


def test_json_after_the_command_prints_json(live_server):
    result = touchline(
        "keys",
        "create",
        "--role",
        "support",
        "--name",
        "ci",
        "--json",
        TOUCHLINE_API_URL=live_server.url,
        TOUCHLINE_STAFF_EMAIL=live_server.staff,
        TOUCHLINE_STAFF_PASSWORD=PASSWORD,
    )
    assert result.exit_code == 0, result.output
    made = json.loads(result.stdout)
    assert made["key"]["name"] == "ci" and made["secret"].startswith("tlk_")


def test_options_after_the_command_win_over_those_before_it(live_server):
    result = touchline(
        "users",
        *staff_options(UNREACHABLE, live_server.viewer),
        "find",
        live_server.staff,
        *staff_options(live_server.url, live_server.staff),
        "--json",
    )
    assert result.exit_code == 0, result.output
    assert [e["email"] for e in json.loads(result.stdout)["entries"]] == [live_server.staff]


def test_options_before_the_command_stay_when_none_follow_it(live_server):
    result = touchline(
        "users",
        *staff_options(live_server.url, live_server.staff),
        "--json",
        "find",
        live_server.staff,
        TOUCHLINE_API_URL=UNREACHABLE,
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["entries"][0]["email"] == live_server.staff


def test_options_given_to_a_staff_group_around_another_count_the_last_given_winning(options_used):
    result = touchline(
        "ingest",
        *staff_options(UNREACHABLE, "outer@example.com"),
        "key",
        "--json",
        "create",
        NOBODY,
        "--staff-email",
        "staff@example.com",
    )
    assert result.exit_code == 1, result.output
    assert f"Error: Cannot reach the Touchline API at {UNREACHABLE}" in result.output
    assert options_used == [StaffOptions(UNREACHABLE, "staff@example.com", PASSWORD, as_json=True)]
