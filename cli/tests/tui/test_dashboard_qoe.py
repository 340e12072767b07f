"""The dashboard's QoE flags (issue 32 §2): a live event whose viewers' QoE alert is raised is marked
"QoE ⚠" and named on a warning line, from each refresh's QoE read over the alerts' five minutes
and from the `qoe-alert`s of the live events' rooms in between. On fixed answers (FixedApi), and
on a real test server after scripted viewers stalled."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from textual.widgets import DataTable, Static

from cli.room_watch import RoomMessage
from cli.tests import qoe_viewers
from cli.tui.app import TouchlineAdmin
from cli.tui.dashboard import DashboardScreen
from cli.tui.qoe_alerts import ALERT_WINDOW

from .fixed_data import MONITOR, QOE_REPORT, FixedApi
from .test_admin_tui import SIZE, staff_api, wait_until
from .test_live_screen import create_event

STALLING = "6f1c0a8e2b3d4c5e6f7a8c01"
FAILING = "6f1c0a8e2b3d4c5e6f7a8c02"
FINE = "6f1c0a8e2b3d4c5e6f7a8c03"
CALM = {"rebuffering": False, "startFailures": False}


def _live(event_id: str, title: str) -> dict:
    return {"_id": event_id, "title": title, "event_date": "2026-11-24T17:30:00Z", "sockets": 3}


class ThreeAudiences(FixedApi):
    """Three live events: one whose viewers stall, one whose plays fail to start, one fine. It
    records the `since` of each QoE call and hands every alert watch what tell() sends."""

    def __init__(self):
        super().__init__()
        self.reports = {
            STALLING: {**QOE_REPORT, "rebufferingRatio": 0.08, "alerts": {**CALM, "rebuffering": True}},
            FAILING: {
                **QOE_REPORT,
                "plays": 20,
                "startFailures": {"technical": 6, "business": 0},
                "alerts": {**CALM, "startFailures": True},
            },
            FINE: QOE_REPORT,
        }
        self.asked: list[tuple[str, str | None]] = []
        self.watched: list[tuple[str, ...]] = []
        self._inboxes: list[asyncio.Queue[RoomMessage]] = []

    async def monitor(self, limit: int = 10) -> dict:
        live = [_live(STALLING, "Stall Cup"), _live(FAILING, "Failing Final"), _live(FINE, "Fine Friendly")]
        return {**MONITOR, "liveEvents": live}

    async def qoe(self, event_id: str, since: str | None = None) -> dict:
        self.asked.append((event_id, since))
        return {**self.reports[event_id], "event": event_id}

    def tell(self, payload: dict) -> None:
        for inbox in self._inboxes:
            inbox.put_nowait(RoomMessage("qoe-alert", payload, "2026-11-24T18:00:02Z"))

    @asynccontextmanager
    async def qoe_alerts(self, event_ids) -> AsyncIterator[AsyncIterator[RoomMessage]]:
        inbox: asyncio.Queue[RoomMessage] = asyncio.Queue()
        self.watched.append(tuple(event_ids))
        self._inboxes.append(inbox)

        async def received() -> AsyncIterator[RoomMessage]:
            while True:
                yield await inbox.get()

        try:
            yield received()
        finally:
            self._inboxes.remove(inbox)


def titles(screen: DashboardScreen) -> dict[str, str]:
    table = screen.query_one("#live", DataTable)
    return {str(key.value): str(table.get_row(key)[0]) for key in table.rows}


def alert_line(screen: DashboardScreen) -> str:
    line = screen.query_one("#qoe-alert", Static)
    return str(line.render()) if line.display else ""


def notified(app, text: str) -> bool:
    return any(text in str(n.message) for n in app._notifications)


async def test_live_events_whose_qoe_alert_is_raised_are_marked_and_named_but_not_a_fine_one():
    api = ThreeAudiences()
    app = TouchlineAdmin(api, refresh_seconds=3600)  # the first refresh only
    asked_at = datetime.now(UTC)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: bool(alert_line(screen)))
        assert alert_line(screen) == (
            "QoE ⚠ Stall Cup: rebuffering 8.0 % · Failing Final: start failures 30.0 % of plays"
        )
        marked = titles(screen)
        assert marked[STALLING] == "QoE ⚠ Stall Cup" and marked[FAILING] == "QoE ⚠ Failing Final"
        assert marked[FINE] == "Fine Friendly"
        await wait_until(pilot, lambda: notified(app, "Stall Cup: rebuffering 8.0 %"))
        # One call per live event, over the window the server's alerts judge.
        assert sorted(event for event, _ in api.asked) == sorted([STALLING, FAILING, FINE])
        for _, since in api.asked:
            assert since is not None
            asked_since = datetime.fromisoformat(since.replace("Z", "+00:00"))
            assert abs(asked_since - (asked_at - ALERT_WINDOW)) < timedelta(seconds=30)


async def test_a_qoe_alert_from_the_socket_flags_an_event_at_once_and_its_end_clears_the_flag():
    api = ThreeAudiences()
    api.reports[STALLING] = api.reports[FAILING] = QOE_REPORT  # nothing raised when the dashboard opens
    app = TouchlineAdmin(api, refresh_seconds=3600)  # no refresh meanwhile: only the socket speaks
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: bool(api.watched) and bool(api._inboxes))
        assert set(api.watched[-1]) == {STALLING, FAILING, FINE}  # the live events' rooms
        assert alert_line(screen) == ""

        raised = {
            "eventId": FINE,
            "raised": True,
            "rebuffering": True,
            "startFailures": False,
            "rebufferingRatio": 0.12,
            "startFailureRate": 0.0,
            "plays": 40,
        }
        api.tell(raised)
        await wait_until(pilot, lambda: titles(screen)[FINE] == "QoE ⚠ Fine Friendly")
        assert alert_line(screen) == "QoE ⚠ Fine Friendly: rebuffering 12.0 %"
        await wait_until(pilot, lambda: notified(app, "Fine Friendly: rebuffering 12.0 %"))

        api.tell({**raised, "raised": False, "rebuffering": False, "rebufferingRatio": 0.01})
        await wait_until(pilot, lambda: titles(screen)[FINE] == "Fine Friendly")
        assert alert_line(screen) == ""


async def test_an_alert_and_an_ingest_in_trouble_both_mark_the_row():
    class InterruptedToo(ThreeAudiences):
        async def ingest(self, event_id: str) -> dict:
            health = await super().ingest(event_id)
            return {**health, "state": "interrupted"} if event_id == STALLING else health

    app = TouchlineAdmin(InterruptedToo(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: bool(alert_line(screen)))
        assert titles(screen)[STALLING] == "! QoE ⚠ Stall Cup"


# --- against the test server ------------------------------------------------------------------------


async def live_event(server) -> dict:
    event = await create_event(server)
    setup = staff_api(server)
    await setup.go_live(event["_id"])
    await setup.aclose()
    return event


async def test_the_dashboard_flags_a_live_event_whose_viewers_the_server_says_stall(live_server):
    event = await live_event(live_server)
    views = qoe_viewers.the_evening(event["_id"], stall_ms=20_000)
    await asyncio.to_thread(qoe_viewers.send, live_server.url, views)

    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: f"{event['title']}: rebuffering 14.3 %" in alert_line(screen))
        assert titles(screen)[event["_id"]] == f"QoE ⚠ {event['title']}"


async def test_the_servers_qoe_alert_reaches_an_open_dashboard_over_the_socket(live_server):
    event = await live_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=3600)  # one refresh: before the stalls
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: event["_id"] in titles(screen))
        await wait_until(pilot, lambda: event["_id"] in screen.alert_watch.events and screen.alert_watch.watching)
        assert event["title"] not in alert_line(screen)  # (the module's other live events may stall)
        views = qoe_viewers.the_evening(event["_id"], stall_ms=20_000)
        await asyncio.to_thread(qoe_viewers.send, live_server.url, views)
        # The server's qoe-alerts job looks every 10 s (TOUCHLINE_QOE_ALERT_INTERVAL_SECONDS).
        await wait_until(pilot, lambda: titles(screen)[event["_id"]] == f"QoE ⚠ {event['title']}", timeout=40)
        assert f"{event['title']}: rebuffering 14.3 %" in alert_line(screen)


async def test_watching_the_qoe_rooms_leaves_no_line_in_the_audit_log(live_server):
    """The watch opens by itself at every dashboard: it must not log its staff as reading mail."""
    event = await live_event(live_server)
    check = staff_api(live_server)
    before = (await check.audit({"action": "list_outbox"}))["entries"]
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: event["_id"] in screen.alert_watch.events and screen.alert_watch.watching)
    await asyncio.sleep(0.5)  # what the server records after an answer is recorded by now
    assert (await check.audit({"action": "list_outbox"}))["entries"] == before
    await check.aclose()
