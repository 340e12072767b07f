"""`touchline ingest status [EVENT_ID] [--watch]`: how an event's live input is
(`GET /api/admin/events/{id}/ingest`), or every live event's and channel's at a glance.

With EVENT_ID a panel: the state, what the encoder sends, the transcoder's speed, the bitrate,
how long ago the last segment ended, restarts, reconnects and viewers. Without it, one line per
live event and channel. `--watch` asks again every WATCH_SECONDS until Ctrl-C (exit code 0);
with `--json` it prints one JSON document a line, each time.
"""

import asyncio
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..admin_client import AdminClient
from ..ingest_figures import autostart_of, bitrate_of, input_of, rewind_of
from . import staff_completion, watch_loop
from .staff_api import NONE, api_call, new_console, object_id, print_json, print_rows
from .staff_options import StaffOptions, options_of
from .watch_loop import Read

WATCH_SECONDS = 2.0
ON_AIR_STATUSES = ("live", "channel")  # the events whose ingest the overview shows
PAGE_SIZE = 100
NO_EVENT_ON_AIR = "No event is live and no channel is on. Give an EVENT_ID for another event's ingest."
# Said under a panel that another process answered (two short lines: the panel stays narrow).
ELSEWHERE = "Only the server process that runs the transcoder knows\nthe input, speed, frames, restarts and reconnects."

Report = Any  # one event's ingest (the API's content), or the overview's list

OptionalEventId = Annotated[
    str | None,
    typer.Argument(
        metavar="EVENT_ID",
        help="The event's id (see `touchline events list`); without it, every live event and channel.",
        autocompletion=staff_completion.event_ids,
        show_default=False,
    ),
]
Watch = Annotated[bool, typer.Option("--watch", help=f"Refresh every {WATCH_SECONDS:g} s until Ctrl-C.")]


def status(ctx: typer.Context, event_id: OptionalEventId = None, watch: Watch = False) -> None:
    """The health of an event's ingest; without EVENT_ID, of every live event and channel.

    State: idle, starting, preview, live, reconnecting, interrupted or finished.
    Also the encoder's input, the transcoder's speed (× real time), bitrate, last segment, restarts and viewers.
    Example: touchline ingest status 65a1f0c2e4b0a1b2c3d4e5f6 --watch
    """
    options = options_of(ctx)
    read: Read = _one(_event(event_id)) if event_id is not None else _on_air
    if not watch:
        _print(options, api_call(options, read))
        return
    watch_loop.watch(options, read, _renderable, WATCH_SECONDS)


def _event(value: str) -> str:
    return object_id(value, "an event id", "find it with `touchline events list`")


def _one(event: str) -> Read:
    async def read(api: AdminClient) -> Report:
        return await api.get(f"/admin/events/{event}/ingest")

    return read


async def _on_air(api: AdminClient) -> Report:
    """Every live event and channel with its ingest: [{_id, title, status, ingest}]."""
    events: list[dict] = []
    for status in ON_AIR_STATUSES:
        page = 0
        while True:
            content = await api.get("/admin/events", {"status": status, "page": page, "size": PAGE_SIZE})
            events += content["entries"]
            if len(content["entries"]) < PAGE_SIZE:
                break
            page += 1
    ingests = await asyncio.gather(*(api.get(f"/admin/events/{e['_id']}/ingest") for e in events))
    return [
        {"_id": e["_id"], "title": e["title"], "status": e["status"], "ingest": ingest}
        for e, ingest in zip(events, ingests, strict=True)
    ]


def _print(options: StaffOptions, report: Report) -> None:
    if options.as_json:
        print_json(report)
        return
    console = new_console()
    if isinstance(report, list):
        if not report:
            console.print(NO_EVENT_ON_AIR)
            return
        print_rows(console, *_overview(report))
        return
    console.print(_panel(report))


def _renderable(report: Report) -> RenderableType:
    if not isinstance(report, list):
        return _panel(report)
    if not report:
        return Text(NO_EVENT_ON_AIR)
    title, headers, rows = _overview(report)
    table = Table(*headers, title=title, title_justify="left", box=box.SIMPLE_HEAD)
    for row in rows:
        table.add_row(*row)
    return table


# --- wording ---------------------------------------------------------------------------------------


def _panel(health: dict) -> RenderableType:
    table = Table(show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column("Field", style="bold", no_wrap=True)
    table.add_column("Value", overflow="fold")
    rows = [
        ("State", health["state"]),
        ("Encoder", "publishing" if health["publishing"] else "not publishing"),
        ("Input", _input(health)),
        ("Renditions", ", ".join(health["renditions"]) or NONE),
        ("Speed", _speed(health, words=True)),
        ("Bitrate", _bitrate(health)),
        ("Last segment", _age(health)),
        ("Frames", _frames(health)),
        ("Restarts", _count(health["restarts"])),
        ("Reconnects", _count(health["reconnects"])),
        ("Viewers", str(health["viewers"])),
        ("Recording", health["asset"] or NONE),
        ("Auto-start", autostart_of(health["autostart"])),
        ("Rewind", rewind_of(health)),
    ]
    for label, value in rows:
        table.add_row(label, value)
    parts: list[RenderableType] = [table]
    if not health["transcoderHere"] and health["state"] not in ("idle", "finished"):
        parts += [Text(""), Text(ELSEWHERE, style="dim")]
    return Panel(Group(*parts), title=Text(f"Ingest of event {health['event']}"), title_align="left", expand=False)


def _overview(report: list[dict]) -> tuple[str, list[str], list[list[str]]]:
    headers = ["ID", "Title", "Status", "Ingest", "Encoder", "Speed", "Bitrate", "Last segment", "Viewers"]
    rows = [
        [
            e["_id"],
            e["title"],
            e["status"],
            e["ingest"]["state"],
            "publishing" if e["ingest"]["publishing"] else NONE,
            _speed(e["ingest"]),
            _bitrate(e["ingest"]),
            _age(e["ingest"]),
            str(e["ingest"]["viewers"]),
        ]
        for e in report
    ]
    return "Live events and channels", headers, rows


def _input(health: dict) -> str:
    return input_of(health) or NONE


def _speed(health: dict, *, words: bool = False) -> str:
    """The transcoder's speed, × real time; flagged when it falls behind the feed."""
    speed = health["speed"]
    if speed is None:
        return NONE
    if words:
        return f"{speed:.2f}× real time" + (", falling behind the feed" if health["behindRealTime"] else "")
    return f"{speed:.2f}×" + (" (behind)" if health["behindRealTime"] else "")


def _bitrate(health: dict) -> str:
    return bitrate_of(health) or NONE


def _age(health: dict) -> str:
    age = health["lastSegmentAgeSeconds"]
    return NONE if age is None else f"{age:.1f} s ago"


def _frames(health: dict) -> str:
    dropped, duplicated = health["droppedFrames"], health["duplicatedFrames"]
    if dropped is None and duplicated is None:
        return NONE
    return f"{_count(dropped)} dropped, {_count(duplicated)} duplicated"


def _count(value: int | None) -> str:
    return NONE if value is None else str(value)
