"""The dashboard: GET /admin/monitor every few seconds — live events with the sockets in each room,
the next kickoffs, the latest purchases, redemptions and sign-ins, and the jobs' health. A refresh
that fails (the server is down) says so and the timer keeps trying; the next answer clears it.
Each refresh also asks each live event's ingest health (one call per live event) and flags the
feeds that are interrupted or transcoded slower than real time: a marked row and a warning line.
Live events whose viewers' QoE alert is raised (rebuffering or start failures past the server's
thresholds) are marked "QoE ⚠" and named on a line of their own: each refresh asks each live
event's QoE over the last five minutes, and a socket on their `qoe:{eventId}` rooms brings each
`qoe-alert` in between (cli/tui/qoe_alerts.py).
Admin staff put the selected upcoming event live (l) or finish the selected live event (f).

While the media library transcodes, a small table shows the queue (running jobs, then the queued
ones in the order they run) with each job's percent and time left, and a line names the jobs that
failed in the last hour. The queue is asked for slowly (MEDIA_REFRESH_SECONDS); in between, the
`media-job-change` messages of the queue's events move it (cli/tui/media_jobs.py), and a job that
ends asks again."""

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from .api import ADMIN_ONLY, REFRESH_SECONDS, AdminApi, AdminApiError
from .ingest_health import trouble_of
from .media_jobs import ENDED, MEDIA_REFRESH_SECONDS, JobFollower, apply_change, clock, percent_of
from .qoe_alerts import MARK as QOE_MARK
from .qoe_alerts import AlertWatch, alert_of_message, alert_of_report, alert_since
from .widgets import ConfirmScreen, PaletteAction, selected_row_key, short_time

EVENT_WIDTH = 14
TROUBLE_MARK = "! "  # before the title of a live event whose ingest is in trouble
RECENT_FAILURE = timedelta(hours=1)  # a failed job is named this long, by the server's clock
FAILED_SHOWN = 5


