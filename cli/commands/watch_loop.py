"""`--watch` for the staff commands that look again every few seconds (`touchline qoe`,
`touchline ingest status`).

Each look calls `read` with one signed-in client for the whole watch and draws what it answered
in place (rich's Live), or prints it as one JSON line with --json; Ctrl-C ends the watch, with exit
code 0."""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import typer
from rich.console import RenderableType
from rich.live import Live

from ..admin_client import AdminClient, run
from ..terminal_text import json_text
from .staff_api import new_console
from .staff_options import StaffOptions

Read = Callable[[AdminClient], Awaitable[Any]]


def watch(options: StaffOptions, read: Read, draw: Callable[[Any], RenderableType], seconds: float) -> None:
    """Look every `seconds` until Ctrl-C."""
    try:
        run(_looking(options, read, draw, seconds))
    except KeyboardInterrupt:
        typer.echo("Stopped watching.", err=True)


async def _looking(options: StaffOptions, read: Read, draw: Callable[[Any], RenderableType], seconds: float) -> None:
    async with options.client() as api:
        if options.as_json:
            while True:
                typer.echo(json_text(await read(api)))
                await pause(seconds)
        with Live(console=new_console(), auto_refresh=False) as live:
            while True:
                live.update(draw(await read(api)), refresh=True)
                await pause(seconds)


async def pause(seconds: float) -> None:
    """Between two looks (tests end the watch here, as Ctrl-C would)."""
    await asyncio.sleep(seconds)
