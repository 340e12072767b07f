"""Access codes: the codes, newest first, filtered by code, state, product or batch (b: the selected
code's), a page at a time (m loads more); Enter shows a code with who redeemed it and when. Admin
staff issue a batch (i; a large one in several requests, with a progress bar) and revoke a code (r,
after a confirmation). Export (e) writes the batch issued last, or else the listed codes, to a CSV
or JSON file in the shape `touchline codes issue` prints (cli/commands/codes.py)."""

import asyncio
from itertools import groupby
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Label, ProgressBar, Select, Static

from ..commands.codes import BATCH_SIZE, Format, Status, csv_text, issue_in_batches, json_text
from .api import ADMIN_ONLY, AdminApi, AdminApiError
from .codes_forms import ExportForm, ExportRequest, IssueForm, IssueRequest
from .widgets import ConfirmScreen, PaletteAction, short_time

PAGE_SIZE = 50
PRODUCT_PAGES = 10  # products for the picker: at most this many pages of 100
COLUMNS = (("Code", "code"), ("Product", "product"), ("Used", "used"), ("Expires", "expires"), ("State", "state"))


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def long_time(value: str) -> str:
    """'2026-12-31T23:59:59Z' → '2026-12-31 23:59' (UTC, as the API says it)."""
    return value[:16].replace("T", " ")


def batches_of(codes: list[dict]) -> list[dict]:
    """Listed codes as batches in the shape of the issue answer (for csv_text/json_text): a batch
    for each run of codes of the same batch, product, uses and expiry."""

    def same(code: dict) -> tuple:
        return code["batchId"], code["product_id"], code["uses"], code["expires_at"]

    batches = []
    for (batch_id, product_id, uses, expires_at), run in groupby(codes, key=same):
        listed = [code["code"] for code in run]
        batches.append(
            {
                "batchId": batch_id,
                "product_id": product_id,
                "count": len(listed),
                "uses": uses,
                "expires_at": expires_at,
                "codes": listed,
            }
        )
    return batches


def one_kind(batches: list[dict]) -> bool:
    """Whether JSON can say them truly: merged() keeps one product, uses and expiry for all."""
    return len({(b["product_id"], b["uses"], b["expires_at"]) for b in batches}) <= 1


def write_new(name: str, text: str, replace: bool) -> Path:
    """Write `text` to the file `name` (relative: to the current directory) and say its full path;
    FileExistsError if it exists and `replace` is false."""
    path = Path(name).expanduser().resolve()
    with path.open("w" if replace else "x", encoding="utf-8", newline="") as out:
        out.write(text)
    return path


