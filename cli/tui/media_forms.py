"""The Media screen's forms (cli/tui/media.py): attach an asset to its event as the archive or as
a highlight of it, and cut a highlight from a range of it. Each is a modal that answers a
dataclass, or None when cancelled (Escape); what the API would refuse for certain (an empty or
reversed range, one longer than the API's 30 minutes or past the asset's end, a missing title)
is said under the fields before anything is sent. The rest (the asset not ready, a live event)
is the server's to say."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

from .codes_forms import FORM_CSS, FormError, form_row
from .media_jobs import clock

# MediaAttach.as and MediaCut.as in openapi/openapi.yaml.
ATTACH_AS = (
    ("archive", "the event's archive (its replay)"),
    ("highlight", "a highlight of the event"),
    ("recap", "a recap of the event"),
    ("condensed", "the condensed match"),
    ("clip", "a clip of the event"),
)
HIGHLIGHT_KINDS = ("highlight", "recap", "condensed", "clip")
TITLE_MAX = 200
CUT_MAX_SECONDS = 30 * 60
# Seconds ("75", "12.5"), m:ss ("1:15") or h:mm:ss ("1:02:03").
TIME = re.compile(r"(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class AttachRequest:
    as_: str
    title: str | None = None

    def body(self) -> dict[str, Any]:
        """POST /admin/media_assets/{id}/attach's body."""
        return {"as": self.as_} | ({"title": self.title} if self.title else {})


@dataclass(frozen=True)
class CutRequest:
    start: float
    end: float
    title: str
    as_: str = "highlight"

    def body(self) -> dict[str, Any]:
        """POST /admin/media_assets/{id}/cuts's body (whole seconds as integers)."""
        return {"from": _number(self.start), "to": _number(self.end), "title": self.title, "as": self.as_}


def _number(seconds: float) -> int | float:
    return int(seconds) if float(seconds).is_integer() else seconds


def parse_seconds(text: str) -> float:
    """'75', '1:15' and '0:01:15' are 75 seconds; ValueError for anything else."""
    found = TIME.fullmatch(text.strip())
    if not found:
        raise ValueError(text)
    hours, minutes, seconds = found.groups()
    if (minutes is not None and float(seconds) >= 60) or (hours is not None and int(minutes) >= 60):
        raise ValueError(text)
    return int(hours or 0) * 3600 + int(minutes or 0) * 60 + float(seconds)


def cut_request(start: str, end: str, title: str, as_: object, length_seconds: float | None) -> CutRequest:
    """The cut form's fields, checked; FormError names the first wrong one."""
    times = []
    for field, text in (("from", start), ("to", end)):
        try:
            times.append(parse_seconds(text))
        except ValueError:
            raise FormError(field, f"{field.capitalize()}: seconds (75), m:ss (1:15) or h:mm:ss") from None
    first, last = times
    if last <= first:
        raise FormError("to", "To must come after From")
    if last - first > CUT_MAX_SECONDS:
        raise FormError("to", f"A cut is at most {clock(CUT_MAX_SECONDS)} long")
    if length_seconds is not None and last > length_seconds:
        raise FormError("to", f"The asset is {clock(length_seconds)} long")
    clean_title = title.strip()
    if not clean_title:
        raise FormError("title", "Give the highlight a title")
    if len(clean_title) > TITLE_MAX:
        raise FormError("title", f"The title is at most {TITLE_MAX} characters")
    return CutRequest(first, last, clean_title, as_ if isinstance(as_, str) else "highlight")


def attach_request(as_: object, title: str) -> AttachRequest:
    """The attach form's fields, checked; an archive keeps its event's title (the API's rule)."""
    if not isinstance(as_, str):
        raise FormError("as", "Pick what the asset becomes")
    clean_title = title.strip() if as_ != "archive" else ""
    if len(clean_title) > TITLE_MAX:
        raise FormError("title", f"The title is at most {TITLE_MAX} characters")
    return AttachRequest(as_, clean_title or None)


class _Form(ModalScreen[Any]):
    """Enter in a field or the form's button checks the fields; a wrong field is named under the
    fields and gets the focus."""

    BUTTON = "ok"
    # Each form's fields as its request, or FormError naming the wrong field.
    check: Callable[[], Any]

    def submit(self) -> None:
        try:
            request = self.check()
        except FormError as error:
            self.query_one("#error", Label).update(Text(str(error)))
            self.query_one(f"#{error.field}").focus()
            return
        self.dismiss(request)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == self.BUTTON:
            self.submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AttachForm(_Form):
    """Publish the asset: as its event's archive, or as a new highlight event with a title
    (the asset's when left empty)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="attach_form.cancel")]
    DEFAULT_CSS = FORM_CSS.format(form="AttachForm")
    BUTTON = "attach"

    def __init__(self, asset_title: str, event_title: str):
        super().__init__()
        self.asset_title = asset_title
        self.event_title = event_title

    def compose(self) -> ComposeResult:
        with Vertical() as form:
            form.border_title = "Attach to its event"
            yield Label(Text(f"{self.asset_title} → {self.event_title}"), classes="row")
            options = [(f"{name}: {words}", name) for name, words in ATTACH_AS]
            yield form_row("As", Select(options, value="archive", allow_blank=False, id="as", compact=True))
            yield form_row(
                "Title", Input(placeholder="a highlight's; empty: the asset's", id="title", compact=True, disabled=True)
            )
            yield Label("", id="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Attach", id="attach", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#as", Select).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        # An archive is the event itself: it keeps the event's title.
        self.query_one("#title", Input).disabled = event.value == "archive"

    def check(self) -> AttachRequest:
        return attach_request(self.query_one("#as", Select).value, self.query_one("#title", Input).value)


class CutForm(_Form):
    """A highlight from [from, to) of the asset: times in seconds, m:ss or h:mm:ss, a title, and
    its kind."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="cut_form.cancel")]
    DEFAULT_CSS = FORM_CSS.format(form="CutForm")
    BUTTON = "cut"

    def __init__(self, asset_title: str, length_seconds: float | None):
        super().__init__()
        self.asset_title = asset_title
        self.length_seconds = length_seconds

    def compose(self) -> ComposeResult:
        length = f"{clock(self.length_seconds)} long" if self.length_seconds is not None else "length unknown"
        with Vertical() as form:
            form.border_title = "Cut a highlight"
            yield Label(Text(f"From {self.asset_title} ({length}; a cut is at most 30:00)"), classes="row")
            yield form_row("From", Input(placeholder="seconds, m:ss or h:mm:ss", id="from", compact=True))
            yield form_row("To", Input(placeholder="seconds, m:ss or h:mm:ss", id="to", compact=True))
            yield form_row("Title", Input(placeholder="e.g. Opening goal", id="title", compact=True))
            kinds = [(kind, kind) for kind in HIGHLIGHT_KINDS]
            yield form_row("Kind", Select(kinds, value="highlight", allow_blank=False, id="kind", compact=True))
            yield Label("", id="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Cut", id="cut", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#from", Input).focus()

    def check(self) -> CutRequest:
        return cut_request(
            self.query_one("#from", Input).value,
            self.query_one("#to", Input).value,
            self.query_one("#title", Input).value,
            self.query_one("#kind", Select).value,
            self.length_seconds,
        )
