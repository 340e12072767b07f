"""`touchline media show|attach|cut|delete`: what staff do with the media library's assets once
uploaded or recorded (issue 29 §3, §4). Registered on the `media` group (cli/commands/media.py).

`show` needs the support role; the others the admin role. `cut` takes times as seconds (`75`,
`75.5`) or minutes and seconds (`1:15`); the cut is segment-aligned (the server says so), and
`delete` names the events that play the asset unless `--force` takes it off them.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

import typer

from ..admin_client import fail
from ..terminal_text import echo
from .staff_api import NONE, api_call, new_console, object_id, print_json, print_rows, when
from .staff_options import options_of

ASSET_HEADERS = ["ID", "Kind", "State", "Title", "Length", "Event", "Made (UTC)"]
TIME = re.compile(r"^(?:(\d+):)?(\d+(?:\.\d+)?)$")


class AttachAs(StrEnum):
    archive = "archive"
    highlight = "highlight"
    recap = "recap"
    condensed = "condensed"
    clip = "clip"


class CutAs(StrEnum):
    highlight = "highlight"
    recap = "recap"
    condensed = "condensed"
    clip = "clip"


def length_text(milliseconds: int | None) -> str:
    if milliseconds is None:
        return NONE
    minutes, seconds = divmod(round(milliseconds / 1000), 60)
    return f"{minutes}:{seconds:02d}"


def seconds_of(value: str, option: str) -> float:
    """`75`, `75.5` or `1:15` as seconds; a clear error otherwise."""
    match = TIME.fullmatch(value.strip())
    if match is None or (match[1] is not None and float(match[2]) >= 60):
        raise fail(f"{option} {value!r} is not a time: give seconds (75) or minutes:seconds (1:15)")
    return int(match[1] or 0) * 60 + float(match[2])


def asset_row(asset: dict) -> list[str]:
    return [
        asset["_id"],
        asset["kind"],
        asset["state"],
        asset.get("title") or asset.get("sample") or NONE,
        length_text(asset.get("durationMs")),
        asset["event"],
        when(asset["created"]),
    ]


def _asset_id(value: str) -> str:
    return object_id(value, "an asset id", "`touchline media list` shows them")


def _published(event: dict, verb: str) -> None:
    echo(f"{verb} {event.get('media_type', 'event')} {event['_id']}: {event['title']}")
    echo(f"It plays {event['content'].get('HLSStream') or NONE}")


def show(
    ctx: typer.Context,
    asset: Annotated[str, typer.Argument(metavar="ASSET_ID", help="The asset (see `touchline media list`).")],
) -> None:
    """One asset: its state, the events that play it and its transcoding job."""
    options = options_of(ctx)
    asset_id = _asset_id(asset)
    content = api_call(options, lambda api: api.get(f"/admin/media_assets/{asset_id}"))
    if options.as_json:
        print_json(content)
        return
    detail = content["asset"]
    console = new_console()
    print_rows(console, f"Asset {asset_id}", ASSET_HEADERS, [asset_row(detail)])
    if "range" in detail:
        start, end = detail["range"]["start_ms"], detail["range"]["end_ms"]
        console.print(f"A range of asset {detail.get('parent', NONE)}: {length_text(start)} to {length_text(end)}")
    console.print(f"Played by: {', '.join(detail['playedBy']) or 'no event'}")
    job = detail.get("job")
    if job is not None:
        from .jobs import progress_text  # the same words as `touchline jobs`

        line = f"Job {job['_id']} ({job['kind']}): {job['state']} {progress_text(job)}"
        console.print(line + (f": {job['error']}" if job.get("error") else ""))


def attach(
    ctx: typer.Context,
    asset: Annotated[str, typer.Argument(metavar="ASSET_ID", help="A ready upload or recording.")],
    as_: Annotated[AttachAs, typer.Option("--as", help="Its event's archive, or a new highlight of that kind.")],
    title: Annotated[str | None, typer.Option("--title", help="A highlight's title (default: the asset's).")] = None,
) -> None:
    """Publish an upload or a recording as its event's archive, or as a highlight of its event."""
    options = options_of(ctx)
    asset_id = _asset_id(asset)
    body: dict = {"as": as_.value}
    if title is not None:
        body["title"] = title
    event = api_call(options, lambda api: api.post(f"/admin/media_assets/{asset_id}/attach", body))
    if options.as_json:
        print_json(event)
        return
    _published(event, "Archived" if as_ is AttachAs.archive else "Published")


def cut(
    ctx: typer.Context,
    asset: Annotated[str, typer.Argument(metavar="ASSET_ID", help="A recording (live or finished) or an upload.")],
    start: Annotated[str, typer.Option("--from", help="Where it begins: seconds or m:ss from the start.")],
    end: Annotated[str, typer.Option("--to", help="Where it ends: seconds or m:ss from the start.")],
    title: Annotated[str, typer.Option("--title", help="The highlight's title.")],
    as_: Annotated[CutAs, typer.Option("--as", help="The highlight's kind.")] = CutAs.highlight,
) -> None:
    """Cut a highlight from a recording or an upload (segment-aligned, no re-encoding)."""
    options = options_of(ctx)
    asset_id = _asset_id(asset)
    body = {"from": seconds_of(start, "--from"), "to": seconds_of(end, "--to"), "title": title, "as": as_.value}
    event = api_call(options, lambda api: api.post(f"/admin/media_assets/{asset_id}/cuts", body))
    if options.as_json:
        print_json(event)
        return
    _published(event, "Cut")
    echo("The cut follows the 2-second segments: it may begin up to one segment early and end one late.")


def delete(
    ctx: typer.Context,
    asset: Annotated[str, typer.Argument(metavar="ASSET_ID", help="The asset to delete.")],
    force: Annotated[
        bool, typer.Option("--force", help="Take it off the events that play it first (they play nothing then).")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete an asset and its files; refused while an event plays it, unless --force."""
    options = options_of(ctx)
    asset_id = _asset_id(asset)
    if not yes and not options.as_json:
        what = " and take it off the events that play it" if force else ""
        typer.confirm(f"Delete asset {asset_id}{what}?", abort=True)
    params = "?force=true" if force else ""
    content = api_call(options, lambda api: api.request("DELETE", f"/admin/media_assets/{asset_id}{params}"))
    if options.as_json:
        print_json(content)
        return
    echo(f"Deleted {', '.join(content['deleted'])}.")
    if content["detached"]:
        echo(f"Taken off events {', '.join(content['detached'])}: they play nothing until given another stream.")
