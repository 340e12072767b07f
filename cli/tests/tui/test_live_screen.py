"""The Live control screen of `touchline admin` (v), driven by Textual's pilot: against a real test
server (cli/tests/conftest.py) for what it changes and what the watched room receives, and on
fixed answers (FixedApi) for what a support session may do."""

import uuid

from textual.widgets import DataTable, Input, Label, RichLog, Select, Static, TextArea

from cli.admin_client import AdminClient
from cli.asyncapi_messages import server_messages
from cli.tui.api import AdminApi
from cli.tui.app import TouchlineAdmin
from cli.tui.live import LiveControlScreen, MessageScreen, StreamScreen
from cli.tui.widgets import ConfirmScreen, HelpScreen

from .fixed_data import LIVE_EVENTS, FixedApi
from .test_admin_tui import SIZE, staff_api, wait_until

SOCKET_TRIES = 200  # 10 s: signing in and opening the socket take longer than a screen update


async def create_event(server) -> dict:
    """An upcoming event of its own (the module's database is shared by its tests), with a kickoff
    far enough ahead that the server's kickoff job leaves it upcoming."""
    api = staff_api(server)
    event = await api.post(
        "/admin/events",
        {"title": f"Tui Live {uuid.uuid4().hex[:6]}", "event_date": "2099-06-01T18:00:00Z", "sportType": "football"},
    )
    await api.aclose()
    return event


async def on_the_server(server, event_id: str) -> dict:
    api = staff_api(server)
    try:
        return await api.event(event_id)
    finally:
        await api.aclose()


async def open_live(pilot, app) -> LiveControlScreen:
    await pilot.press("v")
    screen = app.screen
    assert isinstance(screen, LiveControlScreen)
    return screen


async def pick(pilot, screen: LiveControlScreen, title: str) -> None:
    """Filter the list by the end of the title (unique here) and pick the one row left (Enter)."""
    table = screen.query_one("#events", DataTable)
    await wait_until(pilot, lambda: table.row_count > 0)
    await pilot.press("slash", *title[-6:], "enter")
    await wait_until(pilot, lambda: table.row_count == 1 and table.has_focus)
    await pilot.press("enter")
    await wait_until(pilot, lambda: screen.event is not None and screen.event.get("title") == title)


def panel(screen: LiveControlScreen) -> str:
    """What the room panel shows, its wrapped lines joined back."""
    return "".join(strip.text.rstrip() for strip in screen.query_one("#room", RichLog).lines)


def in_room(screen: LiveControlScreen, text: str) -> bool:
    """`text` is in the room panel; a line wrapped at a space loses it, so spaces are not compared."""
    return text.replace(" ", "") in panel(screen).replace(" ", "")


async def watch(pilot, screen: LiveControlScreen) -> None:
    await pilot.press("w")
    await wait_until(pilot, lambda: in_room(screen, "Watching event:"), SOCKET_TRIES)


async def type_payload(pilot, text: str) -> None:
    await pilot.click("#payload")
    await pilot.press("f7", *text)  # f7 selects all: the typing replaces the example


# --- against the test server ------------------------------------------------------------------------


async def test_switch_the_stream_and_see_the_room_receive_the_new_url(live_server):
    event = await create_event(live_server)
    url = f"https://cdn.test/{uuid.uuid4().hex[:6]}.m3u8"
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])
        await watch(pilot, screen)
        assert screen.watching == f"event:{event['_id']}"

        await pilot.press("s")
        assert isinstance(app.screen, StreamScreen)
        await pilot.press(*url, "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")

        await wait_until(pilot, lambda: "event-url-change" in panel(screen) and url in panel(screen), SOCKET_TRIES)
        assert f'"eventId":"{event["_id"]}"' in panel(screen)
        await wait_until(pilot, lambda: url in str(screen.query_one("#detail", Static).render()))

    stored = await on_the_server(live_server, event["_id"])
    assert stored["content"]["HLSStream"] == url and stored["status"] == "live"  # an upcoming event goes live


async def test_go_live_then_finish_through_the_screen_changes_the_event_on_the_server(live_server):
    event = await create_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])

        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.event is not None and screen.event["status"] == "live")
        assert (await on_the_server(live_server, event["_id"]))["status"] == "live"
        table = screen.query_one("#events", DataTable)
        await wait_until(pilot, lambda: [str(c) for c in table.get_row(event["_id"])][1] == "live")

        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # cancelled: nothing happens
        await pilot.pause(0.2)
        assert (await on_the_server(live_server, event["_id"]))["status"] == "live"

        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.event is not None and screen.event["status"] == "archived")
    assert (await on_the_server(live_server, event["_id"]))["status"] == "archived"


