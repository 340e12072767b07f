"""The server's socket messages as asyncapi/asyncapi.yaml declares them, for the staff tools that
send one by hand (`touchline socket emit`, the console's Live screen): their names, the example
payload of each, and the checks of a payload and its room before anything is sent.

The checks are the server's own (server.realtime.emitter), so what passes here is what the
admin API and the Redis fan-out accept. Each problem raises PayloadError, whose text is one line
per problem: the JSON error, or the schema error with the path of the field."""

import copy
import json
import re
from typing import Any

from server.realtime.contract import ContractError, contract
from server.realtime.emitter import checked, with_room_key

ROOM = re.compile(r"(event|user|ingest|media|qoe):[0-9a-f]{24}")
ROOM_TEMPLATE = re.compile(r"(\w+):\{(\w+)\}")


class PayloadError(ValueError):
    """A message, room or payload the contract does not allow: `str()` says what is wrong."""


def server_messages() -> list[str]:
    """Every message the server sends (AsyncAPI `subscribe`), by name."""
    return sorted(contract().names("outgoing"))


def check_event(event: str) -> None:
    if event not in server_messages():
        raise PayloadError(f"'{event}' is not a message the server sends; one of: {', '.join(server_messages())}")


def check_room(room: str, what: str = "the room") -> None:
    if not ROOM.fullmatch(room):
        raise PayloadError(
            f"{what} must be event:<id>, user:<id>, ingest:<id> or media:<id> with a 24 hex character id, not {room!r}"
        )


def room_kind(event: str) -> str:
    """The kind of room `event` goes to ("event", "user", "ingest" or "media"), from its `x-room`."""
    kind, _ = _room_template(event)
    return kind


def _room_template(event: str) -> tuple[str, str]:
    """`user:{userId}` -> ("user", "userId")."""
    match = ROOM_TEMPLATE.fullmatch(contract().messages[event].room or "")
    if match is None:
        raise PayloadError(f"'{event}' names no room kind (x-room) in the AsyncAPI document")
    return match[1], match[2]


def example(event: str, room: str | None = None) -> dict[str, Any]:
    """The first example payload the document gives `event`; with `room` (e.g. event:<id>), the
    field the room is keyed by (eventId…) holds the room's id, so the example can be sent there."""
    declared = next(m for m in contract().document["components"]["messages"].values() if m.get("name") == event)
    examples = declared.get("examples") or [{}]
    payload: dict[str, Any] = copy.deepcopy(examples[0].get("payload") or {})
    kind, key = _room_template(event)
    if room is not None and room.startswith(f"{kind}:") and key in payload:
        payload[key] = room.removeprefix(f"{kind}:")
    return payload


def parse_payload(text: str, what: str = "the payload") -> dict[str, Any]:
    try:
        payload = json.loads(text)
    except ValueError as exc:
        raise PayloadError(f"{what} is not JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise PayloadError(f"{what} must be a JSON object, the message's payload")
    return payload


def checked_payload(event: str, payload: dict[str, Any], room: str) -> dict[str, Any]:
    """`payload` as it will be sent to `room` (completed with the room's id where the message
    carries it), or PayloadError naming each field the schema refuses."""
    completed = with_room_key(event, payload, room)
    try:
        checked(event, completed, room)
    except ContractError as exc:
        lines = [exc.message] + [f"  {d['field'] or '(payload)'}: {d['message']}" for d in exc.details]
        raise PayloadError("\n".join(lines)) from None
    return completed
