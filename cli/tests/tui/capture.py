"""Plain-text captures of the TUI's current screen (what a terminal of the app's size shows), for
the notes and for reading a screen in a failing test; the SVG snapshots are the tests' baselines."""

import io

from rich.console import Console
from textual.app import App


def text_capture(app: App) -> str:
    """The current screen, as text, at the running app's size (same rendering as export_screenshot)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()
