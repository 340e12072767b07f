"""Snapshots of the staff console's main screens at 80×24 (pytest-textual-snapshot), on fixed
data (FixedApi, MediaLibraryApi: no server, no clock). A change to a screen's look fails here
until the new picture is accepted with `pytest cli/tests/tui/test_snapshots.py --snapshot-update`
and the SVGs under __snapshots__/ are reviewed and committed. Baselines are made on CI's Python."""

from textual.pilot import Pilot
from textual.widgets import DataTable, TabbedContent

from cli.tui.app import TouchlineAdmin

from .fixed_data import MEDIA_ASSETS, QOE_REPORT, FixedApi, MediaLibraryApi
from .test_admin_tui import wait_until

SIZE = (80, 24)


def console(role: str = "admin") -> TouchlineAdmin:
    return TouchlineAdmin(FixedApi(role=role), refresh_seconds=3600)


async def settled(pilot: Pilot) -> None:
    """Let the screen's workers finish (FixedApi answers at once) and the cursor stop blinking."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def dashboard_loaded(pilot: Pilot) -> None:
    await settled(pilot)
    assert pilot.app.screen.query_one("#live", DataTable).row_count == 1


async def account_opened(pilot: Pilot) -> None:
    """Users: search "ada" and open the account found."""
    await settled(pilot)
    await pilot.press("u")
    await pilot.click("#query")
    await pilot.press(*"ada", "enter")
    await settled(pilot)
    pilot.app.screen.query_one("#results", DataTable).focus()
    await pilot.press("enter")
    await settled(pilot)


def test_the_dashboard(snap_compare):
    assert snap_compare(console(), terminal_size=SIZE, run_before=dashboard_loaded)


def test_the_dashboard_of_a_support_session(snap_compare):
    assert snap_compare(console("support"), terminal_size=SIZE, run_before=dashboard_loaded)


def test_the_help_screen_of_the_dashboard(snap_compare):
    async def help_open(pilot: Pilot) -> None:
        await dashboard_loaded(pilot)
        await pilot.press("question_mark")
        await settled(pilot)

    assert snap_compare(console(), terminal_size=SIZE, run_before=help_open)


def test_the_users_screen_with_an_account_picked(snap_compare):
    assert snap_compare(console(), terminal_size=SIZE, run_before=account_opened)


def test_the_users_screen_on_an_accounts_mail(snap_compare):
    async def mail_tab(pilot: Pilot) -> None:
        await account_opened(pilot)
        pilot.app.screen.query_one(TabbedContent).active = "mail-tab"
        await settled(pilot)

    assert snap_compare(console("support"), terminal_size=SIZE, run_before=mail_tab)


def test_the_access_codes_screen_with_a_code_picked(snap_compare):
    async def picked(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("c")
        await settled(pilot)
        pilot.app.screen.query_one("#codes", DataTable).focus()
        await pilot.press("enter")
        await settled(pilot)

    assert snap_compare(console(), terminal_size=SIZE, run_before=picked)


def test_the_access_codes_issue_form(snap_compare):
    async def form(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("c")
        await settled(pilot)
        pilot.app.screen.query_one("#codes", DataTable).focus()
        await pilot.press("i")
        # The issuing worker waits for the form's answer: settle on time, not on workers.
        await pilot.pause(0.3)
        await pilot.pause()

    assert snap_compare(console(), terminal_size=SIZE, run_before=form)


def test_live_control_watching_a_room(snap_compare):
    async def watching(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("v")
        await settled(pilot)
        pilot.app.screen.query_one("#events", DataTable).focus()
        await pilot.press("enter")
        await settled(pilot)
        await pilot.press("w")
        await pilot.pause(0.3)  # the watch runs for as long as the screen does: wait for its lines
        await pilot.pause()

    assert snap_compare(console(), terminal_size=SIZE, run_before=watching)


def test_live_control_of_a_support_session(snap_compare):
    async def opened(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("v")
        await settled(pilot)

    assert snap_compare(console("support"), terminal_size=SIZE, run_before=opened)


def test_the_audit_log(snap_compare):
    async def opened(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("a")
        await settled(pilot)
        pilot.app.screen.query_one("#entries", DataTable).focus()
        await settled(pilot)

    assert snap_compare(console(), terminal_size=SIZE, run_before=opened)


def media_console() -> TouchlineAdmin:
    return TouchlineAdmin(MediaLibraryApi(), refresh_seconds=3600)


async def queue_shown(pilot: Pilot) -> None:
    """The dashboard with the transcoding queue. The queue's socket stays open: settle on what
    is shown, not on workers."""
    screen = pilot.app.screen
    await wait_until(pilot, lambda: screen.query_one("#media-queue", DataTable).row_count == 2)
    await wait_until(pilot, lambda: screen.query_one("#live", DataTable).row_count == 1)
    await wait_until(pilot, lambda: screen.query_one("#media-failed").display)
    await pilot.pause()


def test_the_dashboard_with_the_transcoding_queue(snap_compare):
    assert snap_compare(media_console(), terminal_size=SIZE, run_before=queue_shown)


def test_the_media_screen_with_a_job_running(snap_compare):
    async def running_selected(pilot: Pilot) -> None:
        await queue_shown(pilot)
        await pilot.press("M")
        screen = pilot.app.screen
        table = screen.query_one("#assets", DataTable)
        await wait_until(pilot, lambda: table.row_count == len(MEDIA_ASSETS))
        table.move_cursor(row=1)  # the upload being transcoded
        await wait_until(pilot, lambda: "running 42 %" in str(screen.query_one("#asset-detail").render()))
        await pilot.pause()

    assert snap_compare(media_console(), terminal_size=SIZE, run_before=running_selected)


def test_the_media_screen_of_a_support_session_on_a_failed_upload(snap_compare):
    async def failed_selected(pilot: Pilot) -> None:
        await pilot.press("M")
        screen = pilot.app.screen
        table = screen.query_one("#assets", DataTable)
        await wait_until(pilot, lambda: table.row_count == len(MEDIA_ASSETS))
        table.move_cursor(row=2)  # the upload whose transcoding failed
        await wait_until(pilot, lambda: "moov atom" in str(screen.query_one("#asset-detail").render()))
        await pilot.pause()

    assert snap_compare(
        TouchlineAdmin(MediaLibraryApi(role="support"), refresh_seconds=3600),
        terminal_size=SIZE,
        run_before=failed_selected,
    )


class StallingApi(FixedApi):
    """The live event's viewers stall: its QoE alert is raised."""

    async def qoe(self, event_id: str, since: str | None = None) -> dict:
        alerts = {"rebuffering": True, "startFailures": False}
        return {**QOE_REPORT, "event": event_id, "rebufferingRatio": 0.08, "alerts": alerts}


def test_the_dashboard_with_a_qoe_alert(snap_compare):
    async def flagged(pilot: Pilot) -> None:
        await dashboard_loaded(pilot)
        await wait_until(pilot, lambda: pilot.app.screen.query_one("#qoe-alert").display)
        pilot.app.clear_notifications()  # the toast would hide the tables' corner
        await pilot.pause()

    assert snap_compare(TouchlineAdmin(StallingApi(), refresh_seconds=3600), terminal_size=SIZE, run_before=flagged)


def test_the_qoe_screen(snap_compare):
    async def opened(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("Q")
        await settled(pilot)

    assert snap_compare(console(), terminal_size=SIZE, run_before=opened)


def test_the_qoe_screen_of_a_support_session_with_an_alert(snap_compare):
    async def opened(pilot: Pilot) -> None:
        await settled(pilot)
        await pilot.press("Q")
        await settled(pilot)
        pilot.app.clear_notifications()  # the dashboard's toast of the alert would hide the ingest panel
        await pilot.pause()

    app = TouchlineAdmin(StallingApi(role="support"), refresh_seconds=3600)
    assert snap_compare(app, terminal_size=SIZE, run_before=opened)
