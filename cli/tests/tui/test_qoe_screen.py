"""The QoE screen of `touchline admin` (Q), driven by Textual's pilot: every live event's QoE over
the last 30 minutes, refreshed; the selected event's figures, its viewers' and rebuffering's
sparklines and its live input's health side by side; its outage credit, which admin staff
trigger or cancel after confirming. On fixed answers (FixedApi), and on a real test server after
scripted viewers played an event."""

import asyncio
from datetime import UTC, datetime, timedelta

from textual.widgets import DataTable, Sparkline, Static

from cli.admin_client import AdminApiError
from cli.tests import qoe_viewers
from cli.tui.app import TouchlineAdmin
from cli.tui.qoe import PERIOD, IngestBeside, QoeScreen
from cli.tui.qoe_panel import QoePanel
from cli.tui.widgets import ConfirmScreen, HelpScreen

from .fixed_data import LIVE_EVENTS, OUTAGE_CREDIT, QOE_REBUFFERING, QOE_REPORT, QOE_VIEWERS, FixedApi
from .test_admin_tui import SIZE, cells, staff_api, wait_until
from .test_dashboard_qoe import live_event

HARBOR = LIVE_EVENTS[0]["_id"]
SECOND = "5b1c0a8e2b3d4c5e6f7a8b99"


async def open_qoe(pilot, app) -> QoeScreen:
    await pilot.press("Q")
    screen = app.screen
    assert isinstance(screen, QoeScreen)
    await wait_until(pilot, lambda: screen.query_one("#events", DataTable).row_count > 0)
    return screen


