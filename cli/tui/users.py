"""Users: search accounts by e-mail address or name (Enter), pick one (Enter on a row) to see its
profile and, in tabs, its devices, active sessions, purchases, contracts, follows and the latest
mail to its address. Revoke a session (s), remove a device (x) or send a mail again (m), each
after a confirmation: all support-level actions, so admin and support staff may use them."""

import asyncio
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static, TabbedContent, TabPane

from .api import AdminApi, AdminApiError
from .widgets import ConfirmScreen, PaletteAction, short_time

FOLLOW_KINDS = {"identity": "sport", "identity_item": "league", "team": "team"}
# The account's sections: (table id, tab label, (column, width)...). Each table sits in the tab
# "<id>-tab"; the widths fit 80 columns, longer text ends in "…".
SECTIONS: tuple[tuple[str, str, tuple[tuple[str, int], ...]], ...] = (
    ("devices", "Devices", (("Device", 18), ("OS", 12), ("Added", 11))),
    ("sessions", "Sessions", (("Device", 18), ("Via", 11), ("Last used", 11))),
    ("purchases", "Purchases", (("When", 11), ("Product", 14), ("Status", 7), ("Price", 9))),
    ("contracts", "Contracts", (("Product", 14), ("State", 9), ("Ends", 11), ("Renews", 6))),
    ("follows", "Follows", (("What", 6), ("Name", 24), ("Since", 11))),
    ("mail", "Mail", (("When", 11), ("Kind", 14), ("Subject", 19))),
)


def cell(value: str | None) -> Text:
    """A cell of the account's text: never read as markup, cut with "…" at the column's width."""
    return Text(value or "—", no_wrap=True, overflow="ellipsis")


def fit(text: str, width: int) -> str:
    """`text` cut with "…" to `width` characters (the confirmation dialog does not wrap)."""
    cut = Text(text)
    cut.truncate(width, overflow="ellipsis")
    return cut.plain


def money(entry: dict) -> str:
    """`9.99 EUR`; whole amounts without decimals (`10 EUR`, `1000 JPY`)."""
    price = entry.get("price") or 0
    amount = f"{price:g}" if float(price).is_integer() else f"{price:.2f}"
    return f"{amount} {entry.get('currency', '')}".strip()


