"""The Socket.IO server behind /ws: handshake authentication and the room handlers.

What clients may send and what they get back is asyncapi/asyncapi.yaml; every payload is
checked against it (server.realtime.contract) before a handler acts on it.
"""

import asyncio
import contextlib
import inspect
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import socketio

from . import contract

log = logging.getLogger(__name__)

# Shared by every server process and the write-only emitters (server.realtime.emitter);
# namespaced so the Redis can be shared with other applications.
REDIS_CHANNEL = "touchline:socketio"
# Client messages are a few ids; refuse anything far larger before parsing it.
MAX_MESSAGE_BYTES = 16 * 1024
NAMESPACE = "/"

# token -> user id, or None when the token is not valid. May be sync or async.
Authenticate = Callable[[str], "str | None | Awaitable[str | None]"]


def user_room(user_id: str) -> str:
    return f"user:{user_id}"


def event_room(event_id: str) -> str:
    return f"event:{event_id}"


def _ok(room: str) -> str:
    # Acks are JSON *strings*: that is what the web client already parses (see asyncapi x-ack).
    return json.dumps({"ok": True, "room": room})


def _fail(code: str, message: str, details: list[dict[str, str]] | None = None) -> str:
    body: dict[str, Any] = {"ok": False, "messageErrorCode": code, "message": message}
    if details:
        body["details"] = details
    return json.dumps(body)


def _refuse(message: str) -> socketio.exceptions.ConnectionRefusedError:
    # The client's connect_error gets err.message and err.data (the REST error envelope).
    envelope = {"error": True, "message": message, "messageErrorCode": "unauthorized"}
    return socketio.exceptions.ConnectionRefusedError(message, envelope)


async def _user_id(auth: Any, authenticate: Authenticate | None) -> str | None:
    """The handshake's user, None for anonymous; raises ConnectionRefusedError for a bad token."""
    if auth is None:
        return None
    if not isinstance(auth, dict):
        raise _refuse("The handshake auth must be an object like {token}")
    token = auth.get("token")
    if token is None:
        return None
    if not isinstance(token, str) or not token:
        raise _refuse("The access token must be a non-empty string")
    if authenticate is None:
        # Token verification is not configured yet: everyone is anonymous, nobody is refused.
        return None
    try:
        user_id = authenticate(token)
        if inspect.isawaitable(user_id):
            user_id = await user_id
    except Exception:
        log.exception("socket authentication failed")
        user_id = None
    if not user_id:
        raise _refuse("The access token is invalid or expired")
    return user_id


def token_authenticator(secret: str) -> Authenticate:
    """Handshake tokens are the REST access tokens: the socket's user is the token's subject."""
    from ..auth.tokens import verify_access_token

    def authenticate(token: str) -> str | None:
        claims = verify_access_token(token, secret=secret)
        return claims.user_id if claims else None

    return authenticate


def create_socket_server(
    settings: Any,
    *,
    authenticate: Authenticate | None = None,
    redis_channel: str = REDIS_CHANNEL,
) -> socketio.AsyncServer:
    """An ASGI Socket.IO server; mount it with socketio.ASGIApp(sio, socketio_path="ws").

    With `settings.redis_url` set, rooms are shared across processes through Redis.
    `authenticate` verifies handshake tokens; without it every connection is anonymous.
    """
    redis_url = getattr(settings, "redis_url", None)
    manager = socketio.AsyncRedisManager(redis_url, channel=redis_channel) if redis_url else None
    sio = socketio.AsyncServer(
        async_mode="asgi",
        client_manager=manager,
        transports=["websocket"],  # polling would need sticky sessions behind a balancer
        cors_allowed_origins=None,  # same origin only; [] would switch the Origin check off
        max_http_buffer_size=MAX_MESSAGE_BYTES,
    )
    contract.contract()  # load and compile now: a broken document fails at start-up
    _register_handlers(sio, authenticate)
    return sio


def _unknown(event: str) -> str:
    return _fail("validation_error", f"'{event}' is not a message the client may send")


def _register_handlers(sio: socketio.AsyncServer, authenticate: Authenticate | None) -> None:
    # python-socketio also routes a client *message* named "connect" or "disconnect" to these
    # handlers (the catch-all skips reserved names). The real handshake and hang-up run while the
    # sid is still pending, never connected; a message can only come from a connected sid.
    def sent_as_message(sid: str) -> bool:
        return sio.manager.is_connected(sid, NAMESPACE)

    @sio.event
    async def connect(sid: str, *args: Any) -> str | None:
        if sent_as_message(sid):
            return _unknown("connect")  # must not re-run the handshake and replace the session
        auth = args[1] if len(args) > 1 else None  # args: environ[, auth]
        user_id = await _user_id(auth, authenticate)
        await sio.save_session(sid, {"user_id": user_id})
        return None

    @sio.event
    async def disconnect(sid: str, *args: Any) -> str | None:
        return _unknown("disconnect") if sent_as_message(sid) else None

    def room_handler(name: str, join: bool, room_of: Callable[[dict], str], own_user: bool):
        # `*args`: a client may emit any number of arguments; only exactly one is valid.
        async def handler(sid: str, *args: Any) -> str:
            if len(args) != 1:
                return _fail("validation_error", f"{name} takes exactly one payload argument")
            payload = args[0]
            try:
                contract.validate_incoming(name, payload)
            except contract.ContractError as exc:
                return _fail("validation_error", exc.message, exc.details)
            if own_user:
                session = await sio.get_session(sid)
                if session.get("user_id") != payload["userId"]:
                    verb = "join" if join else "leave"
                    return _fail("forbidden", f"A connection may only {verb} its own user room")
            room = room_of(payload)
            if join:
                await sio.enter_room(sid, room)
            else:
                await sio.leave_room(sid, room)
            return _ok(room)

        sio.on(name, handler)

    room_handler("join-user-room", True, lambda p: user_room(p["userId"]), own_user=True)
    room_handler("leave-user-room", False, lambda p: user_room(p["userId"]), own_user=True)
    room_handler("join-event-room", True, lambda p: event_room(p["eventId"]), own_user=False)
    room_handler("leave-event-room", False, lambda p: event_room(p["eventId"]), own_user=False)

    @sio.on("*")
    async def unknown(event: str, sid: str, *args: Any) -> str:
        # Answer instead of ignoring, so a client waiting for an ack does not time out.
        return _unknown(event)


# Servers already closed: a second AsyncServer.shutdown() fails (Engine.IO awaits None).
_closed: "weakref.WeakSet[socketio.AsyncServer]" = weakref.WeakSet()


async def close_socket_server(sio: socketio.AsyncServer) -> None:
    """Stop background work: Engine.IO's service task and the Redis listener, if any.

    Safe to call more than once (an app's shutdown and a test's teardown may both do it).
    """
    if sio in _closed:
        return
    _closed.add(sio)
    await sio.shutdown()
    manager = sio.manager
    listener = getattr(manager, "thread", None)
    if listener is not None:
        listener.cancel()
        await asyncio.wait([listener])  # let it finish without re-raising its CancelledError
    for resource in (getattr(manager, "pubsub", None), getattr(manager, "redis", None)):
        if resource is not None:
            with contextlib.suppress(Exception):
                await resource.aclose()
