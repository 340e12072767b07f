"""Live control's ingest panel (issue 28 §5) driven by Textual's pilot: the picked event's health
and bitrate sparkline on fixed answers (FixedApi), and its stream keys made, copied, rotated and
revoked against a real test server (cli/tests/conftest.py)."""

from collections.abc import Awaitable, Callable
from typing import TypeVar

import httpx
from textual.widgets import Input, Label, Select, Sparkline, Static

from cli.tests.conftest import SECRET
from cli.tui.api import AdminApi
from cli.tui.app import TouchlineAdmin
from cli.tui.ingest_settings import IngestSettingsScreen
from cli.tui.issued_key import IssuedKeyScreen
from cli.tui.live import LiveControlScreen
from cli.tui.widgets import ConfirmScreen, HelpScreen
from server.ingest.hooks import PUBLISH_PATH
from server.media.sources.stream_keys import hook_secret

from .capture import text_capture
from .fixed_data import LIVE_EVENTS, FixedApi
from .test_admin_tui import SIZE, staff_api, wait_until
from .test_live_screen import create_event, open_live, pick

T = TypeVar("T")
KEY_ACTIONS = ("make_stream_key", "rotate_stream_key", "revoke_stream_key", "take_over_stream_key")


def shown(screen, widget_id: str) -> str:
    return str(screen.query_one(f"#{widget_id}", Static).render())


async def staff_call(server, call: Callable[[AdminApi], Awaitable[T]]) -> T:
    """One call of the staff API on the test server, on a client of its own."""
    api = staff_api(server)
    try:
        return await call(api)
    finally:
        await api.aclose()


async def keys_on_the_server(server, event_id: str) -> list[dict]:
    return await staff_call(server, lambda api: api.stream_keys(event_id))


async def make_key(server, event_id: str) -> dict:
    return await staff_call(server, lambda api: api.make_stream_key(event_id))


async def ingest_on_the_server(server, event_id: str) -> dict:
    return await staff_call(server, lambda api: api.ingest(event_id))


class ChangingBitrate(FixedApi):
    """The upcoming event's encoder in preview, each answer with the next of BITRATES (then the
    last again); the dashboard asks only live events, so every answer goes to the panel."""

    BITRATES = (2800.0, 3100.0, 2500.0, 2900.0)

    def __init__(self):
        super().__init__()
        self.answers = 0

    async def ingest(self, event_id: str) -> dict:
        health = await super().ingest(event_id)
        if event_id != LIVE_EVENTS[1]["_id"]:
            return health
        bitrate = self.BITRATES[min(self.answers, len(self.BITRATES) - 1)]
        self.answers += 1
        return {**health, "state": "preview", "publishing": True, "bitrateKbps": bitrate}


# --- on fixed answers -------------------------------------------------------------------------------


async def test_the_panel_shows_the_picked_events_state_input_speed_bitrate_segment_restarts_and_viewers():
    app = TouchlineAdmin(FixedApi(), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, LIVE_EVENTS[0]["title"])
        await wait_until(pilot, lambda: "Viewers" in shown(screen, "ingest-output"))
        encoder, output = shown(screen, "ingest-encoder"), shown(screen, "ingest-output")
        assert "live · publishing" in encoder
        assert "h264 1280x720 at 30 fps, aac" in encoder
        assert "1.02× real time" in encoder and "2,834 kbit/s" in encoder
        assert "last ended 1.8 s ago" in output
        assert "Restarts 1 · reconnects 2" in output and "Viewers  9" in output
        assert "Go live  near kickoff" in output and "Rewind   120 min" in output
        assert "Key      …9QzA, publishing" in shown(screen, "stream-keys")  # its hint, never the key


async def test_the_bitrate_sparkline_gains_a_point_with_each_refresh_and_starts_over_for_another_event():
    api = ChangingBitrate()
    app = TouchlineAdmin(api, refresh_seconds=0.1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, LIVE_EVENTS[1]["title"])  # upcoming: its encoder is a staff preview
        sparkline = screen.query_one("#bitrate", Sparkline)
        await wait_until(pilot, lambda: len(sparkline.data or []) >= 3)
        assert list(sparkline.data or [])[:3] == list(ChangingBitrate.BITRATES[:3])  # in the order answered
        assert "preview · publishing" in shown(screen, "ingest-encoder")

        await pick(pilot, screen, LIVE_EVENTS[0]["title"])
        await wait_until(pilot, lambda: "2,834 kbit/s" in shown(screen, "ingest-encoder"))
        assert not set(sparkline.data or []) & set(ChangingBitrate.BITRATES)  # the former event's trend is gone


async def test_a_support_session_sees_the_key_actions_disabled_with_the_reason():
    app = TouchlineAdmin(FixedApi(role="support"), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, LIVE_EVENTS[0]["title"])
        for action in KEY_ACTIONS:
            assert screen.check_action(action, ()) is None, action
        await pilot.press("k", "o", "x")
        assert app.screen is screen  # no dialog, no confirmation
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text").render())
        for name in ("Make stream key", "Rotate stream key", "Revoke stream key"):
            assert f"{name} (disabled: needs the admin role" in help_text


# --- against the test server ------------------------------------------------------------------------


