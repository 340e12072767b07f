"""The QoE screen (Q): every live event with how its viewers' playback went over the last
PERIOD (GET /admin/events/{id}/qoe, one call per live event), asked again every few seconds.

The selected event (the row under the cursor) shows its figures with a sparkline of its viewers
and one of its rebuffering (cli/tui/qoe_panel.py), and beside them its live input's health (the
ingest panel of live control, cli/tui/ingest_panel.py), so a stall can be traced to the encoder
(a transcoder behind real time, a feed reconnecting) or to delivery (rebuffering while the input
is healthy). Below the figures, the event's outage credit: admin staff credit its buyers now (t)
or cancel a scheduled credit (x), each after a confirmation."""

import asyncio
import time
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

from rich.markup import escape
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from ..qoe_figures import percent_of, startup_of
from .api import ADMIN_ONLY, REFRESH_SECONDS, AdminApi, AdminApiError
from .ingest_panel import IngestPanel
from .qoe_panel import QoePanel
from .widgets import ConfirmScreen, PaletteAction, selected_row_key

PERIOD = timedelta(minutes=30)
PERIOD_WORDS = "last 30 min"
NONE = "—"
ALERT_CELL = "⚠"
ADMIN_ACTIONS = frozenset({"trigger_credit", "cancel_credit"})
# (column, width): the title column gives way first at 80 columns.
COLUMNS = (
    ("Event", 18),
    ("Now", 4),
    ("Plays", 5),
    ("Rebuf", 6),
    ("p50", 6),
    ("Fails", 5),
    ("Ingest", 12),
    ("", 1),
)


class IngestBeside(IngestPanel):
    """The ingest panel, only to read here: its keys' actions are live control's."""

    KEY_HELP: ClassVar[str] = "v: live control"


def row_of(event: dict, report: dict | None) -> tuple[str | Text, ...]:
    title = str(event.get("title", ""))
    if report is None:
        return (title, NONE, NONE, NONE, NONE, NONE, NONE, "")
    alert = report["alerts"]["rebuffering"] or report["alerts"]["startFailures"]
    return (
        Text(title, style="bold red") if alert else title,
        str(report["concurrentViewers"]),
        str(report["plays"]),
        percent_of(report["rebufferingRatio"]) or NONE,
        startup_of(report["startupMs"]["p50"]) or NONE,
        str(report["startFailures"]["technical"]),
        report["ingest"],
        Text(ALERT_CELL, style="bold red") if alert else "",
    )