async def test_a_payload_the_schema_refuses_is_not_sent_and_a_valid_one_reaches_the_watched_room(live_server):
    event = await create_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])
        await watch(pilot, screen)

        await pilot.press("m")
        modal = app.screen
        assert isinstance(modal, MessageScreen)
        options = modal.query_one("#message", Select)
        assert options.value == "event-url-change"
        assert [value for _, value in options._options] == server_messages()  # every declared server message
        assert modal.query_one("#room", Input).value == f"event:{event['_id']}"

        await type_payload(pilot, '{"eventUrl": "ftp://a"}')
        await pilot.click("#send")
        error = str(modal.query_one("#error", Label).render())
        assert "eventUrl: 'ftp://a' does not match" in error
        assert app.screen is modal  # refused inline: the modal stays open
        await type_payload(pilot, '{"e')
        await pilot.click("#send")
        assert "is not JSON" in str(modal.query_one("#error", Label).render())
        await pilot.pause(0.5)
        assert "event-url-change" not in panel(screen)  # nothing was sent

        url = f"/media/live/{uuid.uuid4().hex[:6]}"
        await type_payload(pilot, f'{{"eventUrl": "{url}"}}')
        await pilot.click("#send")
        await wait_until(pilot, lambda: app.screen is screen)
        await wait_until(pilot, lambda: "event-url-change" in panel(screen) and url in panel(screen), SOCKET_TRIES)
        assert any("Sent event-url-change" in str(n.message) for n in app._notifications)


async def test_another_message_is_prefilled_with_its_example_for_the_picked_room(live_server):
    event = await create_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])
        await watch(pilot, screen)

        await pilot.press("m")
        modal = app.screen
        assert isinstance(modal, MessageScreen)
        modal.query_one("#message", Select).value = "update-event"
        payload = modal.query_one("#payload", TextArea)
        await wait_until(pilot, lambda: '"status": "archived"' in payload.text)
        assert f'"eventId": "{event["_id"]}"' in payload.text  # the example's id is the room's
        await pilot.click("#send")
        await wait_until(pilot, lambda: "update-event" in panel(screen), SOCKET_TRIES)
    assert (await on_the_server(live_server, event["_id"]))["status"] == "upcoming"  # a message changes no data


async def test_an_api_key_session_is_told_it_cannot_watch_and_the_rest_stays_usable(live_server):
    event = await create_event(live_server)
    admin = staff_api(live_server)
    key = await admin.post("/admin/keys", {"role": "admin", "name": f"tui {uuid.uuid4().hex[:6]}"})
    await admin.aclose()
    app = TouchlineAdmin(AdminApi(AdminClient(live_server.url, None, api_key=key["secret"])), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, event["title"])
        await pilot.press("w")
        await wait_until(pilot, lambda: any("API key" in str(n.message) for n in app._notifications))
        await wait_until(pilot, lambda: screen.watching is None)

        await pilot.press("l")  # the rest works with the key
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.event is not None and screen.event["status"] == "live")
    assert (await on_the_server(live_server, event["_id"]))["status"] == "live"


# --- on fixed answers -------------------------------------------------------------------------------


async def test_a_support_session_sees_the_admin_actions_disabled_with_the_reason():
    app = TouchlineAdmin(FixedApi(role="support"), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, LIVE_EVENTS[0]["title"])
        for action in ("go_live", "finish", "switch_stream", "send_message"):
            assert screen.check_action(action, ()) is None, action
        assert screen.check_action("watch", ()) is True  # the server lets support watch a room
        await pilot.press("l", "s", "m")
        assert app.screen is screen  # no confirmation, no modal
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text").render())
        for name in ("Go live", "Finish", "Stream", "Message"):
            assert f"{name} (disabled: needs the admin role" in help_text
        assert "Watch (disabled" not in help_text


async def test_a_stream_url_that_is_not_http_or_a_path_is_refused_inline():
    app = TouchlineAdmin(FixedApi(), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, LIVE_EVENTS[0]["title"])
        await pilot.press("s")
        modal = app.screen
        assert isinstance(modal, StreamScreen)
        await pilot.press(*"ftp://a", "enter")
        assert app.screen is modal
        assert "An http(s) URL" in str(modal.query_one("#error", Label).render())
        await pilot.press("escape")
        assert app.screen is screen


async def test_picking_another_event_stops_watching_the_former_room():
    app = TouchlineAdmin(FixedApi(), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, app)
        await pick(pilot, screen, LIVE_EVENTS[0]["title"])
        await watch(pilot, screen)
        await wait_until(pilot, lambda: in_room(screen, "17:30:02 event-url-change"))
        await pick(pilot, screen, LIVE_EVENTS[1]["title"])  # the search's text is selected: typing replaces it
        assert screen.watching is None
        assert in_room(screen, f"Stopped watching event:{LIVE_EVENTS[0]['_id']}")
        await pilot.press("w")  # w watches the picked event's room; again stops
        await wait_until(pilot, lambda: screen.watching == f"event:{LIVE_EVENTS[1]['_id']}")
        await pilot.press("w")
        assert screen.watching is None
