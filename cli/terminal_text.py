"""Server-supplied text made safe for a staff terminal.

Names, device strings, mail subjects and audit targets are other people's text. Printed raw, a
control character in them is an instruction to the terminal: ESC starts a sequence that clears
the screen, moves the cursor or retitles the window, C1's CSI (U+009B) does the same in one
character, and NUL, BEL, backspace and DEL hide or rewrite what staff read. Every control
character (Unicode category Cc) is therefore shown as a visible escape, ESC as `\\x1b`, and so
are the bidirectional overrides that make text read in a different order than it is stored.

Applied in one place for each way out: `SafeConsole` (every string the commands print through
rich, table cells included), `echo` (plain lines), `json_text` (--json output) and the TUI's
data layer (cli/tui/api.py), so no command or screen has to remember it.
"""

import json
import re
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

# C0, DEL and C1, and the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_UNSAFE = re.compile("[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]")
# What json.dumps leaves raw in strings (it escapes C0 itself; outside strings only its own spaces and line breaks).
_UNSAFE_IN_JSON = re.compile("[\u007f-\u009f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) <= 0xFF else f"\\u{ord(char):04x}"


def visible(text: str) -> str:
    """`text` with every control character written out as an escape (ESC → `\\x1b`)."""
    return _UNSAFE.sub(_escape, text)


def visible_lines(text: str) -> str:
    """As `visible`, keeping line breaks as line breaks (a mail's body, a multi-line message)."""
    return "\n".join(visible(line) for line in text.replace("\r\n", "\n").split("\n"))


def visible_data(value: Any) -> Any:
    """Every string of a JSON-like value (keys too) made visible."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {visible(key) if isinstance(key, str) else key: visible_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [visible_data(item) for item in value]
    return value


def echo(message: str = "", **options: Any) -> None:
    """typer.echo for lines that carry server text; line breaks between lines are kept."""
    typer.echo(visible_lines(message), **options)


def json_text(content: Any, **options: Any) -> str:
    """JSON for scripts: the data as it is (JSON escapes C0 by itself), with DEL, C1 and the
    bidirectional controls escaped too (`\\u009b`), which json.dumps would write raw."""
    text = json.dumps(content, ensure_ascii=False, **options)
    return _UNSAFE_IN_JSON.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


class SafeConsole(Console):
    """A rich Console that never passes a control character of the text it prints on to the
    terminal. rich turns every str it prints (table cells, titles, captions included) into Text
    through `render_str`, so escaping there covers them all; rich's own styling is untouched."""

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(visible_lines(text), **options)