class DashboardScreen(Screen[None]):
    TITLE = "Dashboard"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Not in the footer (the dashboard refreshes by itself; 80 columns are few): in the help screen.
        Binding("r", "refresh", "Refresh", id="dashboard.refresh", show=False),
        Binding("l", "go_live", "Go live", id="dashboard.go_live"),
        Binding("f", "finish", "Finish", id="dashboard.finish"),
    ]
    PALETTE: ClassVar[list[PaletteAction]] = [
        PaletteAction("Refresh the dashboard", "refresh", "Ask the server for a new snapshot and the queue now"),
        PaletteAction("Go live: selected upcoming event", "go_live", "Admin only: put the event live"),
        PaletteAction("Finish: selected live event", "finish", "Admin only: end the live event"),
    ]
    DEFAULT_CSS = """
    DashboardScreen #status { height: 1; padding: 0 1; background: $boost; }
    DashboardScreen #status.down { background: $error; color: $text; }
    DashboardScreen #ingest-trouble { height: auto; padding: 0 1; background: $warning-muted; color: $text; }
    DashboardScreen #ingest-trouble { display: none; }
    DashboardScreen #ingest-trouble.shown { display: block; }
    DashboardScreen #qoe-alert { height: auto; padding: 0 1; background: $warning-muted; color: $text; }
    DashboardScreen #qoe-alert { display: none; }
    DashboardScreen #qoe-alert.shown { display: block; }
    DashboardScreen #media-failed { height: auto; padding: 0 1; background: $error-muted; color: $text; }
    DashboardScreen #media-failed { display: none; }
    DashboardScreen #media-failed.shown { display: block; }
    DashboardScreen #media-queue { height: auto; max-height: 7; display: none; }
    DashboardScreen #media-queue.shown { display: block; }
    DashboardScreen Grid { grid-size: 2 2; grid-columns: 1fr 1fr; grid-rows: 1fr 1fr; }
    DashboardScreen DataTable { border: round $primary; height: 1fr; }
    DashboardScreen DataTable:focus { border: round $accent; }
    """

    def __init__(self, api: AdminApi, refresh_seconds: float = REFRESH_SECONDS):
        super().__init__()
        self.api = api
        self.refresh_seconds = refresh_seconds
        self.snapshot: dict | None = None
        self.down: str | None = None  # the error of the last refresh, while it fails
        self.troubles: dict[str, str] = {}  # live event id → what is wrong with its ingest
        self.qoe_alerts: dict[str, str] = {}  # live event id → what its raised QoE alert says
        self.alert_watch = AlertWatch(self, api, self.qoe_alert_changed)
        self.queue: dict[str, dict] = {}  # the running, then the queued transcoding jobs by id
        self.failed: list[dict] = []  # the latest failed jobs
        self.asked_about: set[str] = set()  # jobs heard of on the socket before the queue had them
        self.media = JobFollower(self, api, self.media_job_changed)

    @property
    def disabled_reason(self) -> str:
        return ADMIN_ONLY

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(f"Connecting to {self.api.base_url}…", id="status")
        yield Static("", id="ingest-trouble")
        yield Static("", id="qoe-alert")
        yield Static("", id="media-failed")
        queue = self._table("media-queue", "Transcoding", ("Title", "State", "Done", "Left"), first_width=44)
        # Only to read: the focus and the cursor stay with the event tables that l and f act on.
        queue.can_focus, queue.cursor_type = False, "none"
        yield queue
        with Grid():
            # A narrow title column keeps the socket counts in view at 80 columns.
            yield self._table("live", "Live events", ("Event", "Since", "Sockets"), first_width=EVENT_WIDTH)
            yield self._table("upcoming", "Upcoming kickoffs", ("Event", "Kickoff", "Sockets"), first_width=EVENT_WIDTH)
            yield self._table("activity", "Recent activity", ("When", "What", "Who"))
            yield self._table("jobs", "Jobs & health", ("Job", "Every", "Last run", "Outcome"))
        yield Footer()

    def _table(self, table_id: str, title: str, columns: tuple[str, ...], first_width: int | None = None) -> DataTable:
        table: DataTable = DataTable(id=table_id, cursor_type="row", zebra_stripes=True)
        table.border_title = title
        table.add_column(columns[0], width=first_width)
        table.add_columns(*columns[1:])
        return table

    def on_mount(self) -> None:
        self.refresh_snapshot()
        self.set_interval(self.refresh_seconds, self.refresh_snapshot)
        self.refresh_queue()
        self.set_interval(max(self.refresh_seconds, MEDIA_REFRESH_SECONDS), self.refresh_queue)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("go_live", "finish") and not self.api.is_admin:
            return None  # shown disabled in the footer; the palette and `?` say why
        return True

    # --- refreshing ------------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.refresh_snapshot()
        self.refresh_queue()

    @work(exclusive=True, group="monitor")
    async def refresh_snapshot(self) -> None:
        try:
            snapshot = await self.api.monitor()
        except AdminApiError as error:
            self._show_down(error)
            return
        recovered = self.down is not None
        self.down = None
        self.show(snapshot)
        if recovered:
            self.notify(f"Connected to {self.api.base_url} again", title="Server is back")
        self.refresh_bindings()  # the role may be known only now
        self._show_failed()  # "recently" is by the clock of this snapshot
        live = snapshot.get("liveEvents") or []
        self.troubles, alerts = await asyncio.gather(self._ingest_troubles(live), self._qoe_alerts(live))
        self._alerts_read(live, alerts)
        self._show_live(live)
        self.alert_watch.follow(e["_id"] for e in live)

    async def _ingest_troubles(self, live: list[dict]) -> dict[str, str]:
        """What is wrong with each live event's ingest; an event whose health cannot be read is left unflagged."""

        async def trouble(event_id: str) -> str | None:
            try:
                return trouble_of(await self.api.ingest(event_id))
            except AdminApiError:
                return None

        found = await asyncio.gather(*(trouble(e["_id"]) for e in live))
        return {e["_id"]: t for e, t in zip(live, found, strict=True) if t}

    async def _qoe_alerts(self, live: list[dict]) -> dict[str, str]:
        """Each live event's raised QoE alert, over the window the server's alerts judge; an event
        whose QoE cannot be read is left unflagged."""
        since = alert_since(datetime.now(UTC))

        async def alert(event_id: str) -> str | None:
            try:
                return alert_of_report(await self.api.qoe(event_id, since))
            except AdminApiError:
                return None

        found = await asyncio.gather(*(alert(e["_id"]) for e in live))
        return {e["_id"]: a for e, a in zip(live, found, strict=True) if a}

    def _alerts_read(self, live: list[dict], alerts: dict[str, str]) -> None:
        """The flags as a refresh read them; an alert new since the last flags is also a notification."""
        titles = {e["_id"]: str(e.get("title", "")) for e in live}
        for event_id in alerts.keys() - self.qoe_alerts.keys():
            self._notify_alert(titles.get(event_id, event_id), alerts[event_id])
        self.qoe_alerts = alerts

    def qoe_alert_changed(self, payload: dict) -> None:
        """A `qoe-alert` from a live event's room: its flag changes at once, before the next refresh."""
        event_id = str(payload.get("eventId"))
        live = (self.snapshot or {}).get("liveEvents") or []
        title = next((str(e.get("title", "")) for e in live if e["_id"] == event_id), None)
        if title is None:
            return  # no longer live here: the next refresh says what there is
        said = alert_of_message(payload)
        if said is None:
            self.qoe_alerts.pop(event_id, None)
        else:
            if event_id not in self.qoe_alerts:
                self._notify_alert(title, said)
            self.qoe_alerts[event_id] = said
        self._show_live(live)

    def _notify_alert(self, title: str, said: str) -> None:
        self.notify(f"{title}: {said}", title="QoE alert", severity="warning", timeout=8, markup=False)

    def _show_down(self, error: AdminApiError) -> None:
        first = self.down is None
        self.down = error.message
        status = self.query_one("#status", Static)
        status.add_class("down")
        if error.code == "api_unreachable":
            text = f"Server down: cannot reach {self.api.base_url} — retrying every {self.refresh_seconds:g} s"
        else:
            text = f"Monitor failed: {error.message} ({error.code})"
        status.update(text)
        if first:
            self.notify(str(error), title="Dashboard", severity="error", timeout=8)

    def show(self, snapshot: dict) -> None:
        self.snapshot = snapshot
        health = snapshot.get("health") or {}
        sockets = snapshot.get("sockets") or {}
        status = self.query_one("#status", Static)
        status.remove_class("down")
        role = f" as {self.api.role}" if self.api.role else ""
        status.update(
            f"{self.api.base_url}{role} · health {health.get('status', '?')} · db {health.get('database', '?')}"
            f" · sockets {sockets.get('connected', 0)} ({_sockets_scope(sockets)})"
            f" · at {short_time(snapshot.get('generatedAt'))}"
        )
        self._show_live(snapshot.get("liveEvents") or [])
        self._fill(
            "upcoming",
            [
                (e["_id"], (e.get("title", ""), short_time(e.get("event_date")), str(e.get("sockets", 0))))
                for e in snapshot.get("upcoming") or []
            ],
        )
        activity: list[tuple[str, tuple[str, ...]]] = []
        for p in snapshot.get("purchases") or []:
            price = f"{p.get('price_minor', 0) / 100:.2f} {p.get('currency', '')}"
            what = f"{p.get('type', '')} {p.get('status', '')} {price}"
            activity.append((p.get("added") or "", (short_time(p.get("added")), what, p.get("userId", ""))))
        for r in snapshot.get("redemptions") or []:
            when = r.get("redeemedAt") or ""
            activity.append((when, (short_time(when), f"code {r.get('code', '')}", r.get("userId", ""))))
        for s in snapshot.get("signIns") or []:
            when = s.get("at") or ""
            activity.append((when, (short_time(when), f"sign-in {s.get('provider', '')}", s.get("userId", ""))))
        activity.sort(key=lambda row: row[0], reverse=True)
        self._fill("activity", [(None, row) for _, row in activity])
        jobs = [
            (
                None,
                (
                    j.get("name", ""),
                    f"{j.get('intervalSeconds', '?')} s" if j.get("enabled", True) else "off",
                    short_time(j.get("lastRun")),
                    j.get("lastOutcome") or "—",
                ),
            )
            for j in snapshot.get("jobs") or []
        ]
        self._fill("jobs", jobs)

    def _show_live(self, live: list[dict]) -> None:
        """The live events, those whose ingest is in trouble or whose QoE alert is raised marked and
        named in a warning line each."""
        rows = [
            (e["_id"], (self._live_title(e), short_time(e.get("event_date")), str(e.get("sockets", 0)))) for e in live
        ]
        self._fill("live", rows)
        self._warn("#ingest-trouble", "Ingest: ", live, self.troubles)
        self._warn("#qoe-alert", QOE_MARK, live, self.qoe_alerts)

    def _warn(self, line_id: str, heading: str, live: list[dict], said_of: dict[str, str]) -> None:
        said = [f"{e.get('title', '')}: {said_of[e['_id']]}" for e in live if e["_id"] in said_of]
        line = self.query_one(line_id, Static)
        line.update(Text(heading + " · ".join(said)) if said else "")
        line.set_class(bool(said), "shown")

    def _live_title(self, event: dict) -> str | Text:
        title = str(event.get("title", ""))
        marks = (TROUBLE_MARK if event["_id"] in self.troubles else "") + (
            QOE_MARK if event["_id"] in self.qoe_alerts else ""
        )
        return Text.assemble(marks, title, style="bold red") if marks else title

    def _fill(self, table_id: str, rows: Sequence[tuple[str | None, Sequence[str | Text]]]) -> None:
        table = self.query_one(f"#{table_id}", DataTable)
        selected = selected_row_key(table)
        table.clear()
        for key, cells in rows:
            table.add_row(*cells, key=key)
        if selected is not None:
            for index, (key, _) in enumerate(rows):
                if key == selected:
                    table.move_cursor(row=index)

    # --- the transcoding queue -----------------------------------------------------------------------

    @work(exclusive=True, group="media-queue")
    async def refresh_queue(self) -> None:
        try:
            running, queued, failed = await asyncio.gather(
                self.api.media_jobs("running"),
                self.api.media_jobs("queued"),
                self.api.media_jobs("failed", FAILED_SHOWN),
            )
        except AdminApiError:
            return  # the status line says when the server is down; the queue stays as last shown
        # The API lists newest first: the queued job that runs next is the oldest.
        self.queue = {job["_id"]: job for job in [*running, *reversed(queued)]}
        self.failed = failed
        self._show_queue()
        self.media.follow(job.get("event") for job in self.queue.values())

    def media_job_changed(self, change: dict) -> None:
        """A `media-job-change`: the job's row moves with no call to the API; a job that ends, or
        one not listed yet, asks for the queue again."""
        job_id = str(change.get("jobId"))
        known = self.queue.get(job_id)
        if known is not None:
            if change.get("state") in ENDED:
                del self.queue[job_id]
            else:
                self.queue[job_id] = apply_change(known, change)
            self._show_queue()
        # A job not listed (new since the last listing) is asked about once, not at every heartbeat.
        if change.get("state") in ENDED or (known is None and job_id not in self.asked_about):
            self.asked_about.add(job_id)
            self.refresh_queue()

    def _show_queue(self) -> None:
        rows = [
            (
                job_id,
                (
                    Text(str(job.get("title") or job.get("kind") or ""), no_wrap=True, overflow="ellipsis"),
                    str(job.get("state", "")),
                    f"{percent_of(job):.0f}%" if job.get("state") == "running" else "—",
                    clock(job["etaSeconds"]) if isinstance(job.get("etaSeconds"), int | float) else "—",
                ),
            )
            for job_id, job in self.queue.items()
        ]
        self._fill("media-queue", rows)
        table = self.query_one("#media-queue", DataTable)
        running = sum(1 for job in self.queue.values() if job.get("state") == "running")
        table.border_title = f"Transcoding: {running} running, {len(self.queue) - running} queued"
        table.set_class(bool(rows), "shown")
        self._show_failed()

    def _show_failed(self) -> None:
        recent = [job for job in self.failed if self._failed_recently(job)]
        said = [f"{job.get('title') or job.get('kind', '')}: {job.get('error') or 'no reason given'}" for job in recent]
        line = self.query_one("#media-failed", Static)
        line.update(Text("Transcoding failed: " + " · ".join(said)) if said else "")
        line.set_class(bool(said), "shown")

    def _failed_recently(self, job: dict) -> bool:
        """Failed within RECENT_FAILURE of the server's last snapshot (its clock, not this terminal's)."""
        finished = _instant(job.get("finishedAt"))
        now = _instant((self.snapshot or {}).get("generatedAt")) or datetime.now(UTC)
        return finished is not None and now - finished <= RECENT_FAILURE

    # --- live control (admin) -------------------------------------------------------------------

    def _selected_event(self, table_id: str) -> tuple[str, str] | None:
        table = self.query_one(f"#{table_id}", DataTable)
        key = selected_row_key(table)
        if key is None or self.snapshot is None:
            return None
        events = self.snapshot.get("liveEvents" if table_id == "live" else table_id) or []
        title = next((str(e.get("title", "")) for e in events if e["_id"] == key), "")
        return key, title

    def action_go_live(self) -> None:
        self._confirm_event_change("upcoming", "go live", "Put {title} live now?")

    def action_finish(self) -> None:
        self._confirm_event_change("live", "finish", "Finish {title}? Viewers see the replay from then on.")

    def _confirm_event_change(self, table_id: str, verb: str, question: str) -> None:
        event = self._selected_event(table_id)
        if event is None:
            self.notify(f"Select an event in {table_id!r} to {verb}", severity="warning")
            return
        event_id, title = event

        def answered(yes: bool | None) -> None:
            if yes:
                self.change_event(event_id, title, verb)

        self.app.push_screen(ConfirmScreen(question.format(title=title), verb.capitalize()), answered)

    @work(exclusive=True, group="event-change")
    async def change_event(self, event_id: str, title: str, verb: str) -> None:
        try:
            if verb == "go live":
                await self.api.go_live(event_id)
            else:
                await self.api.finish(event_id)
        except AdminApiError as error:
            self.notify(str(error), title=f"Could not {verb}", severity="error")
            return
        self.notify(f"{title}: {verb} done")
        self.refresh_snapshot()


def _instant(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _sockets_scope(sockets: dict) -> str:
    """'3 processes' when the counts add up several processes (Redis), else 'this process'."""
    processes = sockets.get("processes") or 1
    return f"{processes} processes" if sockets.get("scope") == "cluster" else "this process"
