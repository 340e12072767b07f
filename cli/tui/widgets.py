"""What every screen shares: the confirmation modal, the `?` help screen, the command palette's
provider of the current screen's actions, and small formatting helpers."""

from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Label, Static


@dataclass(frozen=True)
class PaletteAction:
    """An action a screen offers in the command palette (`action` is the screen's action name)."""

    title: str
    action: str
    help: str


def short_time(value: str | None) -> str:
    """'2026-11-24T17:30:00Z' → '11-24 17:30' (what fits a narrow column)."""
    if not value:
        return "—"
    return value[5:16].replace("T", " ")


def selected_row_key(table: DataTable) -> str | None:
    """The key of the row under the table's cursor, None when it has no rows."""
    if table.row_count == 0:
        return None
    try:
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
    except Exception:  # the cursor is past the rows
        return None


class ConfirmScreen(ModalScreen[bool]):
    """Yes or no for a destructive action: Enter/y confirms, Escape/n cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 60; height: auto; border: thick $warning; background: $surface; padding: 1 2; }
    ConfirmScreen Horizontal { height: auto; align-horizontal: right; margin-top: 1; }
    ConfirmScreen Button { margin-left: 2; }
    """

    def __init__(self, question: str, confirm_label: str = "Yes"):
        super().__init__()
        self.question = question
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, id="question")
            with Horizontal():
                yield Button("Cancel", id="no")
                yield Button(self.confirm_label, id="yes", variant="error")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class HelpScreen(ModalScreen[None]):
    """`?`: the keys of the screen it was opened from, and of the whole app."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "app.pop_screen", "Close", id="help.close")
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 70; height: 20; border: thick $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, of: Screen):
        super().__init__()
        self.of = of

    def compose(self) -> ComposeResult:
        lines = [f"[b]{self.of.title or type(self.of).__name__}[/b] — keys", ""]
        for key, binding in self._key_lines():
            lines.append(f"  [b]{key:<10}[/b] {binding}")
        lines += ["", "  [b]ctrl+p[/b]     command palette (this screen's actions)", "  Esc or ? closes this help."]
        with VerticalScroll():
            yield Static("\n".join(lines), id="help-text")

    def _key_lines(self) -> list[tuple[str, str]]:
        seen: list[tuple[str, str]] = []
        for namespace in (self.of, self.app):
            for binding in getattr(namespace, "BINDINGS", []):
                if isinstance(binding, Binding) and binding.description:
                    key = binding.key_display or binding.key.split(",")[0]
                    reason = ""
                    if namespace is self.of and self.of.check_action(binding.action, ()) is None:
                        reason = f" (disabled: {getattr(self.of, 'disabled_reason', '')})"
                    seen.append((key, f"{binding.description}{reason}"))
        return seen


class ScreenActions(Provider):
    """The command palette's entries for the current screen (its PALETTE), disabled ones named."""

    def _actions(self) -> list[tuple[str, PaletteAction, bool]]:
        screen = self.screen
        result = []
        for entry in getattr(screen, "PALETTE", []):
            result.append((entry.title, entry, screen.check_action(entry.action, ()) is True))
        # Then the app's own (going to another screen), always available.
        result.extend((entry.title, entry, True) for entry in getattr(self.app, "PALETTE", []))
        return result

    def _run(self, entry: PaletteAction, enabled: bool) -> None:
        if not enabled:
            reason = getattr(self.screen, "disabled_reason", "not available here")
            self.app.notify(f"{entry.title}: {reason}", severity="warning")
            return
        own = entry in getattr(self.screen, "PALETTE", [])
        self.screen.call_later(self.app.run_action, entry.action, self.screen if own else self.app)

    def _label(self, title: str, enabled: bool) -> str:
        return title if enabled else f"{title} (disabled)"

    async def discover(self) -> Hits:
        for title, entry, enabled in self._actions():
            yield DiscoveryHit(self._label(title, enabled), partial(self._run, entry, enabled), help=entry.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, entry, enabled in self._actions():
            label = self._label(title, enabled)
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), partial(self._run, entry, enabled), help=entry.help)