class QoeScreen(Screen[None]):
    TITLE = "QoE"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Not in the footer (the screen refreshes by itself): in the help screen and the palette.
        Binding("r", "refresh", "Refresh", id="qoe.refresh", show=False),
        Binding("t", "trigger_credit", "Credit now", id="qoe.trigger_credit"),
        Binding("x", "cancel_credit", "Cancel credit", id="qoe.cancel_credit"),
    ]
    PALETTE: ClassVar[list[PaletteAction]] = [
        PaletteAction("Refresh the QoE", "refresh", "Ask the server for every live event's QoE now"),
        PaletteAction(
            "Credit the selected event's buyers now", "trigger_credit", "Admin only: refund or code, after confirming"
        ),
        PaletteAction("Cancel the selected event's credit", "cancel_credit", "Admin only: before it runs"),
    ]
    DEFAULT_CSS = """
    QoeScreen #qoe-status { height: 1; padding: 0 1; background: $boost; }
    QoeScreen #events { height: 1fr; min-height: 5; border: round $primary; }
    QoeScreen #events:focus { border: round $accent; }
    QoeScreen #selected { height: auto; }
    QoeScreen QoePanel { width: 1fr; }
    QoeScreen IngestBeside { width: 41; }
    """

    def __init__(self, api: AdminApi, refresh_seconds: float = REFRESH_SECONDS):
        super().__init__()
        self.api = api
        self.refresh_seconds = refresh_seconds
        self.events: list[dict] = []  # the live events, as last listed
        self.reports: dict[str, dict] = {}  # event id → its QoE over the period, as last read
        self.selected: str | None = None  # the event the panels show
        self.read_at: float | None = None  # when the reports were last asked for (monotonic)

    @property
    def disabled_reason(self) -> str:
        return ADMIN_ONLY

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Reading the live events…", id="qoe-status")
        events: DataTable = DataTable(id="events", cursor_type="row", zebra_stripes=True)
        events.border_title = f"Live events, {PERIOD_WORDS}"
        for label, width in COLUMNS:
            events.add_column(label, width=width, key=label or "alert")
        yield events
        with Horizontal(id="selected"):
            yield QoePanel(id="qoe")
            yield IngestBeside(self.api, self.refresh_seconds, id="ingest")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#events", DataTable).focus()
        self.set_interval(self.refresh_seconds, self.tick)

    def on_screen_resume(self) -> None:
        # Staff come back (or see it first): what it shows is as old as their absence. A dialog
        # that closed a moment ago leaves it as fresh as it was.
        if self.read_at is None or time.monotonic() - self.read_at >= self.refresh_seconds:
            self.refresh_reports()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ADMIN_ACTIONS and not self.api.is_admin:
            return None  # shown disabled in the footer; the palette and `?` say why
        return True

    def tick(self) -> None:
        if self.is_current:  # another mode's screen is on: nothing is asked for it
            self.refresh_reports()

    def action_refresh(self) -> None:
        self.refresh_reports()

    # --- the live events and their QoE ---------------------------------------------------------------

    @work(exclusive=True, group="qoe-reports")
    async def refresh_reports(self) -> None:
        self.read_at = time.monotonic()
        status = self.query_one("#qoe-status", Static)
        try:
            events = await self.api.events("live")
        except AdminApiError as error:
            status.update(Text(f"Could not list the live events: {error}"))
            return
        since = (datetime.now(UTC) - PERIOD).isoformat(timespec="seconds").replace("+00:00", "Z")

        async def read(event_id: str) -> dict | AdminApiError:
            try:
                return await self.api.qoe(event_id, since)
            except AdminApiError as error:
                return error

        answers = await asyncio.gather(*(read(event["_id"]) for event in events))
        reports = {e["_id"]: a for e, a in zip(events, answers, strict=True) if isinstance(a, dict)}
        failed = [
            f"{e.get('title', '')}: {a.message}"
            for e, a in zip(events, answers, strict=True)
            if not isinstance(a, dict)
        ]
        self.events, self.reports = events, reports
        raised = sum(1 for r in reports.values() if r["alerts"]["rebuffering"] or r["alerts"]["startFailures"])
        words = f"{len(events)} live event{'s' if len(events) != 1 else ''}, {raised} with a QoE alert"
        status.update(Text(words + (f" · could not read {'; '.join(failed)}" if failed else "")))
        self._fill()
        if self.selected is not None:
            self._show_selected(self.selected)
            self.load_credit(self.selected)

    def _fill(self) -> None:
        table = self.query_one("#events", DataTable)
        keys = [event["_id"] for event in self.events]
        if not keys:
            table.clear()
            self.selected = None
            self.query_one(QoePanel).show_problem("No event is live.")
            return
        if [row.value for row in table.rows] == keys:  # the same events: their cells change in place
            for event in self.events:
                for (label, _), cell in zip(COLUMNS, row_of(event, self.reports.get(event["_id"])), strict=True):
                    table.update_cell(event["_id"], label or "alert", cell)
            return
        selected = selected_row_key(table)
        table.clear()
        for event in self.events:
            table.add_row(*row_of(event, self.reports.get(event["_id"])), key=event["_id"])
        if selected in keys:
            table.move_cursor(row=keys.index(selected))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # The row under the cursor when this is handled: a refilled table moves it twice.
        key = selected_row_key(self.query_one("#events", DataTable))
        if key is not None and key != self.selected:
            self.selected = key
            self._show_selected(key)
            self.load_credit(key)

    def _show_selected(self, event_id: str) -> None:
        event = next((e for e in self.events if e["_id"] == event_id), None)
        if event is None:
            return
        report = self.reports.get(event_id)
        panel = self.query_one(QoePanel)
        if report is None:
            panel.show_problem("Could not read this event's QoE.")
        else:
            panel.show(report, PERIOD_WORDS)
        self.query_one(IngestBeside).follow(event)

    # --- the outage credit -----------------------------------------------------------------------------

    @work(exclusive=True, group="qoe-credit")
    async def load_credit(self, event_id: str) -> None:
        try:
            credit = await self.api.outage_credit(event_id)
        except AdminApiError as error:
            if self.selected == event_id:
                self.query_one(QoePanel).show_credit(None, f"could not read: {error.message}")
            return
        if self.selected == event_id:
            self.query_one(QoePanel).show_credit(credit)

    def _selected_event(self, verb: str) -> dict | None:
        event = next((e for e in self.events if e["_id"] == self.selected), None)
        if event is None:
            self.notify(f"Select a live event to {verb}", severity="warning")
        return event

    def action_trigger_credit(self) -> None:
        event = self._selected_event("credit its buyers")
        if event is not None:
            question = (
                f"Credit the buyers of {escape(str(event.get('title', '')))} now? "
                "Each purchase paid until now is refunded or given an access code."
            )
            self._confirm(question, "Credit now", event, self.api.trigger_outage_credit, "credit scheduled to run now")

    def action_cancel_credit(self) -> None:
        event = self._selected_event("cancel its credit")
        if event is not None:
            question = f"Cancel the scheduled credit of {escape(str(event.get('title', '')))}? Nobody is credited."
            self._confirm(question, "Cancel credit", event, self.api.cancel_outage_credit, "credit cancelled")

    def _confirm(
        self,
        question: str,
        label: str,
        event: dict,
        call: Callable[[str], Coroutine[Any, Any, dict]],
        done: str,
    ) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.change_credit(event, call, done)

        self.app.push_screen(ConfirmScreen(question, label), answered)

    @work(exclusive=True, group="qoe-credit-change")
    async def change_credit(self, event: dict, call: Callable[[str], Coroutine[Any, Any, dict]], done: str) -> None:
        title = str(event.get("title", ""))
        try:
            credit = await call(event["_id"])
        except AdminApiError as error:
            # 403 for support staff, 409 when the credit has started or the event is not pay-per-view.
            self.notify(error.message, title=f"{title}: credit unchanged", severity="error", markup=False)
            return
        self.notify(f"{title}: {done}", markup=False)
        if self.selected == event["_id"]:
            self.query_one(QoePanel).show_credit(credit)
