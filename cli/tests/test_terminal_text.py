"""Issue 26 §9: server-supplied text never reaches the staff terminal raw.

The server refuses control characters now, but rows stored before (or a hostile server) still
hold them: every table and line the commands print shows them escaped. The admin API is
replaced by fixed answers here, so the hostile strings need no server that would accept them."""

import json

import pytest
from typer.testing import CliRunner

from cli.admin_client import AdminClient, fail
from cli.main import app
from cli.terminal_text import json_text, visible, visible_lines

runner = CliRunner()
USER_ID = "a" * 24
# Clear the screen (ESC [2J), NUL, DEL, and C1's CSI followed by "2J" (the same in one byte).
HOSTILE = "Mallory\x1b[2J\x00\x7f\x9b2J"
SHOWN = "Mallory\\x1b[2J\\x00\\x7f\\x9b2J"
RAW = ("\x00", "\x7f", "\x9b")
AT = "2026-11-24T18:00:00Z"

ANSWERS = {
    "/admin/users": {
        "entries": [
            {
                "userId": USER_ID,
                "email": f"{HOSTILE}@example.com",
                "displayName": HOSTILE,
                "providers": ["credentials"],
                "deviceCount": 1,
                "activeSessionCount": 1,
                "lastSignIn": AT,
                "role": "viewer",
                "deleted": False,
            }
        ],
        "entryCount": 1,
        "itemsPerPage": 10,
    },
    f"/admin/users/{USER_ID}/devices": {
        "devices": [
            {
                "_id": "b" * 24,
                "deviceId": HOSTILE,
                "deviceName": HOSTILE,
                "osName": HOSTILE,
                "osVersion": None,
                "added": AT,
                "updated": AT,
            }
        ],
        "limit": 5,
    },
    f"/admin/users/{USER_ID}/sessions": {
        "entries": [
            {
                "_id": "c" * 24,
                "deviceId": HOSTILE,
                "deviceName": HOSTILE,
                "provider": "credentials",
                "added": AT,
                "lastUsed": AT,
                "expiresAt": "2999-01-01T00:00:00Z",
                "revoked": False,
                "revokedAt": None,
            }
        ],
        "entryCount": 1,
        "itemsPerPage": 10,
    },
    "/admin/audit": {
        "entries": [
            {
                "at": AT,
                "actor": None,
                "actorId": None,
                "actorType": "anonymous",
                "action": "get_event_by_id",
                "target": f"/api/event/{HOSTILE}",
                "status": 404,
                "clientAddress": HOSTILE,
            }
        ],
        "entryCount": 1,
        "itemsPerPage": 10,
    },
}


@pytest.fixture
def fixed_api(monkeypatch):
    async def get(self, path, params=None):
        return json.loads(json.dumps(ANSWERS[path]))

    monkeypatch.setattr(AdminClient, "get", get)
    return {"TOUCHLINE_API_URL": "http://touchline.test", "TOUCHLINE_API_KEY": "tlk_test", "COLUMNS": "300"}


def touchline(env, *args: str):
    result = runner.invoke(app, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result.output


def assert_escaped(output: str) -> None:
    assert SHOWN in output, output
    assert "\x1b[2J" not in output and not any(char in output for char in RAW), repr(output)


@pytest.mark.parametrize(
    "command",
    [
        ["users", "find", "mallory"],
        ["devices", "list", USER_ID],
        ["sessions", "list", USER_ID],
        ["audit", "list"],
    ],
    ids=["users find", "devices list", "sessions list", "audit list"],
)
def test_a_control_character_in_a_listed_string_prints_escaped(fixed_api, command):
    assert_escaped(touchline(fixed_api, *command))


@pytest.mark.parametrize(
    "command", [["users", "find", "mallory"], ["devices", "list", USER_ID]], ids=["users find", "devices list"]
)
def test_a_narrow_terminal_prints_the_header_value_blocks_escaped_too(fixed_api, command):
    assert_escaped(touchline({**fixed_api, "COLUMNS": "40"}, *command))


def test_json_output_keeps_the_data_and_escapes_del_and_c1(fixed_api):
    output = touchline(fixed_api, "users", "--json", "find", "mallory")
    assert not any(char in output for char in ("\x1b", *RAW)), repr(output)
    assert json.loads(output)["entries"][0]["displayName"] == HOSTILE  # scripts still get the text itself


def test_an_error_message_from_the_server_prints_escaped(capsys):
    error = fail(f"No account matches {HOSTILE!s}")
    assert error.exit_code == 1
    assert_escaped(capsys.readouterr().err)


def test_visible_writes_each_control_character_as_an_escape():
    assert visible("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert visible("\x00\x07\x08\x7f\x9b\x85") == "\\x00\\x07\\x08\\x7f\\x9b\\x85"
    assert visible("tab\there\nline") == "tab\\there\\nline"
    assert visible("evil\u202etxt.exe") == "evil\\u202etxt.exe"
    assert visible("Zoë 日本 ⚽") == "Zoë 日本 ⚽"
    assert visible_lines("one\r\ntwo\x1b") == "one\ntwo\\x1b"
    assert json_text({"n": "a\x9b\x1b"}) == '{"n": "a\\u009b\\u001b"}'
