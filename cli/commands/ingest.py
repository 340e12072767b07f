"""`touchline ingest key …`: the stream keys encoders publish an event's live feed with (admin
staff make, rotate and revoke them; support staff list them), through the admin API.

`create` and `rotate` print the key once, with the RTMP and SRT URLs to paste into OBS or a venue
encoder (`--json`: `{"key": …, "rtmp_url": …, "srt_url": …}`); the server keeps only its hash.
"""

from typing import Annotated

import typer

from ..terminal_text import echo
from .staff_api import NONE, api_call, new_console, object_id, print_json, print_rows, when
from .staff_options import options_of, staff_group

app = typer.Typer(help="Live ingest from encoders: stream keys.", no_args_is_help=True)
keys = staff_group("An event's stream keys: make, rotate, revoke, list.")
app.add_typer(keys, name="key")

EventId = Annotated[str, typer.Argument(metavar="EVENT_ID", help="The event's id (see `touchline events list`).")]


def _event(value: str) -> str:
    return object_id(value, "an event id", "find it with `touchline events list`")


def _issued(ctx: typer.Context, path: str, verb: str) -> None:
    options = options_of(ctx)
    content = api_call(options, lambda api: api.post(path))
    if options.as_json:
        print_json({"key": content["key"], "rtmp_url": content["rtmp_url"], "srt_url": content["srt_url"]})
        return
    echo(f"{verb} the stream key of event {content['streamKey']['event']} (…{content['streamKey']['hint']}).")
    typer.echo("Shown only this once: paste it into the encoder now.")
    typer.echo(f"Key:  {content['key']}")
    typer.echo(f"RTMP: {content['rtmp_url']}")
    if content["srt_url"]:
        typer.echo(f"SRT:  {content['srt_url']}")


@keys.command("create")
def create(ctx: typer.Context, event_id: EventId) -> None:
    """Make the event's stream key; it is printed this once, with the URLs for the encoder."""
    _issued(ctx, f"/admin/events/{_event(event_id)}/stream_keys", "Made")


@keys.command("rotate")
def rotate(ctx: typer.Context, event_id: EventId) -> None:
    """Replace the event's key with a new one (the old one stops at once); printed this once."""
    _issued(ctx, f"/admin/events/{_event(event_id)}/stream_keys/rotate", "Rotated")


@keys.command("revoke")
def revoke(ctx: typer.Context, event_id: EventId) -> None:
    """Revoke the event's key: encoders using it are refused from now on."""
    options = options_of(ctx)
    event = _event(event_id)
    content = api_call(options, lambda api: api.post(f"/admin/events/{event}/stream_keys/revoke"))
    if options.as_json:
        print_json(content)
        return
    echo(f"Revoked the stream key of event {event} (…{content['hint']}).")


@keys.command("list")
def list_keys(ctx: typer.Context, event_id: EventId) -> None:
    """The event's keys, newest first (never the keys themselves)."""
    options = options_of(ctx)
    event = _event(event_id)
    content = api_call(options, lambda api: api.get(f"/admin/events/{event}/stream_keys"))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["keys"]:
        console.print(f"Event {event} has no stream key: make one with `touchline ingest key create {event}`.")
        return
    rows = [
        [
            k["_id"],
            "…" + k["hint"],
            "revoked" if k["revokedAt"] else ("publishing" if k["publishing"] else "in force"),
            str(k["srtPort"]) if k["srtPort"] is not None else NONE,
            when(k["created"]),
            when(k["lastPublishedAt"]) if k["lastPublishedAt"] else NONE,
        ]
        for k in content["keys"]
    ]
    headers = ["ID", "Key", "State", "SRT port", "Made (UTC)", "Last published (UTC)"]
    print_rows(console, f"Stream keys of event {event}", headers, rows)
