"""`touchline socket …`: send socket messages to the clients in a room, as the server would, or
watch what a room receives.

With a Redis URL (REDIS_URL, as the servers use) the message goes straight into Redis through
a write-only manager and every server process delivers it; otherwise it goes through the admin
API of one server, with the server and staff account of the group's options (staff_options.py).
Either way it is checked against asyncapi/asyncapi.yaml first. `touchline socket --json emit …`
prints what happened as JSON: the event, the room, `via` and the receivers (Redis) or the API's
fan-out manager.

`touchline socket watch --room event:ID|user:ID|ingest:ID|media:ID` connects to the server's socket (/ws)
with the staff account's access token and sends `watch-room` (staff only, asyncapi/asyncapi.yaml);
it then prints every message the room receives until interrupted (Ctrl-C ends it with exit code 0) or,
with `--count N`, after N messages. `touchline socket --json watch …` prints one JSON object a
line: {"event", "data", "at"}.
"""

from enum import StrEnum
from typing import Annotated
from urllib.parse import urlsplit, urlunsplit

import typer

from ..admin_client import AdminClient, fail, run
from ..terminal_text import json_text, visible
from .staff_api import print_json
from .staff_options import options_of, staff_group

app = staff_group("Realtime socket messages.")


class Via(StrEnum):
    auto = "auto"
    redis = "redis"
    api = "api"


def _redacted(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


@app.command("emit")
def emit(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(help="A server-to-client message, e.g. event-url-change.")],
    room: Annotated[str, typer.Option("--room", help="event:<id>, user:<id>, ingest:<id> or media:<id>.")],
    data: Annotated[str, typer.Option("--data", help="The payload as a JSON object.")] = "{}",
    via: Annotated[
        Via, typer.Option("--via", help="auto: Redis when a Redis URL is set, else the admin API.")
    ] = Via.auto,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url", envvar=["TOUCHLINE_REDIS_URL", "REDIS_URL"], help="The servers' Redis.", show_default=False
        ),
    ] = None,
) -> None:
    """Send EVENT with the --data payload to the clients in --room.

    The room's id is added to the payload when the message carries it and --data leaves it out.
    Example: touchline socket emit event-url-change --room event:ID --data '{"eventUrl": "/media/live/x.m3u8"}'
    """
    from .. import asyncapi_messages as messages  # loads the AsyncAPI document: only for this command

    options = options_of(ctx)
    try:
        messages.check_event(event)
        messages.check_room(room, "--room")
        payload = messages.checked_payload(event, messages.parse_payload(data, "--data"), room)
    except messages.PayloadError as exc:
        raise fail(str(exc)) from None

    if via is Via.redis and not redis_url:
        raise fail("--via redis needs a Redis URL (--redis-url or REDIS_URL)")
    if redis_url and via is not Via.api:
        receivers = run(_through_redis(redis_url, event, payload, room))
        if options.as_json:
            print_json({"event": event, "room": room, "via": "redis", "receivers": receivers})
        else:
            typer.echo(f"Sent {event} to {room} through Redis: {receivers} server process(es) received it.")
    else:
        client = options.client()
        content = run(_through_api(client, event, payload, room))
        if options.as_json:
            print_json({**content, "via": "api"})
        else:
            typer.echo(
                f"Sent {event} to {room} through the admin API at {client.base_url} (fan-out: {content['manager']})."
            )


async def _through_redis(redis_url: str, event: str, payload: dict, room: str) -> int:
    from redis.exceptions import RedisError

    from server.realtime.emitter import external_emitter

    async with external_emitter(redis_url) as out:
        try:
            await out.emit(event, payload, room)
        except (RedisError, OSError) as exc:
            raise fail(f"Cannot publish to Redis at {_redacted(redis_url)}: {exc}") from None
        if not out.receivers:
            raise fail(
                f"No Touchline server listens on Redis channel '{out.channel}' at {_redacted(redis_url)}: "
                "nobody received the message"
            )
        return out.receivers


async def _through_api(client: AdminClient, event: str, payload: dict, room: str) -> dict:
    """The API's answer: {event, room, manager}."""
    async with client:
        return await client.post("/admin/socket/emit", {"event": event, "room": room, "payload": payload})


# --- watch ---------------------------------------------------------------------------------------


@app.command("watch")
def watch(
    ctx: typer.Context,
    room: Annotated[
        str,
        typer.Option(
            "--room",
            help="event:<id>, user:<id>, ingest:<id> (the event's live input) or media:<id> (its transcoding jobs).",
        ),
    ],
    count: Annotated[
        int | None, typer.Option("--count", min=1, help="Stop after this many messages (default: until Ctrl-C).")
    ] = None,
) -> None:
    """Print every message --room receives until interrupted (Ctrl-C), staff only.

    Needs a staff sign-in (`touchline login`, or TOUCHLINE_STAFF_EMAIL and _PASSWORD): the socket
    takes the account's access token, not an API key.
    Example: touchline socket watch --room event:ID
    """
    from ..asyncapi_messages import PayloadError, check_room
    from ..room_watch import API_KEY_CANNOT_WATCH

    options = options_of(ctx)
    room = room.strip().lower()
    try:
        check_room(room, "--room")
    except PayloadError as exc:
        raise fail(str(exc)) from None
    if options.api_key:
        raise fail(API_KEY_CANNOT_WATCH)
    client = options.client()
    try:
        run(_watch(client, room, count, options.as_json))
    except KeyboardInterrupt:
        typer.echo(f"Stopped watching {room}.", err=True)


async def _watch(client: AdminClient, room: str, count: int | None, as_json: bool) -> None:
    from ..room_watch import RoomWatch

    async with client, RoomWatch(client, room) as messages:
        typer.echo(f"Watching {room} on {client.base_url} (Ctrl-C to stop).", err=True)
        seen = 0
        async for message in messages:
            if as_json:
                typer.echo(json_text(message._asdict()))
            else:
                typer.echo(f"{visible(message.at)} {visible(message.event)} {json_text(message.data)}")
            seen += 1
            if count is not None and seen >= count:
                return
