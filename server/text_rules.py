"""The one character rule for text that enters Touchline.

Control characters (Unicode category Cc: C0 U+0000-U+001F, DEL U+007F, C1 U+0080-U+009F) are
never meant in a name, a title, a device string, a token or a search: they move a staff
terminal's cursor, clear its screen or start escape sequences when shown there, and PostgreSQL
cannot store NUL in text at all. Long free text (an event's description) may keep tab and line
breaks; nothing else may hold any of them.

The contract states the rule on each request string as one of the two `pattern`s below; the
request validation layer (server/api/http/validation.py) applies `FREE_TEXT` to every string,
object key and parameter it sees whatever the schema says, so NUL never reaches a database even
through a field that forgot its pattern; services apply `single_line` to the fields they store.
"""

import re

# The contract's patterns (JSON Schema, ECMA-262 syntax; Python's re reads them the same way).
SINGLE_LINE_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
FREE_TEXT_PATTERN = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"

# Tab, line feed and carriage return: the only control characters free text may hold.
LINE_BREAKS = "\t\n\r"
_CONTROL = re.compile("[\u0000-\u001f\u007f-\u009f]")
_CONTROL_IN_FREE_TEXT = re.compile("[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]")


def has_control_characters(text: str, *, free_text: bool = False) -> bool:
    """Whether `text` breaks the rule: any control character, or (free text) any but tab and line breaks."""
    return (_CONTROL_IN_FREE_TEXT if free_text else _CONTROL).search(text) is not None


CONTROL_REASON = "must not contain control characters"


def control_message(field: str) -> str:
    """The one wording of the refusal, so every entry point says the same."""
    return f"{field} {CONTROL_REASON}"


def visible(text: str) -> str:
    """`text` with each control character written out as an escape (ESC as `\\x1b`), for the
    places that must repeat what was sent (a field name in an error) without passing it on."""
    return _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


def without_control_characters(text: str) -> str:
    """`text` without its control characters, for what a third party says (a sign-on provider's
    name claims) that a viewer never typed and so cannot be asked to correct."""
    return _CONTROL.sub("", text)
