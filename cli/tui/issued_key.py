"""The one sight of a stream key: made or rotated, it is shown in this dialog with the RTMP and
SRT URLs to paste into an encoder, and copied from here. The server keeps only its hash, and the
console keeps nothing once the dialog closes: a lost key is replaced by rotating it."""

from dataclasses import dataclass
from typing import ClassVar

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


@dataclass(frozen=True)
class IssuedKey:
    """The answer of making or rotating a key (IssuedStreamKeyResponse's content)."""

    key: str
    rtmp_url: str
    srt_url: str | None

    @classmethod
    def of(cls, content: dict) -> "IssuedKey":
        return cls(content["key"], content["rtmp_url"], content.get("srt_url"))


class IssuedKeyScreen(ModalScreen[None]):
    """The key and its URLs, shown once; r, s and k copy them through the terminal (OSC 52)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "copy('rtmp')", "Copy RTMP URL", id="issued_key.copy_rtmp"),
        Binding("s", "copy('srt')", "Copy SRT URL", id="issued_key.copy_srt"),
        Binding("k", "copy('key')", "Copy key", id="issued_key.copy_key"),
        Binding("escape", "dismiss(None)", "Done", id="issued_key.done"),
    ]
    DEFAULT_CSS = """
    IssuedKeyScreen { align: center middle; }
    IssuedKeyScreen > Vertical { width: 78; height: auto; border: thick $warning; background: $surface; padding: 0 1; }
    IssuedKeyScreen .secret { margin-bottom: 1; }
    IssuedKeyScreen Horizontal { height: auto; align-horizontal: right; }
    IssuedKeyScreen Button { margin-left: 1; }
    """

    def __init__(self, title: str, verb: str, issued: IssuedKey):
        super().__init__()
        self.event_title = title
        self.verb = verb
        self.issued = issued

    def compose(self) -> ComposeResult:
        issued = self.issued
        with Vertical():
            yield Label(f"{self.verb} the stream key of [b]{escape(self.event_title)}[/b]")
            yield Label(Text("Shown only this once: paste it into the encoder now.", style="bold"))
            yield Label(Text("Key", style="dim"))
            yield Static(Text(issued.key), id="key", classes="secret")
            yield Label(Text("RTMP URL (server and key in one)", style="dim"))
            yield Static(Text(issued.rtmp_url), id="rtmp", classes="secret")
            if issued.srt_url:
                yield Label(Text("SRT URL", style="dim"))
                yield Static(Text(issued.srt_url), id="srt", classes="secret")
            # Terminals that refuse OSC 52 ignore a copy: the text can still be selected.
            yield Static(Text("Copies go through the terminal (OSC 52); if it refuses, select the text.", style="dim"))
            with Horizontal():
                yield Button("Copy RTMP (r)", id="copy-rtmp", compact=True)
                if issued.srt_url:
                    yield Button("Copy SRT (s)", id="copy-srt", compact=True)
                yield Button("Copy key (k)", id="copy-key", compact=True)
                yield Button("Done", id="done", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#done", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "done":
            self.dismiss(None)
        elif event.button.id:
            self.action_copy(event.button.id.removeprefix("copy-"))

    def action_copy(self, what: str) -> None:
        texts = {"rtmp": ("RTMP URL", self.issued.rtmp_url), "srt": ("SRT URL", self.issued.srt_url)}
        name, text = texts.get(what, ("key", self.issued.key))
        if not text:
            self.notify("This key has no SRT URL (the server takes no SRT)", severity="warning")
            return
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied the {name} to the clipboard")
