"""`touchline socket …`: send socket messages to the clients in a room, as the server would.

With a Redis URL (REDIS_URL, as the servers use) the message goes straight into Redis through
a write-only manager and every server process delivers it; otherwise it goes through the admin
API of one server, with the server and staff account of the group's options (staff_options.py).
Either way it is checked against asyncapi/asyncapi.yaml first. `touchline socket --json emit …`
prints what happened as JSON: the event, the room, `via` and the receivers (Redis) or the API's
fan-out manager.
"""

import json
import re
from enum import StrEnum
from typing import Annotated
from urllib.parse import urlsplit, urlunsplit

import typer

from ..admin_client import AdminClient, fail, run
from .staff_api import print_json
from .staff_options import options_of, staff_options

app = typer.Typer(help="Realtime socket messages.", no_args_is_help=True, callback=staff_options)


class Via(StrEnum):
    auto = "auto"
    redis = "redis"
    api = "api"


def _server_messages() -> list[str]:
    from server.realtime.contract import contract

    return sorted(contract().names("outgoing"))


def _redacted(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _payload(data: str) -> dict:
    try:
        payload = json.loads(data)
    except ValueError as exc:
        raise fail(f"--data is not JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise fail("--data must be a JSON object, the message's payload")
    return payload


@app.command("emit")
def emit(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(help="A server-to-client message, e.g. event-url-change.")],
    room: Annotated[str, typer.Option("--room", help="event:<id> or user:<id>.")],
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
    from server.realtime.contract import ContractError
    from server.realtime.emitter import checked, with_room_key

    options = options_of(ctx)
    if event not in _server_messages():
        raise fail(f"'{event}' is not a message the server sends; one of: {', '.join(_server_messages())}")
    if not re.fullmatch(r"(event|user):[0-9a-f]{24}", room):
        raise fail(f"--room must be event:<id> or user:<id> with a 24 hex character id, not {room!r}")
    payload = with_room_key(event, _payload(data), room)
    try:
        checked(event, payload, room)
    except ContractError as exc:
        lines = [exc.message] + [f"  {d['field'] or '(payload)'}: {d['message']}" for d in exc.details]
        raise fail("\n".join(lines)) from None

    if via is Via.redis and not redis_url:
        raise fail("--via redis needs a Redis URL (--redis-url or REDIS_URL)")
    if redis_url and via is not Via.api:
        receivers = run(_through_redis(redis_url, event, payload, room))
        if options.as_json:
            print_json({"event": event, "room": room, "via": "redis", "receivers": receivers})
        else:
            typer.echo(f"Sent {event} to {room} through Redis: {receivers} server process(es) received it.")
    else:
        content = run(_through_api(options.client(), event, payload, room))
        if options.as_json:
            print_json({**content, "via": "api"})
        else:
            typer.echo(
                f"Sent {event} to {room} through the admin API at {options.api_url.rstrip('/')} "
                f"(fan-out: {content['manager']})."
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