def text_of(screen: QoeScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def instant(value: str | None) -> datetime:
    return datetime.fromisoformat(str(value).replace("Z", "+00:00"))


def notified(app, text: str) -> bool:
    return any(text in str(n.message) for n in app._notifications)


# --- on fixed answers ---------------------------------------------------------------------------------


async def test_each_live_event_is_a_row_of_its_figures_and_the_selected_one_has_its_panels():
    app = TouchlineAdmin(FixedApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        assert cells(screen.query_one("#events", DataTable)) == [
            ["Harbor City vs Riverside", "256", "412", "1.2 %", "1.18 s", "6", "live", ""]
        ]
        await wait_until(pilot, lambda: "Plays" in text_of(screen, "#qoe-figures"))
        assert text_of(screen, "#qoe-figures").splitlines() == [
            "Plays    412 · 380 viewers",
            "Failed   6 tech · 21 business",
            "Exits    9 before the first frame",
            "Startup  p50 1.18 s · p95 3.42 s",
            "Rebuf    1.2 % · 37 min 8 s stalled",
            "Bitrate  2,840 kbit/s",
            "Watched  50 h 56 min · 256 now",
        ]
        # The sparklines: the viewers of each step, and its rebuffering (none where nothing played).
        assert list(screen.query_one("#viewers-trend", Sparkline).data or []) == QOE_VIEWERS
        rebuffering = list(screen.query_one("#rebuffering-trend", Sparkline).data or [])
        assert rebuffering == [ratio or 0.0 for ratio in QOE_REBUFFERING]
        # Beside them, the same event's live input, as live control's ingest panel shows it.
        ingest = screen.query_one(IngestBeside)
        assert ingest.follows(HARBOR)
        await wait_until(pilot, lambda: "live · publishing" in str(ingest.query_one("#ingest-encoder").render()))
        await wait_until(pilot, lambda: "Credit" in text_of(screen, "#qoe-credit"))
        assert text_of(screen, "#qoe-credit").splitlines() == [
            "Credit   refund due 17:56 UTC",
            "Outages  11 min of 10 min",
        ]
        assert screen.query_one(QoePanel).border_title == "QoE, last 30 min"
        assert text_of(screen, "#qoe-status") == "1 live event, 0 with a QoE alert"


class TwoLiveEvents(FixedApi):
    """Two live events: Harbor City, whose viewers stall (its alert raised), and a second one.
    It records the QoE calls and counts the outage credit's."""

    def __init__(self, role: str = "admin"):
        super().__init__(role)
        self.asked: list[tuple[str, str | None]] = []
        self.plays = {HARBOR: 412, SECOND: 35}
        self.credit_calls: list[tuple[str, str]] = []
        self.credit: dict | None = None  # as the last trigger or cancel left it
        self.refusal: AdminApiError | None = None

    async def events(self, status: str | None = None, size: int = 100) -> list[dict]:
        second = {**LIVE_EVENTS[0], "_id": SECOND, "title": "Second Live Match"}
        return [LIVE_EVENTS[0], second] if status == "live" else await super().events(status, size)

    async def event(self, event_id: str) -> dict:
        return next(e for e in await self.events("live") if e["_id"] == event_id)

    async def qoe(self, event_id: str, since: str | None = None) -> dict:
        self.asked.append((event_id, since))
        stalling = event_id == HARBOR
        return {
            **QOE_REPORT,
            "event": event_id,
            "plays": self.plays[event_id],
            "rebufferingRatio": 0.08 if stalling else 0.004,
            "alerts": {"rebuffering": stalling, "startFailures": False},
        }

    async def outage_credit(self, event_id: str) -> dict:
        self.credit_calls.append(("show", event_id))
        return {**OUTAGE_CREDIT, "event": event_id, "credit": self.credit, "outages": [], "outageSeconds": 0}

    async def _changed(self, verb: str, event_id: str, status: str) -> dict:
        self.credit_calls.append((verb, event_id))
        if self.refusal is not None:
            raise self.refusal
        self.credit = {**OUTAGE_CREDIT["credit"], "status": status}
        return await self.outage_credit(event_id)

    async def trigger_outage_credit(self, event_id: str) -> dict:
        return await self._changed("trigger", event_id, "scheduled")

    async def cancel_outage_credit(self, event_id: str) -> dict:
        return await self._changed("cancel", event_id, "cancelled")


async def test_an_event_with_a_raised_alert_is_flagged_in_its_row_and_on_its_panel():
    app = TouchlineAdmin(TwoLiveEvents(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        await wait_until(pilot, lambda: screen.query_one("#events", DataTable).row_count == 2)
        rows = cells(screen.query_one("#events", DataTable))
        assert (rows[0][3], rows[0][-1]) == ("8.0 %", "⚠") and rows[1][-1] == ""
        panel = screen.query_one(QoePanel)
        await wait_until(pilot, lambda: panel.has_class("alert"))
        assert panel.border_title == "QoE, last 30 min · ⚠ rebuffering"
        assert text_of(screen, "#qoe-status") == "2 live events, 1 with a QoE alert"


async def test_moving_to_another_event_shows_its_figures_and_its_live_input():
    api = TwoLiveEvents()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        await wait_until(pilot, lambda: screen.selected == HARBOR)
        await pilot.press("down")
        await wait_until(pilot, lambda: screen.selected == SECOND)
        await wait_until(pilot, lambda: "Plays    35 ·" in text_of(screen, "#qoe-figures"))
        assert not screen.query_one(QoePanel).has_class("alert")
        assert screen.query_one(IngestBeside).follows(SECOND)
        await wait_until(pilot, lambda: ("show", SECOND) in api.credit_calls)


async def test_every_live_events_qoe_is_asked_over_the_last_30_minutes_and_again_at_each_refresh():
    api = TwoLiveEvents()
    app = TouchlineAdmin(api, refresh_seconds=0.2)
    asked_at = datetime.now(UTC)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        await wait_until(pilot, lambda: screen.selected == HARBOR)
        await pilot.press("down")  # the selection survives the refreshes
        await wait_until(pilot, lambda: screen.selected == SECOND)
        api.plays[SECOND] = 36
        await wait_until(pilot, lambda: "Plays    36 ·" in text_of(screen, "#qoe-figures"))
        assert [row[2] for row in cells(screen.query_one("#events", DataTable))] == ["412", "36"]
        assert screen.selected == SECOND
        # The dashboard asks too, over the alerts' five minutes: these are the screen's.
        periods = [(event, instant(since) - asked_at) for event, since in api.asked]
        asked = [(event, ago) for event, ago in periods if ago < -timedelta(minutes=10)]
        assert {event for event, _ in asked} == {HARBOR, SECOND} and len(asked) > 2
        assert all(abs(ago + PERIOD) < timedelta(seconds=30) for _, ago in asked)


async def test_admin_staff_trigger_the_credit_after_confirming_and_cancel_it_likewise():
    api = TwoLiveEvents()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        await wait_until(pilot, lambda: "none scheduled" in text_of(screen, "#qoe-credit"))
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # not confirmed: nothing is asked
        await pilot.pause(0.2)
        assert [call for call in api.credit_calls if call[0] != "show"] == []

        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: ("trigger", HARBOR) in api.credit_calls)
        await wait_until(pilot, lambda: "refund due 17:56 UTC" in text_of(screen, "#qoe-credit"))
        await wait_until(pilot, lambda: notified(app, "Harbor City vs Riverside: credit scheduled to run now"))

        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: "Credit   cancelled" in text_of(screen, "#qoe-credit"))
        assert ("cancel", HARBOR) in api.credit_calls


async def test_a_refused_credit_change_is_the_servers_message_and_the_credit_stays_as_shown():
    api = TwoLiveEvents()
    api.refusal = AdminApiError("This event has no scheduled credit", "no_scheduled_credit", 409)
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        await wait_until(pilot, lambda: "none scheduled" in text_of(screen, "#qoe-credit"))
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: notified(app, "This event has no scheduled credit"))
        assert "none scheduled" in text_of(screen, "#qoe-credit")


async def test_support_staff_see_the_credit_but_its_actions_are_disabled():
    api = TwoLiveEvents(role="support")
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        await wait_until(pilot, lambda: "none scheduled" in text_of(screen, "#qoe-credit"))
        assert screen.check_action("trigger_credit", ()) is None and screen.check_action("cancel_credit", ()) is None
        await pilot.press("t")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, ConfirmScreen)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_text = str(app.screen.query_one("#help-text", Static).render())
        assert "Credit now (disabled: needs the admin role" in help_text
        assert "Quality of experience" in help_text  # the app's key to this screen, Q


