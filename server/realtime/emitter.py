"""The one way the rest of the code sends socket messages.

Every payload is checked against asyncapi/asyncapi.yaml (and the room against the message's
`x-room`) before it leaves, so a service cannot send something the clients were not promised.

In the server: `bind(sio)` once, then `await emit_update_event(...)` etc. Without a server
(the CLI, scripts): `async with external_emitter(redis_url) as out: await out.emit_...`, which
publishes through Redis to every server process that shares it.
"""

import json
import logging
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime
from typing import Any, Protocol

from . import contract, signals
from .fanout import WriteOnlyRedisManager
from .session_rooms import session_room
from .socket import REDIS_CHANNEL, event_room, ingest_room, media_room, qoe_room, user_room
from .staff_watches import watcher_room

log = logging.getLogger(__name__)
NAMESPACE = "/"


class _Target(Protocol):
    """socketio.AsyncServer and a write-only socketio.AsyncRedisManager both fit."""

    async def emit(self, event: str, data: Any, namespace: str | None = None, room: str | None = None) -> Any: ...


def _default(value: Any) -> str:
    if isinstance(value, datetime):
        # Model timestamps are UTC; a naive one is taken as UTC rather than local time.
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _jsonable(payload: Any) -> Any:
    # What the client will actually receive: validate that, not the Python objects.
    return json.loads(json.dumps(payload, default=_default))


def _room_parts(template: str) -> tuple[str, str]:
    """`user:{userId}` -> ("user", "userId")."""
    match = re.fullmatch(r"(\w+):\{(\w+)\}", template)
    if match is None:
        raise ValueError(f"a room template looks like 'kind:{{key}}', not {template!r}")
    return match[1], match[2]


def _check_room(name: str, payload: dict, room: str) -> None:
    kind, key = _room_parts(contract.room_template(name))
    if not isinstance(room, str) or not re.fullmatch(rf"{kind}:[0-9a-f]{{24}}", room):
        raise contract.ContractError(name, f"{name} goes to a room like '{kind}:<24 hex id>', not {room!r}")
    if key in payload and room != f"{kind}:{payload[key]}":
        raise contract.ContractError(name, f"{name} for {key} {payload[key]} cannot go to room {room}")


def checked(name: str, payload: Mapping[str, Any], room: str) -> Any:
    """The JSON the clients would receive for `payload`; raises ContractError unless `name` is
    a server message, the payload matches its schema and `room` its `x-room`."""
    data = _jsonable(payload)
    contract.validate_outgoing(name, data)
    _check_room(name, data, room)
    return data


def with_room_key(name: str, payload: Mapping[str, Any], room: str) -> dict[str, Any]:
    """`payload` completed with the id its room names, when the message carries that field
    and the payload leaves it out: `update-event` to `event:<id>` gets `eventId: <id>`.
    Anything else is returned as it is (and left to the contract checks to judge)."""
    message = contract.contract().messages.get(name)
    if message is None or message.direction != "outgoing" or message.room is None or not isinstance(room, str):
        return dict(payload)
    kind, key = _room_parts(message.room)
    prefix = f"{kind}:"
    if key in message.payload_schema.get("properties", {}) and key not in payload and room.startswith(prefix):
        return {**payload, key: room[len(prefix) :]}
    return dict(payload)


