"""The media library (issue 29 §4): the uploads, recordings and highlights, newest first, with
their event, state and length, and for one being transcoded its percent and the time left; the
selected asset's detail below: its transcoding job (why it failed, or how far it is, and its
attempts) and the events that play it.

Admin staff attach the selected asset to its event as the archive or a highlight (t), cut a
highlight from it (h), delete it (x) and stop its queued or running job (s), each confirmed or
checked in a form (cli/tui/media_forms.py). Deleting an asset an event plays is refused by the
server (409 asset_in_use) until staff confirm a second time to take it off those events.

While jobs are queued or running the screen watches their events' media rooms on one socket
(cli/tui/media_jobs.py): each `media-job-change` moves the row's progress without asking the API,
and a job that ends reloads the list. A slow refresh (every MEDIA_REFRESH_SECONDS) finds new
uploads."""

import asyncio
from collections.abc import Iterable
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from .api import ADMIN_ONLY, AdminApi, AdminApiError
from .media_forms import AttachForm, AttachRequest, CutForm, CutRequest
from .media_jobs import (
    ACTIVE,
    ENDED,
    MEDIA_REFRESH_SECONDS,
    NONE,
    JobFollower,
    apply_change,
    attempts_of,
    clock,
    job_of_change,
    log_line,
    progress_cell,
)
from .widgets import ConfirmScreen, PaletteAction, selected_row_key, short_time

LIST_SIZE = 100
ADMIN_ACTIONS = frozenset({"attach", "cut", "delete", "stop_job"})
PROGRESS_WIDTH = 9
# (label, key, width): 80 columns with the table's border and cell padding.
COLUMNS = (
    ("Title", "title", 18),
    ("Kind", "kind", 9),
    ("Event", "event", 13),
    ("State", "state", 10),
    ("Length", "length", 7),
    ("Progress", "progress", PROGRESS_WIDTH),
)
LABEL_WIDTH = 10


def cell(value: str | None) -> Text:
    """A cell of server text: never read as markup, cut with "…" at the column's width."""
    return Text(value or NONE, no_wrap=True, overflow="ellipsis")


def length_of(asset: dict) -> float | None:
    """Seconds: an upload's checked length, or a highlight's range."""
    if isinstance(asset.get("durationMs"), int | float):
        return asset["durationMs"] / 1000
    span = asset.get("range") or {}
    if isinstance(span.get("start_ms"), int | float) and isinstance(span.get("end_ms"), int | float):
        return (span["end_ms"] - span["start_ms"]) / 1000
    return None


def _line(label: str, value: str | Text) -> Text:
    return Text.assemble((f"{label:<{LABEL_WIDTH}}", "bold"), value)


