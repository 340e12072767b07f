"""The audit log: every admin write (GET /admin/audit), newest first — when, who, which operation,
on what, and how it ended. A filter bar (actor, action, target, since, until) narrows it: Enter in
the bar applies it, `/` goes to it; n and p page through the answer; Enter on a row shows the
whole entry. Read-only, so support and admin staff alike may use all of it."""

from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, time, timedelta
from http import HTTPStatus
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.validation import Function, Regex
from textual.widgets import DataTable, Footer, Header, Input, Label, Static

from .api import AdminApi, AdminApiError
from .widgets import PaletteAction, short_time

PAGE_SIZE = 20
WHEN_HINT = "not a date or time (e.g. 2026-11-24 or 2026-11-24T18:00; UTC unless an offset is given)"


def parse_when(text: str, *, end_of_day: bool = False) -> datetime | None:
    """A filter's date or date and time as an aware datetime (UTC when no offset is given); None
    when blank. A bare date means the start of that day, or with `end_of_day` the start of the
    next (so `until 2026-11-24` keeps the whole 24th). Raises ValueError for anything else."""
    text = text.strip().upper()
    if not text:
        return None
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            return datetime.combine(day + timedelta(days=1 if end_of_day else 0), time(), UTC)
        moment = datetime.fromisoformat(text)
    except OverflowError as error:  # the day after 9999-12-31
        raise ValueError(text) from error
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _is_when(text: str) -> bool:
    try:
        parse_when(text)
        parse_when(text, end_of_day=True)
    except ValueError:
        return False
    return True


