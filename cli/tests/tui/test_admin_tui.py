"""`touchline admin` driven by Textual's pilot against a real test server (cli/tests/conftest.py)."""

import socket
import time
import uuid

from textual.widgets import DataTable

from cli.admin_client import AdminClient, StaffCredentials
from cli.tests.conftest import PASSWORD, register_and_confirm
from cli.tui.api import AdminApi
from cli.tui.app import TouchlineAdmin
from cli.tui.dashboard import DashboardScreen
from cli.tui.users import UsersScreen
from cli.tui.widgets import ConfirmScreen, HelpScreen

from .fixed_data import FixedApi

SIZE = (80, 24)
# What the screens wait for comes from a server in this process: seconds on a busy two-core machine.
WAIT_S = 20


def staff_api(server) -> AdminApi:
    return AdminApi(AdminClient(server.url, StaffCredentials(server.staff, PASSWORD), timeout=5))


async def wait_until(pilot, condition, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"the condition did not hold within {timeout} s")
        await pilot.pause(0.05)


def cells(table) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_the_dashboard_shows_a_live_event(live_server):
    title = f"Tui Live {uuid.uuid4().hex[:6]}"
    setup = staff_api(live_server)
    event = await setup.post(
        "/admin/events", {"title": title, "event_date": "2026-11-24T18:00:00Z", "sportType": "football"}
    )
    await setup.go_live(event["_id"])
    await setup.aclose()

    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=0.5)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: bool(screen.query("#live")))  # composed (a busy machine takes a moment)
        live = screen.query_one("#live", DataTable)
        await wait_until(pilot, lambda: any(row[0] == title for row in cells(live)))
        assert [row[2] for row in cells(live) if row[0] == title] == ["0"]  # no socket in its room
        assert app.api.role == "admin" and screen.check_action("go_live", ()) is True


async def test_search_a_user_and_remove_a_device_after_confirming(live_server):
    account = sign_up(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("u")
        screen = app.screen
        assert isinstance(screen, UsersScreen)
        assert screen.check_action("remove_device", ()) is None  # no account picked yet
        await pilot.click("#query")
        await pilot.press(*account["email"], "enter")
        results = screen.query_one("#results", DataTable)
        await wait_until(pilot, lambda: results.row_count == 1)
        results.focus()
        await pilot.press("enter")
        devices = screen.query_one("#devices", DataTable)
        await wait_until(pilot, lambda: devices.row_count == 1 and screen.user_id == account["userId"])

        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # cancelled: nothing happens
        await pilot.pause(0.2)
        assert devices.row_count == 1

        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#yes")
        await wait_until(pilot, lambda: devices.row_count == 0)
        assert any("Device removed" in str(n.message) for n in app._notifications)

    check = staff_api(live_server)
    assert await check.devices(account["userId"]) == []
    await check.aclose()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_it_starts_with_the_server_down_and_says_so(live_server):
    url = f"http://127.0.0.1:{_closed_port()}"
    api = AdminApi(AdminClient(url, StaffCredentials(live_server.staff, PASSWORD), timeout=2))
    app = TouchlineAdmin(api, refresh_seconds=0.3)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: screen.down is not None)
        status = str(screen.query_one("#status").render())
        assert "Server down" in status and url in status
        assert any("Cannot reach" in str(n.message) for n in app._notifications)
        # The server comes back (here: the client is pointed at it); the timer's next refresh recovers.
        api.client.base_url = live_server.url
        await wait_until(pilot, lambda: screen.down is None)
        assert "Server down" not in str(screen.query_one("#status").render())


def sign_up(server) -> dict:
    word = uuid.uuid4().hex[:10]
    device = f"Mozilla/5.0 TuiTest/{word}"
    answer = register_and_confirm(
        server.url,
        {
            "email": f"tui-{word}@example.com",
            "password": PASSWORD,
            "displayName": f"Tui Fan {word}",
            "device_id": device,
            "device_name": device,
            "strategy": "refresh",
        },
    )
    assert answer.status_code == 200, answer.text
    return {"userId": answer.json()["content"]["profile"]["userId"], "email": f"tui-{word}@example.com"}


async def test_a_support_session_sees_live_control_disabled_with_the_reason():
    app = TouchlineAdmin(FixedApi(role="support"), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: screen.query_one("#live", DataTable).row_count == 1)
        assert screen.check_action("go_live", ()) is None and screen.check_action("finish", ()) is None
        assert screen.check_action("refresh", ()) is True
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "Go live (disabled: needs the admin role" in str(app.screen.query_one("#help-text").render())