class MediaScreen(Screen[None]):
    TITLE = "Media library"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "attach", "Attach", id="media.attach"),
        Binding("h", "cut", "Cut highlight", id="media.cut"),
        Binding("x", "delete", "Delete", id="media.delete"),
        Binding("s", "stop_job", "Stop job", id="media.stop_job"),
        # Not in the footer (80 columns are few): in the help screen and the palette.
        Binding("r", "reload", "Reload", id="media.reload", show=False),
    ]
    PALETTE: ClassVar[list[PaletteAction]] = [
        PaletteAction("Reload the media library", "reload", "Ask the server for the assets and jobs again"),
        PaletteAction("Attach the selected asset", "attach", "Admin only: as its event's archive or a highlight"),
        PaletteAction("Cut a highlight from the selected asset", "cut", "Admin only: a range, up to 30 minutes"),
        PaletteAction("Delete the selected asset", "delete", "Admin only: its files; asks first"),
        PaletteAction("Stop the selected asset's job", "stop_job", "Admin only: cancel its transcoding"),
    ]
    DEFAULT_CSS = """
    MediaScreen #media-status { height: 1; padding: 0 1; background: $boost; }
    MediaScreen #media-status.down { background: $error; color: $text; }
    MediaScreen #assets { height: 1fr; border: round $primary; }
    MediaScreen #assets:focus { border: round $accent; }
    MediaScreen #asset-detail { height: auto; min-height: 7; max-height: 10; padding: 0 1; border: round $primary; }
    """
    disabled_reason = ADMIN_ONLY

    def __init__(self, api: AdminApi, refresh_seconds: float = MEDIA_REFRESH_SECONDS):
        super().__init__()
        self.api = api
        self.refresh_seconds = refresh_seconds
        self.assets: dict[str, dict] = {}  # the listed assets by id, newest first
        self.jobs: dict[str, dict] = {}  # the queued and running jobs by id
        self.event_titles: dict[str, str] = {}
        self.detail: dict | None = None  # the selected asset as GET /admin/media_assets/{id} gave it
        self.problem: str | None = None  # why the last listing failed
        self.listed = False  # once listed, coming back to the screen lists again
        self.asked_about: set[str] = set()  # jobs heard of on the socket before the list had them
        self.follower = JobFollower(self, api, self.job_changed, self.show_status)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Loading the media library…", id="media-status")
        table: DataTable = DataTable(id="assets", cursor_type="row", zebra_stripes=True)
        table.border_title = "Media (newest first)"
        for label, key, width in COLUMNS:
            table.add_column(label, key=key, width=width)
        yield table
        detail = Static("Select an asset to see its job and the events that play it.", id="asset-detail")
        detail.border_title = "Asset"
        yield detail
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#assets", DataTable).focus()
        self.load()
        self.set_interval(self.refresh_seconds, self.refresh_list)

    def refresh_list(self) -> None:
        """The slow timer's tick, skipped off screen (the socket still moves the rows)."""
        if self.is_current:
            self.load()

    def on_screen_resume(self) -> None:
        if self.listed:  # back on screen: what the skipped ticks would have found
            self.load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ADMIN_ACTIONS and not self.api.is_admin:
            return None  # shown disabled in the footer; the palette and `?` say why
        return True

    def action_reload(self) -> None:
        self.load()

    # --- the list ----------------------------------------------------------------------------------

    @work(exclusive=True, group="media-list")
    async def load(self) -> None:
        try:
            assets, running, queued = await asyncio.gather(
                self.api.media_assets(limit=LIST_SIZE), self.api.media_jobs("running"), self.api.media_jobs("queued")
            )
        except AdminApiError as error:
            first = self.problem is None
            self.problem = str(error)
            self.show_status()
            if first:
                self.notify(str(error), title="Could not list the media", severity="error", markup=False)
            return
        self.problem, self.listed = None, True
        self.jobs = {job["_id"]: job for job in [*running, *queued]}
        await self._learn_titles(a.get("event") for a in assets)
        self.show_assets(assets)
        processing = [a.get("event") for a in assets if a.get("state") == "processing"]
        self.follower.follow([*(job.get("event") for job in self.jobs.values()), *processing])
        self.refresh_bindings()  # the role may be known only now
        selected = self.selected_id()
        if selected is not None:
            self.load_detail(selected)

    async def _learn_titles(self, event_ids: Iterable[str | None]) -> None:
        """The titles of events not seen yet. An event that cannot be read shows by its id; one
        that is gone (404) is not asked again."""
        unknown = sorted({e for e in event_ids if e and e not in self.event_titles})

        async def title(event_id: str) -> str | None:
            try:
                return str((await self.api.event(event_id)).get("title") or "")
            except AdminApiError as error:
                return "" if error.status == 404 else None

        for event_id, found in zip(unknown, await asyncio.gather(*map(title, unknown)), strict=True):
            if found is not None:
                self.event_titles[event_id] = found

    def event_title(self, event_id: str | None) -> str:
        if not event_id:
            return NONE
        return self.event_titles.get(event_id) or f"event …{event_id[-6:]}"

    def name_of(self, asset: dict) -> str:
        """Its title; a recording has none: 'recording of <its event>'."""
        return str(asset.get("title") or f"{asset.get('kind', 'asset')} of {self.event_title(asset.get('event'))}")

    def job_of(self, asset_id: str) -> dict | None:
        """The asset's queued or running job, as last listed or told by the socket."""
        return next((job for job in self.jobs.values() if job.get("asset") == asset_id), None)

    def show_assets(self, assets: list[dict]) -> None:
        table = self.query_one("#assets", DataTable)
        selected = self.selected_id()
        table.clear()
        self.assets = {asset["_id"]: asset for asset in assets}
        for asset in assets:
            table.add_row(*self._cells(asset), key=asset["_id"])
        if selected in self.assets:
            table.move_cursor(row=table.get_row_index(selected))
        self.show_status()

    def _cells(self, asset: dict) -> tuple[str | Text, ...]:
        length = length_of(asset)
        return (
            cell(self.name_of(asset)),
            str(asset.get("kind", "")),
            cell(self.event_title(asset.get("event"))),
            self._state_cell(asset),
            clock(length) if length is not None else NONE,
            progress_cell(self.job_of(asset["_id"]), PROGRESS_WIDTH),
        )

    @staticmethod
    def _state_cell(asset: dict) -> Text:
        state = str(asset.get("state", ""))
        return Text(state, style="bold red" if state == "failed" else "")

    def show_status(self) -> None:
        status = self.query_one("#media-status", Static)
        status.set_class(self.problem is not None, "down")
        if self.problem is not None:
            status.update(Text(f"Could not list the media: {self.problem}"))
            return
        running = sum(1 for job in self.jobs.values() if job.get("state") == "running")
        queued = sum(1 for job in self.jobs.values() if job.get("state") == "queued")
        parts = [f"{len(self.assets)} assets", f"{running} running, {queued} queued", self.follower.describe()]
        status.update(Text(" · ".join(p for p in parts if p)))

    def selected_id(self) -> str | None:
        return selected_row_key(self.query_one("#assets", DataTable))

    def selected(self, verb: str) -> dict | None:
        """The selected asset (else None, and a notification says to select one)."""
        asset_id = self.selected_id()
        if asset_id is None or asset_id not in self.assets:
            self.notify(f"Select an asset to {verb}", severity="warning")
            return None
        return self.assets[asset_id]

    # --- live: media-job-change ----------------------------------------------------------------------

    def job_changed(self, change: dict) -> None:
        """A job's message: its row (and the detail, when it is the selected asset's) show what it
        says, with no call to the API; a job that ends, or one not listed, reloads the list."""
        job_id, state = change.get("jobId"), change.get("state")
        known = self.jobs.get(str(job_id))
        job = apply_change(known, change) if known is not None else job_of_change(change)
        if state in ACTIVE:
            self.jobs[job["_id"]] = job
        else:
            self.jobs.pop(str(job_id), None)
        asset_id = job.get("asset")
        if asset_id in self.assets:
            self.query_one("#assets", DataTable).update_cell(
                asset_id, "progress", progress_cell(self.job_of(asset_id), PROGRESS_WIDTH)
            )
        if self.detail is not None and self.detail.get("_id") == asset_id:
            newest = self.detail.get("job")
            if newest is None or newest.get("_id") == job_id:
                self.show_detail({**self.detail, "job": apply_change(newest or job, change)})
        self.show_status()
        if state in ENDED:
            self._say_ended(job, asset_id)
        # A job not listed (new since the last listing) is asked about once, not at every heartbeat.
        if state in ENDED or (known is None and str(job_id) not in self.asked_about):
            self.asked_about.add(str(job_id))
            self.load()

    def _say_ended(self, job: dict, asset_id: str | None) -> None:
        asset = self.assets.get(str(asset_id))
        name = self.name_of(asset) if asset else str(job.get("title") or "a job")
        if job.get("state") == "failed":
            why = job.get("error") or "no reason given"
            self.notify(f"{name}: {why}", title="Transcoding failed", severity="error", markup=False, timeout=10)
        elif job.get("state") == "done":
            self.notify(f"{name} is transcoded", title="Transcoding done", markup=False)

    # --- the detail ----------------------------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "assets" and event.row_key.value:
            self.load_detail(event.row_key.value)

    @work(exclusive=True, group="media-detail")
    async def load_detail(self, asset_id: str) -> None:
        try:
            asset = await self.api.media_asset(asset_id)
        except AdminApiError as error:
            if self.selected_id() == asset_id:
                self.query_one("#asset-detail", Static).update(Text(f"Could not load the asset: {error}"))
            return
        await self._learn_titles([asset.get("event"), *(asset.get("playedBy") or [])])
        if self.selected_id() == asset_id:
            self.show_detail(asset)

    def show_detail(self, asset: dict) -> None:
        self.detail = asset
        length = length_of(asset)
        facts = [str(asset.get("kind", "")), str(asset.get("state", ""))] + ([clock(length)] if length else [])
        event = f"{self.event_title(asset.get('event'))} · added {short_time(asset.get('created'))}"
        lines = [Text.assemble((self.name_of(asset), "bold"), " · ", " · ".join(facts)), _line("Event", event)]
        job = asset.get("job")
        if job:
            queued = f"{job.get('kind', '')} · {attempts_of(job)} · queued {short_time(job.get('created'))}"
            lines += [_line("Job", queued), _line("Log", log_line(job))]  # a long reason wraps: it is read whole
        else:
            lines.append(_line("Job", "none (nothing to transcode)"))
        played = [self.event_title(e) for e in asset.get("playedBy") or []]
        lines.append(_line("Played by", ", ".join(played) if played else "no event"))
        self.query_one("#asset-detail", Static).update(Text("\n").join(lines))

    async def _detail_of(self, asset_id: str) -> dict | None:
        """The asset with its job and playedBy: the detail shown, or asked now."""
        if self.detail is not None and self.detail.get("_id") == asset_id:
            return self.detail
        try:
            asset = await self.api.media_asset(asset_id)
        except AdminApiError as error:
            self.notify(str(error), title="Could not load the asset", severity="error", markup=False)
            return None
        await self._learn_titles(asset.get("playedBy") or [])
        return asset

    # --- attach and cut (admin) ------------------------------------------------------------------------

    def action_attach(self) -> None:
        asset = self.selected("attach")
        if asset is not None:
            self.attach(asset)

    @work(group="media-change")
    async def attach(self, asset: dict) -> None:
        form = AttachForm(self.name_of(asset), self.event_title(asset.get("event")))
        request: AttachRequest | None = await self.app.push_screen_wait(form)
        if request is None:
            return
        try:
            event = await self.api.attach_media_asset(asset["_id"], request.body())
        except AdminApiError as error:
            self.notify(str(error), title="Could not attach", severity="error", markup=False)
            return
        self.event_titles[event["_id"]] = str(event.get("title") or "")
        if request.as_ == "archive":
            said = f"{self.name_of(asset)} is the archive of {event.get('title')}"
        else:
            said = f"{self.name_of(asset)} is published as {request.as_} {event.get('title')}"
        self.notify(said, title="Attached", markup=False)
        self.load()

    def action_cut(self) -> None:
        asset = self.selected("cut a highlight from")
        if asset is not None:
            self.cut(asset)

    @work(group="media-change")
    async def cut(self, asset: dict) -> None:
        request: CutRequest | None = await self.app.push_screen_wait(CutForm(self.name_of(asset), length_of(asset)))
        if request is None:
            return
        try:
            event = await self.api.cut_media_asset(asset["_id"], request.body())
        except AdminApiError as error:
            self.notify(str(error), title="Could not cut", severity="error", markup=False)
            return
        self.event_titles[event["_id"]] = str(event.get("title") or "")
        span = f"{clock(request.start)}–{clock(request.end)}"
        self.notify(f"{event.get('title')} ({span} of {self.name_of(asset)})", title=f"{request.as_} cut", markup=False)
        self.load()

    # --- delete and stop (admin) -----------------------------------------------------------------------

    def action_delete(self) -> None:
        asset = self.selected("delete")
        if asset is not None:
            self.delete(asset)

    @work(exclusive=True, group="media-delete")
    async def delete(self, asset: dict) -> None:
        """Asks first, naming the events that play it; when the server still finds it in use
        (409 asset_in_use), asks again before taking it off them (force)."""
        detail = await self._detail_of(asset["_id"])
        if detail is None:
            return
        name = escape(self.name_of(asset))
        played = [escape(self.event_title(e)) for e in detail.get("playedBy") or []]
        plays = f"Events play it: {', '.join(played)}." if played else "No event plays it."
        question = f"Delete [b]{name}[/b] and its files? {plays}"
        if not await self.app.push_screen_wait(ConfirmScreen(question, "Delete")):
            return
        try:
            answer = await self.api.delete_media_asset(asset["_id"])
        except AdminApiError as error:
            if error.code != "asset_in_use":
                self.notify(str(error), title="Could not delete", severity="error", markup=False)
                return
            question = (
                f"{escape(error.message)}\n\nTake [b]{name}[/b] off those events (they play nothing until "
                "given another stream) and delete it?"
            )
            if not await self.app.push_screen_wait(ConfirmScreen(question, "Force delete")):
                return
            try:
                answer = await self.api.delete_media_asset(asset["_id"], force=True)
            except AdminApiError as error:
                self.notify(str(error), title="Could not delete", severity="error", markup=False)
                return
        deleted, detached = answer.get("deleted") or [], answer.get("detached") or []
        said = f"{self.name_of(asset)}: {len(deleted)} asset{'s' if len(deleted) != 1 else ''} deleted"
        if detached:
            said += "; taken off " + ", ".join(self.event_title(e) for e in detached)
        self.notify(said, title="Deleted", markup=False)
        if self.detail is not None and self.detail.get("_id") in deleted:
            self.detail = None
            self.query_one("#asset-detail", Static).update(
                "Select an asset to see its job and the events that play it."
            )
        self.load()

    def action_stop_job(self) -> None:
        asset = self.selected("stop the job of")
        if asset is not None:
            self.stop_job(asset)

    @work(exclusive=True, group="media-stop")
    async def stop_job(self, asset: dict) -> None:
        job = self.job_of(asset["_id"])
        if job is None:
            newest = (self.detail or {}).get("job") if (self.detail or {}).get("_id") == asset["_id"] else None
            job = newest if newest and newest.get("state") in ACTIVE else None
        if job is None:
            self.notify(f"{self.name_of(asset)} has no queued or running job", severity="warning", markup=False)
            return
        question = (
            f"Stop transcoding [b]{escape(self.name_of(asset))}[/b] ({job.get('state')})? "
            "The upload and what was made of it are removed."
        )
        if not await self.app.push_screen_wait(ConfirmScreen(question, "Stop job")):
            return
        try:
            await self.api.cancel_media_job(job["_id"])
        except AdminApiError as error:
            self.notify(str(error), title="Could not stop the job", severity="error", markup=False)
            return
        self.notify(f"{self.name_of(asset)}: transcoding stopped", title="Job cancelled", markup=False)
        self.load()
