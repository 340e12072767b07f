"""What the staff commands share besides their group's options (staff_options.py): the admin API
call, object ids, option types and output (tables that fall back to `header: value` blocks on
narrow terminals, JSON for scripts)."""

import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from ..admin_client import TIMEOUT_S, AdminClient, fail, run
from ..terminal_text import SafeConsole, json_text
from .staff_options import StaffOptions

T = TypeVar("T")
ID = re.compile(r"[0-9a-f]{24}")
NONE = "-"
NUMBERS = {"Devices", "Sessions"}  # columns printed right-aligned

Page = Annotated[int, typer.Option("--page", min=0, help="Page number, from 0.")]
Size = Annotated[int, typer.Option("--size", min=1, max=100, help="Entries per page.")]


def object_id(value: str, what: str, hint: str) -> str:
    normalised = value.strip().lower()
    if not ID.fullmatch(normalised):
        raise fail(f"{value!r} is not {what} (24 hexadecimal characters); {hint}")
    return normalised


def api_call(options: StaffOptions, work: Callable[[AdminClient], Awaitable[T]], *, timeout: float = TIMEOUT_S) -> T:
    """`work` with a client signed in as the group's staff account; API errors end the command
    with exit code 1 and the API's message."""

    async def call() -> T:
        async with options.client(timeout=timeout) as api:
            return await work(api)

    return run(call())


def new_console() -> Console:
    # Made per command: it writes to the stdout of the moment (CliRunner swaps it in tests).
    # Names and device strings are the users' own text: never read as markup or emoji codes, and
    # their control characters are shown escaped (cli/terminal_text.py), never sent to the terminal.
    return SafeConsole(highlight=False, markup=False, emoji=False)


def print_rows(
    console: Console, title: str, headers: list[str], rows: list[list[str]], caption: str | None = None
) -> None:
    """A table when its lines fit the terminal; otherwise one block of `header: value` lines per
    row, so nothing is cut or folded into unreadable slivers on a narrow terminal (or a pipe)."""
    table = Table(
        *headers, title=title, title_justify="left", caption=caption, caption_justify="left", box=box.SIMPLE_HEAD
    )
    for column in table.columns:
        column.no_wrap = True
        column.justify = "right" if column.header in NUMBERS else "left"
    for row in rows:
        table.add_row(*row)
    if Measurement.get(console, console.options.update_width(100_000), table).maximum <= console.width:
        console.print(table)
        return
    console.print(title, soft_wrap=True)
    width = max(len(h) for h in headers)
    for row in rows:
        console.print()
        for header, value in zip(headers, row, strict=True):
            console.print(f"  {header + ':':<{width + 1}} {value}", soft_wrap=True)
    if caption:
        console.print()
        console.print(caption, soft_wrap=True)


def print_json(content: Any) -> None:
    typer.echo(json_text(content, indent=2))


def when(value: str | None) -> str:
    if not value:
        return NONE
    return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M")


def text_or_none(value: Any) -> str:
    return NONE if value is None or value == "" else str(value)


def more_hint(console: Console, content: dict, page: int) -> None:
    if content["entryCount"] and content["entryCount"] == content["itemsPerPage"]:
        console.print(f"More may follow: --page {page + 1}")
