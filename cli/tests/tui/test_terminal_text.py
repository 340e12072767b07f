"""Issue 26 §9: the TUI's data layer hands its screens server text with control characters
escaped, so no table, detail pane or live feed shows them raw."""

from contextlib import asynccontextmanager

from cli.admin_client import AdminApiError
from cli.room_watch import RoomMessage
from cli.tests.test_terminal_text import ANSWERS, HOSTILE, RAW, SHOWN, USER_ID
from cli.tui import api as tui_api
from cli.tui.api import AdminApi


class HostileClient:
    """What AdminApi needs of an AdminClient, answering with the stored hostile rows."""

    stored = None
    credentials = None
    token = "token"
    base_url = "http://touchline.test"

    async def get(self, path, params=None):
        return ANSWERS[path]

    async def post(self, path, body=None):
        return {"_id": "d" * 24, "deviceName": HOSTILE, "revokedAt": None}


def strings_of(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value.keys(), *(text for item in value.values() for text in strings_of(item))]
    if isinstance(value, list):
        return [text for item in value for text in strings_of(item)]
    return []


def assert_no_raw(value) -> None:
    for text in strings_of(value):
        assert not any(char in text for char in ("\x1b", *RAW)), repr(text)


async def test_found_accounts_devices_sessions_and_audit_entries_come_escaped():
    api = AdminApi(HostileClient())  # type: ignore[arg-type]
    [user] = await api.find_users("mallory")
    assert user["displayName"] == SHOWN and user["email"].startswith(SHOWN)
    [device] = await api.devices(USER_ID)
    assert device["deviceId"] == SHOWN and device["deviceName"] == SHOWN and device["osName"] == SHOWN
    [session] = await api.sessions(USER_ID)
    assert session["deviceName"] == SHOWN
    [entry] = (await api.audit({}))["entries"]
    assert entry["target"] == f"/api/event/{SHOWN}" and entry["clientAddress"] == SHOWN
    assert (await api.revoke_session(USER_ID, "c" * 24))["deviceName"] == SHOWN
    for value in (user, device, session, entry):
        assert_no_raw(value)


async def test_a_watched_rooms_messages_come_escaped(monkeypatch):
    @asynccontextmanager
    async def hostile_watch(client, room):
        async def messages():
            yield RoomMessage(f"chat{HOSTILE}", {"text": HOSTILE, HOSTILE: [HOSTILE]}, "2026-11-24T18:00:00Z")

        yield messages()

    monkeypatch.setattr(tui_api, "RoomWatch", hostile_watch)
    api = AdminApi(HostileClient())  # type: ignore[arg-type]
    async with api.watch_room(f"event:{'e' * 24}") as messages:
        [message] = [message async for message in messages]
    assert message.event == f"chat{SHOWN}" and message.data == {"text": SHOWN, SHOWN: [SHOWN]}


def test_an_error_from_the_server_is_shown_escaped():
    error = AdminApiError(f"No account {HOSTILE}", "not_found", 404, [{"field": HOSTILE, "message": HOSTILE}])
    assert str(error) == f"No account {SHOWN} (not_found)\n  {SHOWN}: {SHOWN}"