async def test_a_made_key_is_shown_once_and_copying_puts_its_urls_on_the_clipboard(live_server):
    event = await create_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])
        await wait_until(pilot, lambda: "none in force" in shown(screen, "stream-keys"))

        await pilot.press("k")
        await wait_until(pilot, lambda: isinstance(app.screen, IssuedKeyScreen))
        dialog = app.screen
        assert isinstance(dialog, IssuedKeyScreen)
        issued = dialog.issued
        assert issued.rtmp_url.endswith(f"/live/{issued.key}")
        assert issued.srt_url is not None and f"streamid={issued.key}" in issued.srt_url
        assert [shown(dialog, name) for name in ("key", "rtmp", "srt")] == [issued.key, issued.rtmp_url, issued.srt_url]

        await pilot.press("r")
        assert app.clipboard == issued.rtmp_url
        await pilot.press("s")
        assert app.clipboard == issued.srt_url
        await pilot.click("#copy-key")
        assert app.clipboard == issued.key

        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await wait_until(pilot, lambda: f"…{issued.key[-4:]}, in force" in shown(screen, "stream-keys"))
        assert issued.key not in text_capture(app)  # never again once the dialog is closed
        assert not any(issued.key in str(n.message) for n in app._notifications)
    [stored] = await keys_on_the_server(live_server, event["_id"])
    assert stored["hint"] == issued.key[-4:] and stored["revokedAt"] is None


async def test_rotating_the_key_asks_first_then_shows_the_new_key_once(live_server):
    event = await create_event(live_server)
    first = await make_key(live_server, event["_id"])
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])
        await wait_until(pilot, lambda: f"…{first['key'][-4:]}, in force" in shown(screen, "stream-keys"))

        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "Rotate the stream key of" in str(app.screen.query_one("#question").render())
        await pilot.press("n")  # cancelled: the key stays
        await pilot.pause(0.2)
        assert app.screen is screen
        assert [k["revokedAt"] for k in await keys_on_the_server(live_server, event["_id"])] == [None]

        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, IssuedKeyScreen))
        dialog = app.screen
        assert isinstance(dialog, IssuedKeyScreen)
        rotated = dialog.issued.key
        # The dialog is on the stack; its first frame is drawn at the next refresh.
        await wait_until(pilot, lambda: "Rotated the stream key" in text_capture(app))
        assert rotated != first["key"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: f"…{rotated[-4:]}, in force" in shown(screen, "stream-keys"))
    new, old = await keys_on_the_server(live_server, event["_id"])  # newest first
    assert (new["hint"], new["revokedAt"]) == (rotated[-4:], None) and old["revokedAt"] is not None


async def test_revoking_the_key_asks_first_and_leaves_none_in_force(live_server):
    event = await create_event(live_server)
    await make_key(live_server, event["_id"])
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])
        await wait_until(pilot, lambda: "in force" in shown(screen, "stream-keys"))
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "Its encoder is cut off and refused" in str(app.screen.query_one("#question").render())
        await pilot.press("y")
        await wait_until(pilot, lambda: "none in force" in shown(screen, "stream-keys"))
        assert any("revoked" in str(n.message) for n in app._notifications)
    assert all(k["revokedAt"] for k in await keys_on_the_server(live_server, event["_id"]))


async def test_take_over_asks_first_and_is_refused_while_nobody_publishes_then_allowed(live_server):
    event = await create_event(live_server)
    key = (await make_key(live_server, event["_id"]))["key"]
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])
        await wait_until(pilot, lambda: "in force" in shown(screen, "stream-keys"))
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "take over for 2 minutes" in str(app.screen.query_one("#question").render())
        await pilot.press("y")
        await wait_until(pilot, lambda: any("Nobody is publishing" in str(n.message) for n in app._notifications))
        # An encoder publishes with the key, as nginx-rtmp tells the server.
        form = {"call": "publish", "app": "live", "name": key, "addr": "127.0.0.1", "clientid": "1"}
        async with httpx.AsyncClient() as nginx:
            said = await nginx.post(f"{live_server.url}{PUBLISH_PATH}?hook={hook_secret(SECRET)}", data=form)
        assert said.status_code == 204
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: "take-over allowed" in shown(screen, "stream-keys"))
        assert any("takes over" in str(n.message) for n in app._notifications)


async def open_settings(pilot, app, event: dict) -> tuple[LiveControlScreen, IngestSettingsScreen]:
    """Live control with `event` picked and its ingest read, and its settings form open (a)."""
    screen = await open_live(pilot, app)
    await pick(pilot, screen, event["title"])
    await wait_until(pilot, lambda: "Rewind" in shown(screen, "ingest-output"))
    await pilot.press("a")
    await wait_until(pilot, lambda: isinstance(app.screen, IngestSettingsScreen))
    assert isinstance(app.screen, IngestSettingsScreen)
    return screen, app.screen


async def test_a_arms_the_events_auto_start_and_sets_its_rewind_on_the_server(live_server):
    event = await create_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen, form = await open_settings(pilot, app, event)
        assert form.query_one("#autostart", Select).value == "kickoff"
        assert form.query_one("#rewind", Input).value == "120"  # the server's two hours
        form.query_one("#autostart", Select).value = "armed"
        form.query_one("#rewind", Input).value = ""
        await pilot.click("#rewind")
        await pilot.press(*"45", "enter")
        await wait_until(pilot, lambda: app.screen is screen)
        await wait_until(pilot, lambda: "Go live  armed" in shown(screen, "ingest-output"))
        assert "Rewind   45 min" in shown(screen, "ingest-output")
        assert any("goes live armed; rewind 45 min" in str(n.message) for n in app._notifications)
    health = await ingest_on_the_server(live_server, event["_id"])
    assert (health["autostart"], health["dvrSeconds"]) == (True, 45 * 60)


async def test_a_rewind_out_of_range_is_said_inline_and_nothing_is_sent(live_server):
    event = await create_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen, form = await open_settings(pilot, app, event)
        form.query_one("#rewind", Input).value = "2000"
        await pilot.click("#save")
        await wait_until(pilot, lambda: "1 to 1440 minutes" in str(form.query_one("#error", Label).render()))
        assert app.screen is form
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
    health = await ingest_on_the_server(live_server, event["_id"])
    assert (health["autostart"], health["dvrSeconds"]) == (None, 7200)
