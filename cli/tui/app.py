"""TouchlineAdmin: the Textual app behind `touchline admin`.

Screens are modes: the dashboard (d, the first), users (u), access codes (c), live control (v),
the audit log (a), the media library (M: shift+m, as m is a key of three screens) and the
viewers' quality of experience (Q: shift+q, as q quits).
`?` shows the current screen's keys, ctrl+p the command palette with the current screen's actions
(ScreenActions) besides Textual's own.
All I/O runs in the screens' workers through AdminApi; errors arrive as notifications."""

from collections.abc import Callable
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from .api import REFRESH_SECONDS, AdminApi
from .audit import AuditScreen
from .codes import CodesScreen
from .dashboard import DashboardScreen
from .live import LiveControlScreen
from .media import MediaScreen
from .media_jobs import MEDIA_REFRESH_SECONDS
from .qoe import QoeScreen
from .users import UsersScreen
from .widgets import HelpScreen, PaletteAction, ScreenActions

# Each mode's key and the word the header gives it, in the order of the header.
MODE_KEYS = (
    ("dashboard", "d dash"),
    ("users", "u users"),
    ("codes", "c codes"),
    ("live", "v live"),
    ("audit", "a audit"),
    ("media", "M media"),
    ("qoe", "Q qoe"),
)


def keys_of_modes(but: str | None = None) -> str:
    """'d dash·u users·…': the keys of every mode except `but` (without spaces around the dots)."""
    return "·".join(words for mode, words in MODE_KEYS if mode != but)


class TouchlineAdmin(App[None]):
    TITLE = "Touchline admin"
    COMMANDS = App.COMMANDS | {ScreenActions}
    # The screens' own actions fill the footer at 80 columns: the mode keys are in the header
    # instead, in `?` and in the command palette (PALETTE). Each screen's header lists the keys of
    # the other modes (its own is where staff are already): all seven do not fit beside the
    # longest screen title at 80 columns.
    SUB_TITLE = keys_of_modes()
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "switch_mode('dashboard')", "Dashboard", id="app.dashboard", show=False),
        Binding("u", "switch_mode('users')", "Users", id="app.users", show=False),
        Binding("c", "switch_mode('codes')", "Codes", id="app.codes", show=False),
        Binding("v", "switch_mode('live')", "Live control", id="app.live", show=False),
        Binding("a", "switch_mode('audit')", "Audit log", id="app.audit", show=False),
        Binding("M", "switch_mode('media')", "Media library", id="app.media", show=False),
        Binding("Q", "switch_mode('qoe')", "Quality of experience", id="app.qoe", show=False),
        Binding("question_mark", "help", "Help", id="app.help", key_display="?"),
        Binding("q", "quit", "Quit", id="app.quit"),
    ]
    PALETTE: ClassVar[list[PaletteAction]] = [
        PaletteAction("Go to the dashboard (d)", "switch_mode('dashboard')", "Live events, kickoffs, activity, jobs"),
        PaletteAction("Go to users (u)", "switch_mode('users')", "Accounts, devices, sessions, purchases, mail"),
        PaletteAction("Go to access codes (c)", "switch_mode('codes')", "Issue, export, revoke; redemptions"),
        PaletteAction("Go to live control (v)", "switch_mode('live')", "Go live, finish, ingest, keys, messages"),
        PaletteAction("Go to the audit log (a)", "switch_mode('audit')", "Who did what, filterable"),
        PaletteAction("Go to the media library (M)", "switch_mode('media')", "Uploads, transcoding, highlights"),
        PaletteAction("Go to quality of experience (Q)", "switch_mode('qoe')", "Live events' QoE, ingest, credit"),
    ]

    def __init__(self, api: AdminApi, *, refresh_seconds: float = REFRESH_SECONDS):
        super().__init__()
        self.api = api
        self.refresh_seconds = refresh_seconds

    def on_mount(self) -> None:
        self._add_mode("dashboard", lambda: DashboardScreen(self.api, self.refresh_seconds))
        self._add_mode("users", lambda: UsersScreen(self.api))
        self._add_mode("live", lambda: LiveControlScreen(self.api, self.refresh_seconds))
        self._add_mode("codes", lambda: CodesScreen(self.api))
        self._add_mode("audit", lambda: AuditScreen(self.api))
        # Its live updates come over the socket: the list itself is asked again only slowly.
        self._add_mode("media", lambda: MediaScreen(self.api, max(self.refresh_seconds, MEDIA_REFRESH_SECONDS)))
        self._add_mode("qoe", lambda: QoeScreen(self.api, self.refresh_seconds))
        self.switch_mode("dashboard")

    def _add_mode(self, mode: str, make: Callable[[], Screen]) -> None:
        def screen() -> Screen:
            made = make()
            made.sub_title = keys_of_modes(but=mode)
            return made

        self.add_mode(mode, screen)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    async def on_unmount(self) -> None:
        await self.api.aclose()
