"""`touchline ingest …`: live feeds from encoders, through the admin API.

`ingest key …` manages the stream keys encoders publish an event's feed with (admin staff make,
rotate and revoke them; support staff list them). `create` and `rotate` print the key once, with
the RTMP and SRT URLs to paste into OBS or a venue encoder (`--json`: `{"key": …, "rtmp_url": …,
"srt_url": …}`); the server keeps only its hash. `--expires` ends the time an encoder may connect
with it. `take-over` lets a second encoder in in place of the one publishing (a backup encoder,
a venue switching trucks), for the next two minutes.

`ingest status [EVENT_ID] [--watch]` shows how an event's live input is (its state, the encoder's
input, the transcoder's speed, bitrate, last segment, viewers), or every live event's at a glance
(ingest_status.py).

`ingest test-pattern` publishes ffmpeg's test picture and tone, with the wall clock burned in,
through the real ingest with the event's key, as an encoder would: operators check a chain with
it, tests drive the ingest with it.
"""

from datetime import UTC, datetime
from enum import StrEnum
from functools import partial
from typing import Annotated, Any

import typer

from ..admin_client import AdminApiError, AdminClient, fail
from ..ingest_figures import autostart_of
from ..ingest_urls import masked, protocol_of
from ..pattern_encoder import FPS, SECONDS, Pattern, ffmpeg_command, resolution
from ..terminal_text import echo
from . import ingest_status, pattern_publisher, staff_completion
from .keys import expires_option
from .staff_api import NONE, api_call, new_console, object_id, print_json, print_rows, when
from .staff_options import StaffOptions, options_of, staff_group

app = staff_group("Live ingest from encoders: stream keys, health, a test pattern.")
keys = staff_group("An event's stream keys: make, rotate, revoke, list, let a second encoder take over.")
app.add_typer(keys, name="key")
app.command("status")(ingest_status.status)

EventId = Annotated[
    str,
    typer.Argument(
        metavar="EVENT_ID",
        help="The event's id (see `touchline events list`).",
        autocompletion=staff_completion.event_ids,
    ),
]


def _event(value: str) -> str:
    return object_id(value, "an event id", "find it with `touchline events list`")


Expires = Annotated[
    str | None,
    typer.Option(
        "--expires", help="Last day (UTC) or moment an encoder may connect with the key; default: until revoked."
    ),
]


def _issued(ctx: typer.Context, path: str, verb: str, expires: str | None) -> None:
    options = options_of(ctx)
    expires_at = expires_option(expires)
    body = {"expiresAt": expires_at} if expires_at else None
    _print_issued(options, api_call(options, lambda api: api.post(path, body)), verb)


def _print_issued(options: StaffOptions, content: dict[str, Any], verb: str) -> None:
    if options.as_json:
        print_json({"key": content["key"], "rtmp_url": content["rtmp_url"], "srt_url": content["srt_url"]})
        return
    echo(f"{verb} the stream key of event {content['streamKey']['event']} (…{content['streamKey']['hint']}).")
    typer.echo("Shown only this once: paste it into the encoder now.")
    typer.echo(f"Key:  {content['key']}")
    typer.echo(f"RTMP: {content['rtmp_url']}")
    if content["srt_url"]:
        typer.echo(f"SRT:  {content['srt_url']}")
    if content["streamKey"].get("expiresAt"):
        typer.echo(f"Encoders may connect with it until {when(content['streamKey']['expiresAt'])} UTC.")


@keys.command("create")
def create(ctx: typer.Context, event_id: EventId, expires: Expires = None) -> None:
    """Make the event's stream key; it is printed this once, with the URLs for the encoder."""
    _issued(ctx, f"/admin/events/{_event(event_id)}/stream_keys", "Made", expires)


@keys.command("rotate")
def rotate(ctx: typer.Context, event_id: EventId, expires: Expires = None) -> None:
    """Replace the event's key with a new one (an encoder on the old one is cut off); printed this once."""
    _issued(ctx, f"/admin/events/{_event(event_id)}/stream_keys/rotate", "Rotated", expires)


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