async def test_without_live_events_the_screen_says_so():
    class NothingLive(FixedApi):
        async def events(self, status: str | None = None, size: int = 100) -> list[dict]:
            return [] if status == "live" else await super().events(status, size)

    app = TouchlineAdmin(NothingLive(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("Q")
        screen = app.screen
        assert isinstance(screen, QoeScreen)
        await wait_until(pilot, lambda: text_of(screen, "#qoe-status") == "0 live events, 0 with a QoE alert")
        assert "No event is live." in text_of(screen, "#qoe-figures")


# --- against the test server --------------------------------------------------------------------------


async def test_the_screen_shows_what_the_server_counted_of_the_viewers_who_played(live_server):
    event = await live_event(live_server)
    views = qoe_viewers.the_evening(event["_id"], stall_ms=4_000)
    await asyncio.to_thread(qoe_viewers.send, live_server.url, views)

    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        table = screen.query_one("#events", DataTable)
        await wait_until(pilot, lambda: event["_id"] in [row.value for row in table.rows])
        table.move_cursor(row=table.get_row_index(event["_id"]))
        await wait_until(pilot, lambda: screen.selected == event["_id"])
        row = cells(table)[table.get_row_index(event["_id"])]
        assert row[1:] == ["4", "7", "3.2 %", "1.00 s", "1", "idle", ""]
        figures = text_of(screen, "#qoe-figures").splitlines()
        assert figures[:4] == [
            "Plays    7 · 6 viewers",
            "Failed   1 tech · 1 business",
            "Exits    1 before the first frame",
            "Startup  p50 1.00 s · p95 3.00 s",
        ]
        # Every view was played within a step or two of the last 30 minutes: the rest is zero.
        viewers = list(screen.query_one("#viewers-trend", Sparkline).data or [])
        assert len(viewers) > 60 and 0 < max(viewers) <= qoe_viewers.PLAYS and viewers.count(0) >= len(viewers) - 2
        ingest = screen.query_one(IngestBeside)
        await wait_until(pilot, lambda: "idle · no encoder" in str(ingest.query_one("#ingest-encoder").render()))
        await wait_until(pilot, lambda: "none scheduled" in text_of(screen, "#qoe-credit"))


async def test_the_servers_refusal_to_credit_a_free_event_is_notified(live_server):
    event = await live_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_qoe(pilot, app)
        table = screen.query_one("#events", DataTable)
        await wait_until(pilot, lambda: event["_id"] in [row.value for row in table.rows])
        table.move_cursor(row=table.get_row_index(event["_id"]))
        await wait_until(pilot, lambda: screen.selected == event["_id"])
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: notified(app, "This event has no pay-per-view product"))
