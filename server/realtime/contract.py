"""The socket contract: asyncapi/asyncapi.yaml, loaded once, with validators compiled once.

Handlers validate what clients send (`validate_incoming`), the emitter validates what the
server sends (`validate_outgoing`), so the document cannot drift from the code unnoticed.
"""

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft7Validator, ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

# The same layout assumption as server.settings.PROJECT_ROOT (not imported: realtime must not
# depend on the settings class).
ASYNCAPI_PATH = Path(__file__).resolve().parents[2] / "asyncapi" / "asyncapi.yaml"
DOCUMENT_URI = "urn:touchline:asyncapi"
CHANNEL = "/"


class ContractError(ValueError):
    """A payload (or message name) that the AsyncAPI document does not allow."""

    def __init__(self, name: str, message: str, details: list[dict[str, str]] | None = None):
        super().__init__(message)
        self.name = name
        self.message = message
        self.details = details or []


@dataclass(frozen=True)
class Message:
    name: str
    direction: str  # "incoming" (client -> server, 2.6 `publish`) or "outgoing" (`subscribe`)
    payload_schema: dict[str, Any]
    validator: Draft7Validator
    room: str | None = None  # x-room template of outgoing messages, e.g. "event:{eventId}"
    ack_validator: Draft7Validator | None = field(default=None)


@dataclass(frozen=True)
class Contract:
    document: dict[str, Any]
    messages: dict[str, Message]
    registry: Registry = field(default_factory=Registry, compare=False, repr=False)

    def names(self, direction: str) -> set[str]:
        return {m.name for m in self.messages.values() if m.direction == direction}


def _deref(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local `$ref` (the document only uses `#/...` pointers)."""
    while "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _validator(registry: Registry, pointer: str) -> Draft7Validator:
    # Validating through a `$ref` into the registered document makes the schemas' own
    # `#/components/schemas/...` references resolve against the whole document.
    schema = {"$ref": f"{DOCUMENT_URI}{pointer}"}
    return Draft7Validator(schema, registry=registry, format_checker=Draft7Validator.FORMAT_CHECKER)


def load(path: Path = ASYNCAPI_PATH) -> Contract:
    document = yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)  # libyaml: a tenth of the time
    registry = Registry().with_resource(DOCUMENT_URI, Resource.from_contents(document, default_specification=DRAFT7))
    channel = document["channels"][CHANNEL]
    messages: dict[str, Message] = {}
    for operation, direction in (("publish", "incoming"), ("subscribe", "outgoing")):
        for index, ref in enumerate(channel[operation]["message"]["oneOf"]):
            message = _deref(document, ref)
            base = ref.get("$ref", f"#/channels/~1/{operation}/message/oneOf/{index}")
            ack = message.get("x-ack")
            messages[message["name"]] = Message(
                name=message["name"],
                direction=direction,
                payload_schema=_deref(document, message["payload"]),
                validator=_validator(registry, f"{base}/payload"),
                room=message.get("x-room"),
                ack_validator=_validator(registry, f"{base}/x-ack/payload") if ack else None,
            )
    return Contract(document=document, messages=messages, registry=registry)


@functools.cache
def contract() -> Contract:
    return load()


def payload_schemas() -> dict[str, dict[str, Any]]:
    """Payload schema (with `$ref`s left as written) by message name."""
    return {name: m.payload_schema for name, m in contract().messages.items()}


def _field(error: ValidationError) -> str:
    path = [str(p) for p in error.absolute_path]
    if error.validator == "required" and isinstance(error.validator_value, list):
        # The path points at the object; name the missing property instead.
        path += [p for p in error.validator_value if error.message.startswith(repr(p))][:1]
    return ".".join(path)


def _errors(message: Message, payload: Any) -> list[dict[str, str]]:
    errors = sorted(message.validator.iter_errors(payload), key=lambda e: list(map(str, e.absolute_path)))
    return [{"field": _field(e), "message": e.message} for e in errors]


def _validate(name: str, payload: Any, direction: str) -> None:
    message = contract().messages.get(name)
    if message is None or message.direction != direction:
        raise ContractError(
            name, f"'{name}' is not a message the {'client' if direction == 'incoming' else 'server'} may send"
        )
    details = _errors(message, payload)
    if details:
        raise ContractError(name, f"{name} payload is invalid", details)


def validate_incoming(name: str, payload: Any) -> None:
    """Raise ContractError unless `payload` is a valid client -> server `name` message."""
    _validate(name, payload, "incoming")


def validate_outgoing(name: str, payload: Any) -> None:
    """Raise ContractError unless `payload` is a valid server -> client `name` message."""
    _validate(name, payload, "outgoing")


@functools.cache
def schema_validator(schema: str) -> Draft7Validator:
    """Validator for `#/components/schemas/<schema>`, e.g. RoomAck or ConnectError."""
    document = contract()
    if schema not in document.document["components"]["schemas"]:
        raise KeyError(schema)
    return _validator(document.registry, f"#/components/schemas/{schema}")


def validate_ack(name: str, ack: Any) -> dict[str, Any]:
    """Parse the server's ack to client message `name` and check it; returns the parsed body.

    Raises ContractError unless `ack` is JSON text (x-ack `args`) of a valid x-ack `payload`.
    A name the server does not handle has no x-ack; the document promises it a
    `validation_error` failure, so it is held to RoomAckError.
    """
    if not isinstance(ack, str):
        raise ContractError(name, f"{name} ack must be a JSON string, not {type(ack).__name__}")
    try:
        body = json.loads(ack)
    except ValueError as exc:
        raise ContractError(name, f"{name} ack is not JSON: {exc}") from None
    message = contract().messages.get(name)
    if message is not None and message.direction == "incoming" and message.ack_validator is not None:
        validator = message.ack_validator
    else:
        validator = schema_validator("RoomAckError")
    details = [{"field": _field(e), "message": e.message} for e in validator.iter_errors(body)]
    if details:
        raise ContractError(name, f"{name} ack is invalid", details)
    return body


def room_template(name: str) -> str:
    """`x-room` of an outgoing message, e.g. "event:{eventId}"."""
    message = contract().messages[name]
    if message.room is None:
        raise ContractError(name, f"'{name}' has no x-room")
    return message.room