@keys.command("take-over")
def take_over(ctx: typer.Context, event_id: EventId) -> None:
    """Let a second encoder in with the event's key in place of the one publishing (for 2 minutes)."""
    options = options_of(ctx)
    event = _event(event_id)
    content = api_call(options, lambda api: api.post(f"/admin/events/{event}/stream_keys/take_over"))
    if options.as_json:
        print_json(content)
        return
    echo(
        f"Until {when(content['takeOverUntil'])} UTC the next encoder to connect with the key of event {event} "
        f"(…{content['hint']}) takes over; the one publishing now is dropped then."
    )


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
            _state(k),
            str(k["srtPort"]) if k["srtPort"] is not None else NONE,
            when(k["created"]),
            when(k["lastPublishedAt"]) if k["lastPublishedAt"] else NONE,
        ]
        for k in content["keys"]
    ]
    headers = ["ID", "Key", "State", "SRT port", "Made (UTC)", "Last published (UTC)"]
    print_rows(console, f"Stream keys of event {event}", headers, rows)


def _state(key: dict) -> str:
    if key["revokedAt"]:
        return "revoked"
    if key["publishing"]:
        return "publishing, take-over allowed" if key.get("takeOverUntil") else "publishing"
    if not key.get("expiresAt"):
        return "in force"
    if datetime.fromisoformat(key["expiresAt"]) <= datetime.now(UTC):
        return "expired"
    return f"in force until {when(key['expiresAt'])}"


class Autostart(StrEnum):
    kickoff = "kickoff"
    armed = "armed"
    off = "off"


AUTOSTART_VALUES = {Autostart.kickoff: None, Autostart.armed: True, Autostart.off: False}


@app.command("settings")
def settings(
    ctx: typer.Context,
    event_id: EventId,
    autostart: Annotated[
        Autostart | None,
        typer.Option(
            "--autostart",
            help="How an upcoming event's feed goes live: near kickoff (the default), armed (at its first "
            "segments), off (a preview until go-live).",
            show_default=False,
        ),
    ] = None,
    dvr_minutes: Annotated[
        int | None,
        typer.Option(
            "--dvr-minutes",
            min=1,
            max=1440,
            help="How far viewers may rewind its live recording (the running one too).",
        ),
    ] = None,
    dvr_default: Annotated[
        bool, typer.Option("--dvr-default", help="The server's rewind window (TOUCHLINE_DVR_SECONDS) again.")
    ] = False,
) -> None:
    """Arm or disarm the event's auto-start and set its rewind window (admin)."""
    if dvr_minutes is not None and dvr_default:
        raise typer.BadParameter("--dvr-minutes and --dvr-default exclude each other")
    body: dict[str, Any] = {}
    if autostart is not None:
        body["autostart"] = AUTOSTART_VALUES[autostart]
    if dvr_default:
        body["dvrSeconds"] = None
    elif dvr_minutes is not None:
        body["dvrSeconds"] = dvr_minutes * 60
    if not body:
        raise typer.BadParameter("say what to change: --autostart, --dvr-minutes or --dvr-default")
    options = options_of(ctx)
    event = _event(event_id)
    content = api_call(options, lambda api: api.request("PATCH", f"/admin/events/{event}/ingest", body=body))
    if options.as_json:
        print_json(content)
        return
    echo(
        f"Event {event}: auto-start {autostart_of(content['autostart'])}; "
        f"viewers rewind up to {content['dvrSeconds'] // 60} min of its live recording."
    )


class Protocol(StrEnum):
    rtmp = "rtmp"
    srt = "srt"


KEY_EXISTS = "stream_key_exists"


def _checked_resolution(value: str) -> str:
    try:
        resolution(value)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    return value


