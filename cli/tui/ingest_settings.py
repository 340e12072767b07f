"""An event's ingest settings in live control (PATCH /admin/events/{id}/ingest): how an upcoming
event's feed goes live (near kickoff, armed to go live at its first segments, or off: a staff
preview until go-live) and how far viewers may rewind it. The minutes are checked here as the API
checks them, and what is wrong is said inline; a blank rewind is the server's own window again."""

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

AUTOSTART_CHOICES: tuple[tuple[str, str], ...] = (
    ("Near kickoff (the default)", "kickoff"),
    ("Armed: live at its first segments", "armed"),
    ("Off: a preview until go-live", "off"),
)
AUTOSTART_VALUES: dict[str, bool | None] = {"kickoff": None, "armed": True, "off": False}
# The API's bounds on dvrSeconds (IngestSettingsRequest): 60..86400 s.
MIN_REWIND_MINUTES, MAX_REWIND_MINUTES = 1, 1440


@dataclass(frozen=True)
class IngestSettings:
    autostart: bool | None
    dvr_seconds: int | None  # None: the server's TOUCHLINE_DVR_SECONDS

    def body(self) -> dict[str, Any]:
        return {"autostart": self.autostart, "dvrSeconds": self.dvr_seconds}


def choice_of(autostart: bool | None) -> str:
    return next(choice for choice, value in AUTOSTART_VALUES.items() if value is autostart)


def rewind_problem(text: str) -> str | None:
    """What is wrong with the rewind minutes typed; None when they will do (blank: the default)."""
    if not text:
        return None
    if not text.isdigit():
        return "The rewind is a whole number of minutes."
    if not MIN_REWIND_MINUTES <= int(text) <= MAX_REWIND_MINUTES:
        return f"The rewind is {MIN_REWIND_MINUTES} to {MAX_REWIND_MINUTES} minutes (24 hours)."
    return None


class IngestSettingsScreen(ModalScreen[IngestSettings | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel", id="ingest_settings.cancel")]
    DEFAULT_CSS = """
    IngestSettingsScreen { align: center middle; }
    IngestSettingsScreen > Vertical {
        width: 64; height: auto; border: thick $accent; background: $surface; padding: 0 1;
    }
    IngestSettingsScreen #error { color: $error; }
    IngestSettingsScreen Horizontal { height: auto; align-horizontal: right; }
    IngestSettingsScreen Button { margin-left: 2; }
    """

    def __init__(self, title: str, autostart: bool | None, rewind_minutes: int | None):
        super().__init__()
        self.event_title = title
        self.autostart = autostart
        self.rewind_minutes = rewind_minutes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Ingest of [b]{escape(self.event_title)}[/b]")
            yield Label("Goes live")
            yield Select(AUTOSTART_CHOICES, value=choice_of(self.autostart), allow_blank=False, id="autostart")
            yield Label("Viewers rewind up to (minutes; blank: the server's window)")
            value = "" if self.rewind_minutes is None else str(self.rewind_minutes)
            yield Input(value, placeholder="the server's window", id="rewind", restrict=r"\d*", max_length=4)
            yield Label(Text("A new rewind applies to the live recording at once.", style="dim"))
            yield Label("", id="error")
            with Horizontal():
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Save", id="save", variant="primary", compact=True)

    def on_input_submitted(self) -> None:
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        text = self.query_one("#rewind", Input).value.strip()
        problem = rewind_problem(text)
        if problem:
            self.query_one("#error", Label).update(Text(problem))
            return
        choice = self.query_one("#autostart", Select).value
        autostart = AUTOSTART_VALUES[str(choice)]
        self.dismiss(IngestSettings(autostart, int(text) * 60 if text else None))