class CodesScreen(Screen[None]):
    TITLE = "Access codes"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "issue", "Issue", id="codes.issue"),
        Binding("e", "export", "Export", id="codes.export"),
        Binding("r", "revoke", "Revoke", id="codes.revoke"),
        # Not in the footer (80 columns are few): in the help screen and the palette; the list's
        # border says "m: more" when more codes match.
        Binding("m", "more", "More", id="codes.more", show=False),
        Binding("b", "batch_filter", "Only this batch", id="codes.batch", show=False),
        Binding("slash", "focus_filter", "Filter by code", id="codes.filter", key_display="/", show=False),
        Binding("g", "refresh", "Refresh", id="codes.refresh", show=False),
    ]
    PALETTE: ClassVar[list[PaletteAction]] = [
        PaletteAction("Issue a batch of access codes", "issue", "Admin only: codes granting a product"),
        PaletteAction("Export codes to a file", "export", "The last batch issued, or else the listed codes"),
        PaletteAction("Revoke the selected code", "revoke", "Admin only: it cannot be redeemed any more"),
        PaletteAction("More codes", "more", "Load the next page of the list"),
        PaletteAction("Only the selected code's batch", "batch_filter", "Again: every batch"),
        PaletteAction("Filter by code", "focus_filter", "The code or its beginning"),
        PaletteAction("Refresh the codes", "refresh", "Ask the server for the list again"),
    ]
    DEFAULT_CSS = """
    CodesScreen #filters { height: 1; }
    CodesScreen #code-filter { width: 26; }
    CodesScreen #state-filter { width: 16; margin-left: 1; }
    CodesScreen #product-filter { width: 1fr; margin-left: 1; }
    CodesScreen #progress { display: none; height: 1; padding: 0 1; }
    CodesScreen #progress.issuing { display: block; }
    CodesScreen #codes { height: 1fr; border: round $primary; }
    CodesScreen #detail { height: 8; }
    CodesScreen #info { width: 1fr; height: 100%; padding: 0 1; border: round $primary; }
    CodesScreen #redemptions { width: 41; height: 100%; border: round $primary; }
    CodesScreen DataTable:focus { border: round $accent; }
    """
    disabled_reason = ADMIN_ONLY

    def __init__(self, api: AdminApi):
        super().__init__()
        self.api = api
        self.products: dict[str, dict] = {}
        self.codes: dict[str, dict] = {}  # the listed codes by id, in the list's order
        self.batch_id: str | None = None  # the batch filter (b)
        self.page = 0
        self.more = False
        self.detail: dict | None = None  # the code the detail panel shows
        self.last_batch: list[dict] = []  # what issuing answered, for export
        self.issuing = False
        self.batch_size = BATCH_SIZE  # codes per request when issuing

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="filters"):
            yield Input(placeholder="/ code or its beginning", id="code-filter", compact=True)
            yield Select([(s.value, s.value) for s in Status], prompt="any state", id="state-filter", compact=True)
            yield Select([], prompt="any product", id="product-filter", compact=True)
        with Horizontal(id="progress"):
            yield Label("Issuing codes ")
            yield ProgressBar(id="issue-bar", show_eta=False)
        codes: DataTable = DataTable(id="codes", cursor_type="row", zebra_stripes=True)
        codes.border_title = "Access codes"
        for label, key in COLUMNS:
            codes.add_column(label, key=key)
        yield codes
        with Horizontal(id="detail"):
            info = Static("Pick a code (Enter) to see who redeemed it.", id="info")
            info.border_title = "Code"
            yield info
            redemptions: DataTable = DataTable(id="redemptions", cursor_type="row")
            redemptions.border_title = "Redemptions"
            redemptions.add_columns("Account", "Redeemed")
            yield redemptions
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#codes", DataTable).focus()
        self.load_products()
        self.load_codes()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("issue", "revoke") and not self.api.is_admin:
            return None  # shown disabled in the footer; the palette and `?` say why
        return True

    # --- the list --------------------------------------------------------------------------------

    def _filters(self) -> dict[str, str]:
        filters: dict[str, str] = {}
        code = self.query_one("#code-filter", Input).value.strip()
        if code:
            filters["code"] = code
        for key, select_id in (("status", "#state-filter"), ("product_id", "#product-filter")):
            value = self.query_one(select_id, Select).selection
            if value is not None:
                filters[key] = str(value)
        if self.batch_id:
            filters["batch_id"] = self.batch_id
        return filters

    @work(exclusive=True, group="list")
    async def load_codes(self, page: int = 0) -> None:
        try:
            content = await self.api.access_codes(self._filters(), page=page, size=PAGE_SIZE)
        except AdminApiError as error:
            self.notify(str(error), title="Could not list the codes", severity="error")
            return
        table = self.query_one("#codes", DataTable)
        selected = self._cursor_id()
        if page == 0:
            table.clear()
            self.codes.clear()
        for code in content.get("entries") or []:
            if code["_id"] not in self.codes:  # codes issued since page 0 push older ones down a page
                self.codes[code["_id"]] = code
                table.add_row(*self._cells(code), key=code["_id"])
        if selected in self.codes:
            table.move_cursor(row=table.get_row_index(selected))
        self.page, self.more = page, bool(content.get("nextExists"))
        self._show_summary()
        self.refresh_bindings()  # the role may be known only now

    def _cells(self, code: dict) -> tuple[str | Text, ...]:
        expires = code.get("expires_at")
        return (
            code["code"],
            self._product_name(code["product_id"]),
            f"{code.get('redeemedCount', 0)}/{code.get('uses', 1)}",
            expires[:10] if expires else "never",
            code.get("status", ""),
        )

    def _product_name(self, product_id: str) -> Text:
        """For the narrow column: the title shortened (as Text: staff's text, never read as markup),
        or the end of the id while the products load."""
        product = self.products.get(product_id)
        return Text(shorten(product["title"], 18) if product else f"…{product_id[-6:]}")

    def _product_title(self, product_id: str) -> str:
        return self.products.get(product_id, {}).get("title") or product_id

    def _show_summary(self) -> None:
        table = self.query_one("#codes", DataTable)
        title = "Access codes"
        if self.batch_id:
            title += f" · batch …{self.batch_id[-6:]} (b: all)"
        table.border_title = title
        table.border_subtitle = f"{len(self.codes)} shown" + (" · m: more" if self.more else "")

    def _update_row(self, code: dict) -> None:
        self.codes[code["_id"]] = code
        table = self.query_one("#codes", DataTable)
        for (_, key), value in zip(COLUMNS, self._cells(code), strict=True):
            table.update_cell(code["_id"], key, value)

    def _cursor_id(self) -> str | None:
        table = self.query_one("#codes", DataTable)
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "code-filter":
            self.load_codes()
            self.query_one("#codes", DataTable).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("state-filter", "product-filter"):
            self.load_codes()

    def action_refresh(self) -> None:
        self.load_codes()

    def action_more(self) -> None:
        if self.more:
            self.load_codes(self.page + 1)
        else:
            self.notify("No more codes match", severity="information")

    def action_focus_filter(self) -> None:
        self.query_one("#code-filter", Input).focus()

    def action_batch_filter(self) -> None:
        if self.batch_id is not None:
            self.batch_id = None
        else:
            code_id = self._cursor_id()
            if code_id is None:
                self.notify("Select a code of the batch first", severity="warning")
                return
            self.batch_id = self.codes[code_id]["batchId"]
        self.load_codes()

    # --- products (the product column, the filter and the issue form) ---------------------------

    @work(exclusive=True, group="products")
    async def load_products(self) -> None:
        try:
            await self._fetch_products()
        except AdminApiError as error:
            self.notify(str(error), title="Could not list the products", severity="error")

    async def _fetch_products(self) -> None:
        products: list[dict] = []
        for page in range(PRODUCT_PAGES):
            content = await self.api.products(page)
            entries = content.get("entries") or []
            products += entries
            if len(entries) < (content.get("itemsPerPage") or 0) or not entries:
                break
        self.products = {p["_id"]: p for p in products}
        self.query_one("#product-filter", Select).set_options(
            (Text(shorten(p["title"], 40)), p["_id"]) for p in products
        )
        table = self.query_one("#codes", DataTable)
        for code in self.codes.values():
            table.update_cell(code["_id"], "product", self._product_name(code["product_id"]))
        if self.detail:  # opened before the products came: now with its product's title
            self._show_detail(self.detail)

    # --- detail ----------------------------------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "codes" and event.row_key.value:
            self.load_detail(event.row_key.value)

    @work(exclusive=True, group="detail")
    async def load_detail(self, code_id: str) -> None:
        try:
            code = await self.api.access_code(code_id)
        except AdminApiError as error:
            self.notify(str(error), title="Could not load the code", severity="error")
            return
        self._show_detail(code)
        if code_id in self.codes:
            self._update_row(code)

    def _show_detail(self, code: dict) -> None:
        self.detail = code
        expires = code.get("expires_at")
        product = self._product_title(code["product_id"])
        # Template variables: a product's title is staff's text, never read as markup.
        self.query_one("#info", Static).update(
            Content.from_markup(
                "[b]$code[/b]\n$status · $used/$uses used\n$product\nbatch $batch\nexpires $expires\nadded $added",
                code=code["code"],
                status=code["status"],
                used=code["redeemedCount"],
                uses=code["uses"],
                product=product,
                batch=code["batchId"],
                expires=long_time(expires) if expires else "never",
                added=long_time(code.get("added") or ""),
            )
        )
        table = self.query_one("#redemptions", DataTable)
        table.clear()
        for redemption in code.get("redemptions") or []:
            table.add_row(redemption.get("userId") or "(deleted)", short_time(redemption.get("redeemedAt")))

    # --- issuing (admin) -------------------------------------------------------------------------

    def action_issue(self) -> None:
        if self.issuing:
            self.notify("A batch is still being issued", severity="warning")
            return
        self.open_issue_form()

    @work(exclusive=True, group="issue-form")
    async def open_issue_form(self) -> None:
        if not self.products:
            try:
                await self._fetch_products()
            except AdminApiError as error:
                self.notify(str(error), title="Could not list the products", severity="error")
                return
        if not self.products:
            self.notify("There is no product for codes to grant", severity="warning")
            return
        request = await self.app.push_screen_wait(IssueForm(list(self.products.values())))
        if request is not None:
            self.issue(request)

    @work(group="issue")
    async def issue(self, request: IssueRequest) -> None:
        self.issuing = True
        progress = self.query_one("#issue-bar", ProgressBar)
        progress.update(total=request.count, progress=0)
        self.query_one("#progress").set_class(request.count > self.batch_size, "issuing")
        batches: list[dict] = []
        try:
            async for batch in issue_in_batches(
                self.api.issue_access_codes, request.body(), request.count, self.batch_size
            ):
                batches.append(batch)
                progress.advance(batch["count"])
        except AdminApiError as error:
            done = f"{sum(b['count'] for b in batches)} of {request.count} codes were issued, then: " if batches else ""
            self.notify(f"{done}{error}", title="Issue failed", severity="error", timeout=10)
        finally:
            self.issuing = False
            self.query_one("#progress").remove_class("issuing")
        if batches:
            self._issued(batches)

    def _issued(self, batches: list[dict]) -> None:
        self.last_batch = batches
        count = sum(b["count"] for b in batches)
        product = self._product_title(batches[0]["product_id"])
        which = f"batch {batches[0]['batchId']}" if len(batches) == 1 else f"{len(batches)} batches"
        # markup=False here and below: titles and file names are not markup.
        self.notify(f"{count} codes for {product} ({which}). e exports them.", title="Codes issued", markup=False)
        # The new codes are the newest: on top of the list once no filter hides them.
        with self.prevent(Select.Changed):
            self.query_one("#code-filter", Input).value = ""
            self.query_one("#state-filter", Select).clear()
            self.query_one("#product-filter", Select).clear()
        self.batch_id = None
        self.load_codes()

    # --- revoking (admin) ------------------------------------------------------------------------

    def action_revoke(self) -> None:
        code_id = self._cursor_id()
        if code_id is None:
            self.notify("No code selected", severity="warning")
            return
        code = self.codes[code_id]["code"]

        def answered(yes: bool | None) -> None:
            if yes:
                self.revoke(code_id)

        question = f"Revoke {code}? It cannot be redeemed any more; what it granted stays granted."
        self.app.push_screen(ConfirmScreen(question, "Revoke"), answered)

    @work(group="revoke")
    async def revoke(self, code_id: str) -> None:
        try:
            code = await self.api.revoke_access_code(code_id)
        except AdminApiError as error:
            self.notify(str(error), title="Refused", severity="error")
            return
        if code_id in self.codes:
            self._update_row(code)
        if self.detail and self.detail["_id"] == code_id:
            self._show_detail(code)
        self.notify(f"Access code {code['code']} is revoked")

    # --- export ----------------------------------------------------------------------------------

    def action_export(self) -> None:
        if self.last_batch:
            batches = self.last_batch
            what = f"The batch issued last: {sum(b['count'] for b in batches)} codes"
            default = f"codes-{batches[0]['batchId']}.csv"
        else:
            batches = batches_of(list(self.codes.values()))
            what = f"The listed codes: {len(self.codes)}"
            default = f"codes-{self.batch_id}.csv" if self.batch_id else "codes.csv"
        if not batches:
            self.notify("Nothing to export: issue a batch (i) or list some codes", severity="warning")
            return
        self.export(batches, what, default)

    @work(exclusive=True, group="export")
    async def export(self, batches: list[dict], what: str, default: str) -> None:
        request: ExportRequest | None = await self.app.push_screen_wait(ExportForm(what, default))
        if request is None:
            return
        if request.format is Format.json and not one_kind(batches):
            self.notify(
                "These codes differ in product, uses or expiry, which JSON cannot say: export CSV, "
                "or list one batch (b)",
                severity="error",
            )
            return
        text = json_text(batches) if request.format is Format.json else csv_text(batches)
        try:
            path = await self._write(request.path, text)
        except OSError as error:
            where = error.filename or request.path
            self.notify(f"{where}: {error.strerror or error}", title="Export failed", severity="error", markup=False)
            return
        if path is not None:
            count = sum(len(b["codes"]) for b in batches)
            self.notify(f"{count} codes written to {path}", title="Exported", markup=False)

    async def _write(self, name: str, text: str) -> Path | None:
        """Write the file; replace an existing one only once confirmed (None: it was kept)."""
        try:
            return await asyncio.to_thread(write_new, name, text, False)
        except FileExistsError as error:
            question = f"{error.filename} exists. Replace it?"
            if not await self.app.push_screen_wait(ConfirmScreen(question, "Replace")):
                self.notify("Not exported: the file is as it was", severity="warning")
                return None
            return await asyncio.to_thread(write_new, name, text, True)