class UsersScreen(Screen[None]):
    TITLE = "Users"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search", id="users.search", key_display="/"),
        Binding("s", "revoke_session", "Revoke session", id="users.revoke_session"),
        Binding("x", "remove_device", "Remove device", id="users.remove_device"),
        Binding("m", "resend_mail", "Resend mail", id="users.resend_mail"),
    ]
    PALETTE: ClassVar[list[PaletteAction]] = [
        PaletteAction("Search users", "focus_search", "Find accounts by e-mail address or name"),
        PaletteAction("Revoke the selected session", "revoke_session", "End one sign-in of the account"),
        PaletteAction("Remove the selected device", "remove_device", "Unregister a device of the account"),
        PaletteAction("Resend the selected mail", "resend_mail", "Write the mail to the account's address again"),
    ]
    DEFAULT_CSS = """
    UsersScreen #left { width: 30; }
    UsersScreen #results { height: 1fr; border: round $primary; }
    UsersScreen #right { width: 1fr; }
    UsersScreen #profile { height: auto; padding: 0 1; border: round $primary; }
    UsersScreen #sections { height: 1fr; }
    UsersScreen #sections Tab { padding: 0 0 0 1; }
    UsersScreen #sections TabPane { height: 1fr; padding: 0; }
    UsersScreen #sections DataTable { height: 1fr; }
    UsersScreen #results:focus { border: round $accent; }
    """

    def __init__(self, api: AdminApi):
        super().__init__()
        self.api = api
        self.user_id: str | None = None
        self.email: str | None = None
        self.found: dict[str, dict] = {}  # the last search's accounts, by id
        self.mail: dict[str, dict] = {}  # the mail listed, by id

    disabled_reason = "select an account first"

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                yield Input(placeholder="e-mail or name, Enter", id="query")
                results: DataTable = DataTable(id="results", cursor_type="row")
                results.border_title = "Accounts"
                results.add_columns("E-mail", "Role")
                yield results
            with Vertical(id="right"):
                profile = Static("Search, then pick an account (Enter).", id="profile")
                profile.border_title = "Profile"
                yield profile
                with TabbedContent(id="sections"):
                    for table_id, label, columns in SECTIONS:
                        with TabPane(label, id=f"{table_id}-tab"):
                            table: DataTable = DataTable(id=table_id, cursor_type="row", zebra_stripes=True)
                            for label, width in columns:
                                table.add_column(label, width=width)
                            yield table
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#query", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("revoke_session", "remove_device", "resend_mail") and self.user_id is None:
            return None
        return True

    def action_focus_search(self) -> None:
        self.query_one("#query", Input).focus()

    # --- search and detail -----------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.search(event.value.strip())

    @work(exclusive=True, group="search")
    async def search(self, query: str) -> None:
        try:
            users = await self.api.find_users(query)
        except AdminApiError as error:
            self.notify(str(error), title="Search failed", severity="error")
            return
        self.found = {user["userId"]: user for user in users}
        table = self.query_one("#results", DataTable)
        table.clear()
        for user in users:
            table.add_row(cell(user.get("email") or "(deleted)"), user.get("role", ""), key=user["userId"])
        if users:
            table.focus()
        else:
            self.notify(f"No account matches {query!r}", severity="warning")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "results" and event.row_key.value:
            user_id = event.row_key.value
            self.load_user(user_id, (self.found.get(user_id) or {}).get("email"))

    @work(exclusive=True, group="detail")
    async def load_user(self, user_id: str, email: str | None) -> None:
        """The account and all its sections at once; the mail only when it still has an address."""
        api = self.api
        try:
            # Two levels so each answer keeps its type (gather types at most six arguments).
            detail, (devices, sessions, purchases, contracts, follows, mail) = await asyncio.gather(
                api.user(user_id),
                asyncio.gather(
                    api.devices(user_id),
                    api.sessions(user_id),
                    api.purchases(user_id),
                    api.contracts(user_id),
                    api.follows(user_id),
                    self._mail_to(email),
                ),
            )
        except AdminApiError as error:
            self.notify(str(error), title="Could not load the account", severity="error")
            return
        self.user_id, self.email = user_id, email
        self._show_profile(user_id, detail.get("user") or {})
        self._show_devices(devices)
        self._show_sessions(sessions)
        self._fill("purchases", [(p["_id"], self._purchase_row(p)) for p in purchases])
        self._fill("contracts", [(c["id"], self._contract_row(c)) for c in contracts])
        self._fill("follows", [(f["_id"], self._follow_row(f)) for f in follows])
        self.mail = {m["_id"]: m for m in mail}
        self._fill("mail", [(m["_id"], self._mail_row(m)) for m in mail])
        self.refresh_bindings()

    async def _mail_to(self, email: str | None) -> list[dict]:
        """The latest mail to the address; none for an account whose address was erased."""
        return await self.api.mail_to(email) if email else []

    def _show_profile(self, user_id: str, user: dict) -> None:
        name, email = escape(user.get("displayName") or ""), escape(user.get("email") or "")  # the user's own text
        self.query_one("#profile", Static).update(
            f"[b]{name}[/b] <{email}> {user.get('role', '')}\n"
            f"id {user_id}" + (" · [b red]deleted[/]" if user.get("deleted") else "") + "\n"
            f"since {short_time(user.get('added'))} · last sign-in {short_time(user.get('lastSignIn'))}"
        )

    def _fill(self, table_id: str, rows: Sequence[tuple[str, Sequence[str]]]) -> None:
        table = self.query_one(f"#{table_id}", DataTable)
        table.clear()
        for key, cells in rows:
            table.add_row(*(cell(value) for value in cells), key=key)

    def _show_devices(self, devices: list[dict]) -> None:
        rows = []
        for device in devices:
            os_name = " ".join(filter(None, (device.get("osName"), device.get("osVersion")))) or "—"
            name = device.get("deviceName") or device.get("deviceId") or ""
            rows.append((device["_id"], (name, os_name, short_time(device.get("added")))))
        self._fill("devices", rows)

    def _show_sessions(self, sessions: list[dict]) -> None:
        rows = []
        for session in sessions:
            name = session.get("deviceName") or session.get("deviceId") or ""
            rows.append((session["_id"], (name, session.get("provider", ""), short_time(session.get("lastUsed")))))
        self._fill("sessions", rows)

    @staticmethod
    def _purchase_row(purchase: dict) -> tuple[str, ...]:
        return (short_time(purchase.get("added")), purchase.get("title", ""), purchase["status"], money(purchase))

    @staticmethod
    def _contract_row(contract: dict) -> tuple[str, ...]:
        state = "canceled" if contract.get("canceled") else contract.get("status", "")
        renews = "yes" if contract.get("autoRenew") else "no"
        return (contract.get("title", ""), state, short_time(contract.get("contractEndDate")), renews)

    @staticmethod
    def _follow_row(follow: dict) -> tuple[str, ...]:
        kind = FOLLOW_KINDS.get(follow.get("type", ""), follow.get("type", ""))
        return (kind, (follow.get("item") or {}).get("title", ""), short_time(follow.get("added")))

    @staticmethod
    def _mail_row(mail: dict) -> tuple[str, ...]:
        return (short_time(mail.get("added")), mail.get("kind", ""), mail.get("subject", ""))

    # --- revoking and resending ------------------------------------------------------------------

    def _selected(self, table_id: str) -> tuple[str, str] | None:
        table = self.query_one(f"#{table_id}", DataTable)
        if table.row_count == 0:
            return None
        row_key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(row_key.value), str(table.get_row(row_key)[0])

    def action_revoke_session(self) -> None:
        self._confirm(
            "sessions",
            "session",
            "Revoke the session on {name}? Its refresh tokens stop working.",
            "Revoke",
            self.revoke,
        )

    def action_remove_device(self) -> None:
        self._confirm("devices", "device", "Remove the device {name}? It must sign in again.", "Remove", self.revoke)

    def action_resend_mail(self) -> None:
        self._confirm("mail", "mail", "Send this mail again (a new outbox entry)?\n{name}", "Resend", self.resend)

    def _confirm(
        self, table_id: str, noun: str, question: str, label: str, act: Callable[[str, str, str, str], object]
    ) -> None:
        """Show the section, then ask; `act(table_id, user_id, item_id, name)` runs on yes."""
        self.query_one("#sections", TabbedContent).active = f"{table_id}-tab"
        user_id = self.user_id
        selected = self._selected(table_id)
        if user_id is None or selected is None:
            self.notify(f"No {noun} selected", severity="warning")
            return
        item_id, name = selected
        if table_id == "mail":  # name the mail by its subject and address (lines the dialog's width), not its date
            mail = self.mail[item_id]
            name = f"“{fit(mail.get('subject', ''), 50)}”\nto {fit(mail.get('to', ''), 50)}"

        def answered(yes: bool | None) -> None:
            if yes:
                act(table_id, user_id, item_id, name)

        self.app.push_screen(ConfirmScreen(question.format(name=name), label), answered)

    @work(exclusive=False, group="revoke")
    async def revoke(self, table_id: str, user_id: str, item_id: str, name: str) -> None:
        try:
            if table_id == "sessions":
                await self.api.revoke_session(user_id, item_id)
            else:
                await self.api.remove_device(user_id, item_id)
        except AdminApiError as error:
            self.notify(str(error), title="Refused", severity="error")
            return
        self.notify(f"{'Session revoked' if table_id == 'sessions' else 'Device removed'}: {name}")
        self.load_user(user_id, self.email)

    @work(exclusive=False, group="resend")
    async def resend(self, table_id: str, user_id: str, mail_id: str, name: str) -> None:
        try:
            resent = await self.api.resend_mail(mail_id)
        except AdminApiError as error:
            self.notify(str(error), title="Could not resend", severity="error")
            return
        self.notify(f"Mail resent: {name} (new entry {resent['_id']}, {resent.get('status', '')})")
        self.load_user(user_id, self.email)