class Emitter:
    """Validated, typed sends; the target is a bound server or a write-only Redis manager."""

    def __init__(self, target: _Target | None = None):
        self._target = target

    def bind(self, target: _Target | None) -> None:
        self._target = target

    @property
    def bound(self) -> bool:
        return self._target is not None

    async def emit(self, name: str, payload: Mapping[str, Any], room: str) -> bool:
        """Send `name` to `room`. Raises ContractError for a payload or room the contract forbids.

        Returns False (and logs) when nothing is bound, so services also work without a socket.
        """
        data = checked(name, payload, room)
        if self._target is None:
            log.warning("realtime emitter is not bound; dropped %s to %s", name, room)
            return False
        await self._target.emit(name, data, namespace=NAMESPACE, room=room)
        return True

    async def emit_event_url_change(self, event_id: str, url: str) -> bool:
        return await self.emit("event-url-change", {"eventId": event_id, "eventUrl": url}, event_room(event_id))

    async def emit_update_event(self, event_id: str, fields: Mapping[str, Any]) -> bool:
        """`fields`: changed Event fields with their REST wire names (status, title, content...)."""
        return await self.emit("update-event", {**fields, "eventId": event_id}, event_room(event_id))

    async def emit_tags_change(self, event_id: str, tag_ids: Iterable[str], change: str) -> bool:
        payload = {"eventId": event_id, "tagIds": list(tag_ids), "change": change}
        return await self.emit("tags-change", payload, event_room(event_id))

    async def emit_remove_user_device(self, user_id: str, device_id: str, code: str | None = None) -> bool:
        payload: dict[str, Any] = {"deviceId": device_id}
        if code is not None:
            payload["messageErrorCode"] = code
        return await self.emit("remove-user-device", payload, user_room(user_id))

    async def emit_user_purchase_status(
        self, user_id: str, *, purchase_id: str, status: str, product_id: str, event_id: str | None = None
    ) -> bool:
        payload = {"purchaseId": purchase_id, "status": status, "productId": product_id}
        if event_id is not None:
            payload["eventId"] = event_id
        return await self.emit("user-purchase-status", payload, user_room(user_id))

    async def emit_user_purchase_credited(
        self,
        user_id: str,
        *,
        purchase_id: str,
        event_id: str,
        kind: str,
        amount_minor: int,
        currency: str | None,
    ) -> bool:
        payload = {
            "purchaseId": purchase_id,
            "eventId": event_id,
            "kind": kind,
            "amountMinor": amount_minor,
            "currency": currency,
        }
        return await self.emit("user-purchase-credited", payload, user_room(user_id))

    async def emit_followed_event_live(self, user_id: str, payload: Mapping[str, Any]) -> bool:
        """`payload`: {eventId, title, wentLiveAt}."""
        return await self.emit("followed-event-live", payload, user_room(user_id))

    async def emit_register_user(self, user_id: str) -> bool:
        return await self.emit("register-user", {"userId": user_id}, user_room(user_id))

    async def emit_unregister_user(self, user_id: str) -> bool:
        return await self.emit("unregister-user", {"userId": user_id}, user_room(user_id))

    async def emit_comment_on_media(self, media_id: str, comment: Mapping[str, Any]) -> bool:
        """`comment`: {_id, text, userId, displayName, created}."""
        return await self.emit("comment-on-media", {"mediaId": media_id, "comment": comment}, event_room(media_id))

    async def emit_comment_on_media_updated(self, media_id: str, comment: Mapping[str, Any]) -> bool:
        payload = {"mediaId": media_id, "comment": comment}
        return await self.emit("comment-on-media-updated", payload, event_room(media_id))

    async def emit_comment_on_media_deleted(self, media_id: str, comment_id: str) -> bool:
        payload = {"mediaId": media_id, "commentId": comment_id}
        return await self.emit("comment-on-media-deleted", payload, event_room(media_id))

    async def emit_ingest_state_change(self, event_id: str, *, state: str, previous: str, asset_id: str | None) -> bool:
        payload = {"eventId": event_id, "state": state, "previous": previous, "assetId": asset_id}
        return await self.emit("ingest-state-change", payload, ingest_room(event_id))

    async def emit_media_job_change(self, payload: dict[str, Any]) -> bool:
        return await self.emit("media-job-change", payload, media_room(payload["eventId"]))

    async def emit_qoe_alert(self, payload: Mapping[str, Any]) -> bool:
        """`payload`: QoeAlertPayload (asyncapi.yaml), to the staff watching the event's QoE."""
        return await self.emit("qoe-alert", payload, qoe_room(payload["eventId"]))

    async def catalogue_changed(self) -> bool:
        """Every process drops its cached catalogue answers (server.realtime.signals): this one at
        once, the others as they hear the signal room close through Redis. False when nothing
        is bound (only this process's caches are dropped then)."""
        close_room = getattr(self._target, "close_room", None)
        if close_room is None:
            signals.heard(signals.CATALOGUE_CHANGED)
            return False
        await close_room(signals.CATALOGUE_CHANGED, namespace=NAMESPACE)
        return True

    async def end_sessions(self, session_ids: Iterable[str]) -> bool:
        """Close the `session:<id>` rooms of sessions that ended: their connections are
        disconnected in this process and, through Redis, in every other one (no message is sent
        to them: server.realtime.session_rooms). False when nothing is bound."""
        close_room = getattr(self._target, "close_room", None)
        if close_room is None:
            log.warning("realtime emitter is not bound; the sockets of %s stay open", list(session_ids))
            return False
        for session_id in session_ids:
            await close_room(session_room(session_id), namespace=NAMESPACE)
        return True

    async def end_staff_watches(self, user_id: str) -> bool:
        """Close the account's `watcher:<id>` room: its connections that watch rooms are
        disconnected here and, through Redis, in every other process (server.realtime.staff_watches).
        False when nothing is bound."""
        close_room = getattr(self._target, "close_room", None)
        if close_room is None:
            log.warning("realtime emitter is not bound; the watches of %s stay open", user_id)
            return False
        await close_room(watcher_room(user_id), namespace=NAMESPACE)
        return True


class RedisEmitter(Emitter):
    """Emits into the rooms of every server sharing `redis_url`, without running a server.

    A message Redis does not take raises (redis.exceptions.RedisError) instead of being
    dropped; `receivers` is how many server processes got the last one (0: nobody listens).
    """

    def __init__(self, redis_url: str, channel: str = REDIS_CHANNEL):
        self.redis_url = redis_url
        self.channel = channel
        self.manager = WriteOnlyRedisManager(redis_url, channel)
        super().__init__(self.manager)

    @property
    def receivers(self) -> int | None:
        return self.manager.last_receivers

    async def listeners(self) -> int:
        """How many server processes are subscribed to the channel right now."""
        from redis import asyncio as aioredis  # python-socketio's own Redis dependency

        client = aioredis.Redis.from_url(self.redis_url)
        try:
            [(_, count)] = await client.pubsub_numsub(self.channel)
            return int(count)
        finally:
            await client.aclose()

    async def aclose(self) -> None:
        if self.manager.redis is not None:
            await self.manager.redis.aclose()

    async def __aenter__(self) -> "RedisEmitter":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def external_emitter(redis_url: str, channel: str = REDIS_CHANNEL) -> RedisEmitter:
    return RedisEmitter(redis_url, channel)


# The process-wide emitter the server binds; these names are what the rest of the server calls.
default = Emitter()
bind = default.bind
emit = default.emit
emit_event_url_change = default.emit_event_url_change
emit_update_event = default.emit_update_event
emit_remove_user_device = default.emit_remove_user_device
emit_user_purchase_status = default.emit_user_purchase_status
emit_register_user = default.emit_register_user
emit_unregister_user = default.emit_unregister_user
emit_comment_on_media = default.emit_comment_on_media
emit_comment_on_media_updated = default.emit_comment_on_media_updated
emit_comment_on_media_deleted = default.emit_comment_on_media_deleted
emit_ingest_state_change = default.emit_ingest_state_change