def _checked_url(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        protocol_of(value)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    return value.strip()


@app.command("test-pattern")
def test_pattern(
    ctx: typer.Context,
    event_id: EventId,
    protocol: Annotated[
        Protocol | None,
        typer.Option("--protocol", help="How to publish (default rtmp); with --url, its scheme.", show_default=False),
    ] = None,
    duration: Annotated[
        int, typer.Option("--duration", min=SECONDS[0], max=SECONDS[1], metavar="SECONDS", help="How long to publish.")
    ] = 60,
    size: Annotated[
        str,
        typer.Option(
            "--resolution", metavar="WxH", callback=_checked_resolution, help="The picture's size, in even numbers."
        ),
    ] = "1280x720",
    fps: Annotated[int, typer.Option("--fps", min=FPS[0], max=FPS[1], help="Frames per second.")] = 30,
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            callback=_checked_url,
            help="Publish here: an RTMP or SRT URL `touchline ingest key create` printed (the key is in it).",
            show_default=False,
        ),
    ] = None,
    rotate: Annotated[
        bool,
        typer.Option(
            "--rotate",
            help="Replace the event's key in force (an encoder using it stops) and publish with the new one.",
        ),
    ] = False,
) -> None:
    """Publish ffmpeg's test picture and tone, the UTC clock burned in, through the ingest with the event's key.

    Without --url the event's key is made (printed this once) or, with --rotate, replaced.
    Exit code 1 when ffmpeg or the ingest stops it early, 130 on Ctrl-C.
    """
    event = _event(event_id)
    options = options_of(ctx)
    chosen = _protocol(protocol, url, rotate)
    # What this machine lacks is said before a key is made for nothing.
    ffmpeg, font = pattern_publisher.ffmpeg_executable(), pattern_publisher.font_file()
    pattern = Pattern(url or _issued_url(options, event, chosen, rotate), chosen, resolution(size), fps, duration, font)
    hidden = partial(masked, url=pattern.url)  # the key is shown once, when it is made
    echo(
        f"Publishing the test pattern to event {event} over {chosen.upper()}: "
        f"{pattern.resolution} at {fps} fps for {duration} s, to {hidden(pattern.url)}",
        err=True,
    )
    pattern_publisher.publish(ffmpeg_command(pattern, ffmpeg), duration, hidden)
    if not options.as_json:
        echo(f"Published {duration} s of the test pattern to event {event}.")


def _protocol(asked: Protocol | None, url: str | None, rotate: bool) -> str:
    """The protocol to publish with; usage errors (exit code 2) for options that disagree."""
    if url is None:
        return (asked or Protocol.rtmp).value
    if rotate:
        raise typer.BadParameter(
            "not with --url (which publishes with the key in it; --rotate makes a new one)", param_hint="--rotate"
        )
    spoken = protocol_of(url)
    if asked is not None and asked.value != spoken:
        raise typer.BadParameter(
            f"the --url is an {spoken.upper()} URL: leave --protocol out, or give {spoken}", param_hint="--protocol"
        )
    return spoken


def _issued_url(options: StaffOptions, event: str, protocol: str, rotate: bool) -> str:
    """The URL of a key made (or rotated) for this run, after printing the key once."""
    path = f"/admin/events/{event}/stream_keys" + ("/rotate" if rotate else "")

    async def issue(api: AdminClient) -> dict[str, Any] | None:
        try:
            return await api.post(path)
        except AdminApiError as error:
            if error.code == KEY_EXISTS:
                return None
            raise

    content = api_call(options, issue)
    if content is None:
        raise fail(
            f"Event {event} has a stream key in force, and the server shows a key only when it makes it: "
            "pass --url with the URL printed then, or --rotate to replace the key (an encoder using the old one stops)"
        )
    _print_issued(options, content, "Rotated" if rotate else "Made")
    issued_url = content["srt_url"] if protocol == "srt" else content["rtmp_url"]
    if not issued_url:
        raise fail(f"The server gave no SRT URL for the key of event {event} (it takes no SRT): publish over RTMP")
    return issued_url