def wire_time(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


@dataclass(frozen=True)
class AuditFilters:
    """The filters of one query, as the API takes them (None: not filtered on)."""

    actor: str | None = None
    action: str | None = None
    target: str | None = None
    since: str | None = None
    until: str | None = None

    def params(self) -> dict[str, str]:
        return {name: value for name, value in asdict(self).items() if value}

    def describe(self) -> str:
        return " ".join(f"{name}={value}" for name, value in self.params().items()) or "none"


def cell(value: str | None, style: str = "") -> Text:
    """A cell of recorded text: never read as markup, cut with "…" at the column's width."""
    return Text(value or "—", style=style, no_wrap=True, overflow="ellipsis")


def outcome(status: int) -> Text:
    """An answer's status as a narrow cell: `200 ok`, `403 denied`, `404 failed`."""
    if status < 400:
        return cell(f"{status} ok", "green")
    return cell(f"{status} {'denied' if status in (401, 403) else 'failed'}", "red")


class AuditEntryScreen(ModalScreen[None]):
    """One entry of the log, every field of it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q", "app.pop_screen", "Close", id="audit_entry.close")
    ]
    DEFAULT_CSS = """
    AuditEntryScreen { align: center middle; }
    AuditEntryScreen > Vertical { width: 76; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, entry: dict):
        super().__init__()
        self.entry = entry

    def compose(self) -> ComposeResult:
        e = self.entry
        status = int(e.get("status") or 0)
        try:
            phrase = HTTPStatus(status).phrase
        except ValueError:
            phrase = ""
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(overflow="fold")
        for label, value in (
            ("When", e.get("at")),
            ("Actor", e.get("actor") or e.get("actorType")),
            ("Actor id", f"{e.get('actorId') or '—'} ({e.get('actorType', '?')})"),
            ("Action", e.get("action")),
            ("Request", f"{e.get('method', '')} {e.get('path', '')}"),
            ("Target", e.get("target") or "—"),
            ("Address", e.get("clientAddress") or "—"),
            ("Outcome", f"{status} {phrase}".strip()),
            ("Entry", e.get("_id")),
        ):
            grid.add_row(label, Text(str(value or "—")))
        with Vertical() as box:
            box.border_title = "Audit entry (Esc closes)"
            yield Static(grid, id="audit-entry")


class AuditScreen(Screen[None]):
    TITLE = "Audit log"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_filters", "Filter", id="audit.filter", key_display="/"),
        Binding("n", "next_page", "Next", id="audit.next_page", tooltip="Next page (older entries)"),
        Binding("p", "previous_page", "Prev", id="audit.previous_page", tooltip="Previous page (newer entries)"),
        # Not in the footer (80 columns are few): in the help screen and the palette.
        Binding("r", "refresh", "Refresh", id="audit.refresh", show=False),
    ]
    PALETTE: ClassVar[list[PaletteAction]] = [
        PaletteAction("Filter the audit log", "focus_filters", "Actor, action, target, since, until; Enter applies"),
        PaletteAction("Next page of the audit log", "next_page", "Older entries"),
        PaletteAction("Previous page of the audit log", "previous_page", "Newer entries"),
        PaletteAction("Refresh the audit log", "refresh", "Ask again for this page"),
        PaletteAction("Show the selected audit entry", "show_entry", "Every field of the entry"),
    ]
    DEFAULT_CSS = """
    AuditScreen #filters { height: 3; }
    AuditScreen #filters Input { width: 1fr; }
    AuditScreen #filters #since, AuditScreen #filters #until { width: 14; }
    AuditScreen #filter-error { width: 100%; color: $error; padding: 0 1; display: none; }
    AuditScreen #filter-error.shown { display: block; }
    AuditScreen #audit-status { height: 1; padding: 0 1; background: $boost; }
    AuditScreen #entries { height: 1fr; border: round $primary; }
    AuditScreen #entries:focus { border: round $accent; }
    """
    disabled_reason = "no page that way: the first page has no previous one, a short page is the last"

    def __init__(self, api: AdminApi, page_size: int = PAGE_SIZE):
        super().__init__()
        self.api = api
        self.page_size = page_size
        self.filters = AuditFilters()
        self.page = 0
        self.more = False  # the page shown was full: another may follow
        self.entries: dict[str, dict] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="filters"):
            yield Input(placeholder="actor", id="actor", max_length=254)
            yield Input(
                placeholder="action",
                id="action",
                max_length=64,
                validators=[
                    Regex(r"[a-z_]+", failure_description="action: an operation id (a-z and _), e.g. create_event")
                ],
                validate_on=["submitted"],
                valid_empty=True,
            )
            yield Input(placeholder="target id", id="target", max_length=200)
            for name in ("since", "until"):
                yield Input(
                    placeholder=f"{name} date",
                    id=name,
                    max_length=40,
                    validators=[Function(_is_when, f"{name}: {WHEN_HINT}")],
                    validate_on=["submitted"],
                    valid_empty=True,
                )
        yield Label("", id="filter-error")
        yield Static("Loading…", id="audit-status")
        table: DataTable = DataTable(id="entries", cursor_type="row", zebra_stripes=True)
        table.border_title = "Entries (Enter shows one)"
        for label, width in (("When", 11), ("Actor", 18), ("Action", 19), ("Target", 9), ("Outcome", 10)):
            table.add_column(label, width=width)
        yield table
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#entries", DataTable).focus()
        self.load(self.filters, 0)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "previous_page" and self.page == 0:
            return None
        if action == "next_page" and not self.more:
            return None
        return True

    # --- filters ---------------------------------------------------------------------------------

    def action_focus_filters(self) -> None:
        self.query_one("#actor", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        filters = self.read_filters()
        if filters is not None:
            self.load(filters, 0)
            self.query_one("#entries", DataTable).focus()  # so n and p page at once

    def read_filters(self) -> AuditFilters | None:
        """The bar's filters, or None (nothing is asked) with what is wrong shown under the bar."""
        inputs = {field.id: field for field in self.query("#filters Input").results(Input)}
        problems = []
        for field in inputs.values():
            result = field.validate(field.value.strip())  # marks the field -invalid when it fails
            if result is not None and not result.is_valid:
                problems.extend(result.failure_descriptions)
        since = until = None
        if not problems:
            since = parse_when(inputs["since"].value)
            until = parse_when(inputs["until"].value, end_of_day=True)
            if since and until and since >= until:
                problems.append("since must be before until")
        error = self.query_one("#filter-error", Label)
        error.update("; ".join(problems))
        error.set_class(bool(problems), "shown")
        if problems:
            return None
        return AuditFilters(
            actor=inputs["actor"].value.strip() or None,
            action=inputs["action"].value.strip() or None,
            target=inputs["target"].value.strip() or None,
            since=wire_time(since),
            until=wire_time(until),
        )

    # --- paging ----------------------------------------------------------------------------------

    def action_next_page(self) -> None:
        self.load(self.filters, self.page + 1)

    def action_previous_page(self) -> None:
        self.load(self.filters, max(self.page - 1, 0))

    def action_refresh(self) -> None:
        self.load(self.filters, self.page)

    @work(exclusive=True, group="audit")
    async def load(self, filters: AuditFilters, page: int) -> None:
        """Page `page` of the entries matching `filters`; a newer query cancels this one."""
        self._status(f"Loading page {page + 1}…")
        try:
            content = await self.api.audit(filters.params(), page, self.page_size)
        except AdminApiError as error:
            self.notify(str(error), title="Audit log", severity="error")
            self._show_status()
            return
        entries = list(content.get("entries") or [])
        if page > self.page and not entries:
            self.more = False  # the last page was exactly full
            self.notify("No older entries", severity="warning")
        else:
            self.filters, self.page = filters, page
            self.more = len(entries) >= self.page_size
            self._fill(entries)
        self._show_status()
        self.refresh_bindings()

    def _fill(self, entries: list[dict]) -> None:
        self.entries = {e["_id"]: e for e in entries}
        table = self.query_one("#entries", DataTable)
        table.clear()
        for e in entries:
            table.add_row(
                short_time(e.get("at")),
                cell(e.get("actor") or e.get("actorType")),
                cell(e.get("action")),
                cell(e.get("target")),
                outcome(int(e.get("status") or 0)),
                key=e["_id"],
            )

    def _status(self, text: str) -> None:
        self.query_one("#audit-status", Static).update(text)

    def _show_status(self) -> None:
        first = self.page * self.page_size + 1
        shown = len(self.entries)
        span = f"entries {first}–{first + shown - 1}" if shown else "no entries"
        more = " · n: older" if self.more else ""
        newer = " · p: newer" if self.page else ""
        self._status(f"Page {self.page + 1} · {span}{more}{newer} · filters: {self.filters.describe()}")

    # --- one entry -------------------------------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        entry = self.entries.get(str(event.row_key.value))
        if entry is not None:
            self.app.push_screen(AuditEntryScreen(entry))

    def action_show_entry(self) -> None:
        table = self.query_one("#entries", DataTable)
        if table.row_count == 0:
            self.notify("No entry to show", severity="warning")
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        self.app.push_screen(AuditEntryScreen(self.entries[str(key)]))
