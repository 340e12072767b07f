"""The Socket.IO server behind /ws: handshake authentication and the room handlers.

What clients may send and what they get back is asyncapi/asyncapi.yaml; every payload is
checked against it (server.realtime.contract) before a handler acts on it.

Besides the rooms clients join (`event:<id>`, `user:<id>`), a connection signed in with a session
is in `session:<sid>` from its handshake on: when the session ends (logout, a removed device,
refresh-token reuse, ending other sessions, a password reset, account deletion, staff), that room
is closed and the connection disconnected, at once where it ended and within
SESSION_SWEEP_SECONDS everywhere (server.realtime.session_rooms).

`watch-room` asks the database for the account's role on every call (the access token's role
may be up to its lifetime old), and a watching connection is in `watcher:<userId>`, closed when the
account loses its staff role (server.realtime.staff_watches). Staff watch a user or event room, or
an event's `ingest:<id>`, which only they can enter: its live input's changes of state.
Connections per client address and rooms per connection are capped (server.realtime.caps).
"""

import asyncio
import contextlib
import inspect
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import socketio

from . import contract
from .caps import TOO_MANY_CONNECTIONS, TOO_MANY_ROOMS, SocketCaps, client_address
from .caps import from_settings as caps_from_settings
from .census import watching_room
from .fanout import SupervisedRedisManager
from .session_rooms import SESSION_SWEEP_SECONDS, LocalManager, SessionSweeper, session_room
from .slow_consumers import MAX_QUEUED_MESSAGES, BoundedSocketServer
from .staff_watches import watcher_room

log = logging.getLogger(__name__)

# Shared by every server process and the write-only emitters (server.realtime.emitter);
# namespaced so the Redis can be shared with other applications.
REDIS_CHANNEL = "touchline:socketio"
# Client messages are a few ids; refuse anything far larger before parsing it.
MAX_MESSAGE_BYTES = 16 * 1024
NAMESPACE = "/"
# Roles that may `watch-room` (server.auth.tokens.STAFF_ROLES).
STAFF_ROLES = ("support", "admin")
WATCH_FORBIDDEN = "Only staff (support or admin) may watch a room"
TOO_MANY_CONNECTIONS_MESSAGE = "Too many connections from your address; close some and try again later"
TOO_MANY_ROOMS_MESSAGE = "This connection is in too many rooms; leave one first"


@dataclass(frozen=True)
class SocketUser:
    """Who a connection belongs to: the token's subject and its sign-in session."""

    user_id: str
    session_id: str | None = None
    role: str = "viewer"  # the token's role: `support` and `admin` may watch any room

    @property
    def staff(self) -> bool:
        return self.role in STAFF_ROLES


class SessionEnded(Exception):
    """The token is valid but its session was revoked, expired or deleted."""


class AuthUnavailable(Exception):
    """The session cannot be checked right now (the database does not answer)."""


# token -> SocketUser (or a bare user id), or None when the token is not valid; may raise
# SessionEnded or AuthUnavailable. May be sync or async.
Authenticate = Callable[[str], SocketUser | str | Awaitable[SocketUser | str | None] | None]


def user_room(user_id: str) -> str:
    return f"user:{user_id}"


def event_room(event_id: str) -> str:
    return f"event:{event_id}"


def ingest_room(event_id: str) -> str:
    """Staff watching an event's live input (`watch-room` only: clients never join it)."""
    return f"ingest:{event_id}"


def media_room(event_id: str) -> str:
    """Staff watching the media library's jobs of an event (`watch-room` only)."""
    return f"media:{event_id}"


def qoe_room(event_id: str) -> str:
    """Staff watching an event's viewers' playback quality (`watch-room` only)."""
    return f"qoe:{event_id}"


def _ok(room: str) -> str:
    # Acks are JSON *strings*: that is what the web client already parses (see asyncapi x-ack).
    return json.dumps({"ok": True, "room": room})


def _fail(code: str, message: str, details: list[dict[str, str]] | None = None) -> str:
    body: dict[str, Any] = {"ok": False, "messageErrorCode": code, "message": message}
    if details:
        body["details"] = details
    return json.dumps(body)


SESSION_ENDED = "Your session has ended, please sign in again"
UNAVAILABLE = "The server cannot check your session right now, please try again"
CLOSED = "The connection has closed"


def _refuse(message: str, code: str = "unauthorized") -> socketio.exceptions.ConnectionRefusedError:
    # The client's connect_error gets err.message and err.data (the REST error envelope).
    envelope = {"error": True, "message": message, "messageErrorCode": code}
    return socketio.exceptions.ConnectionRefusedError(message, envelope)


async def _user(auth: Any, authenticate: Authenticate | None) -> SocketUser | None:
    """The handshake's user, None for anonymous; raises ConnectionRefusedError for a bad token
    or an ended session."""
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
        user = authenticate(token)
        if inspect.isawaitable(user):
            user = await user
    except SessionEnded:
        raise _refuse(SESSION_ENDED) from None
    except AuthUnavailable:
        raise _refuse(UNAVAILABLE, "service_unavailable") from None
    except Exception:
        log.exception("socket authentication failed")
        user = None
    if isinstance(user, str) and user:
        user = SocketUser(user)
    if not isinstance(user, SocketUser):
        raise _refuse("The access token is invalid or expired")
    return user


class TokenAuthenticator:
    """Handshake tokens are the REST access tokens: the socket's user is the token's subject.

    With a database (server.db.Database) the token's session must also still stand, as for
    every secured REST call: a token of a signed-out session, a removed device or a deleted
    account is refused although its signature and lifetime are fine.
    """

    def __init__(self, secret: str, database: Any = None):
        self.secret = secret
        self.database = database

    async def __call__(self, token: str) -> SocketUser | None:
        from ..auth.tokens import verify_access_token

        claims = verify_access_token(token, secret=self.secret)
        if claims is None:
            return None
        user = SocketUser(claims.user_id, claims.session_id, claims.role)
        if not await self.session_alive(user):
            raise SessionEnded()
        return user

    async def session_alive(self, user: SocketUser) -> bool:
        """True while the user's session stands (always, without a database)."""
        if self.database is None:
            return True
        return await self.current_role(user) is not None

    async def current_role(self, user: SocketUser) -> str | None:
        """The account's role now, from the database, while its session stands (None once it has
        ended); the token's role without a database."""
        if self.database is None:
            return user.role
        from ..services.sessions import session_alive

        try:
            async with self.database.session() as db:
                alive = await session_alive(db, user.user_id, user.session_id)
        except Exception as exc:
            log.warning("socket: cannot check the session of user %s: %s", user.user_id, exc)
            raise AuthUnavailable() from exc
        return alive.role if alive is not None else None


def token_authenticator(secret: str, database: Any = None) -> TokenAuthenticator:
    return TokenAuthenticator(secret, database)


def allowed_origins(settings: Any) -> list[str]:
    """The explicit Origin allow-list for the handshake. python-engineio treats `[]` as "no
    check at all" and None as "same Host header", so neither may reach it."""
    origins = list(getattr(settings, "socket_origins", None) or [])
    if not origins or "*" in origins:
        raise ValueError("the socket needs an explicit list of allowed origins (settings.socket_origins)")
    return origins


# The sweep of each server that checks sessions in a database (server.realtime.session_rooms).
_sweepers: "weakref.WeakKeyDictionary[socketio.AsyncServer, SessionSweeper]" = weakref.WeakKeyDictionary()
# Each server's caps and their counts (server.realtime.caps).
_caps: "weakref.WeakKeyDictionary[socketio.AsyncServer, SocketCaps]" = weakref.WeakKeyDictionary()


def caps_of(sio: socketio.AsyncServer) -> SocketCaps:
    """The server's connection and room caps, with what they count now."""
    return _caps[sio]


def create_socket_server(
    settings: Any,
    *,
    authenticate: Authenticate | None = None,
    redis_channel: str = REDIS_CHANNEL,
    fanout_options: dict[str, Any] | None = None,
    session_sweep_seconds: float = SESSION_SWEEP_SECONDS,
    max_queued_messages: int = MAX_QUEUED_MESSAGES,
) -> socketio.AsyncServer:
    """An ASGI Socket.IO server; mount it with socketio.ASGIApp(sio, socketio_path="ws").

    `settings` needs `socket_origins` (the handshake's Origin allow-list) and `redis_url`:
    when set, rooms are shared across processes through Redis (server.realtime.fanout;
    `fanout_options` tunes its timings). `authenticate` verifies handshake tokens
    (`token_authenticator`); without it every connection is anonymous. With a database behind
    it, the connections of sessions that ended are closed within `session_sweep_seconds`
    (server.realtime.session_rooms). A connection with `max_queued_messages` messages waiting to
    be sent is closed (server.realtime.slow_consumers). `settings` may also cap connections per
    client address and rooms per connection (`socket_connections_per_address`,
    `socket_rooms_per_connection`: server.realtime.caps).
    Call `start_socket_server` once the event loop runs, `close_socket_server` at the end.
    """
    redis_url = getattr(settings, "redis_url", None)
    manager = (
        SupervisedRedisManager(redis_url, redis_channel, **(fanout_options or {})) if redis_url else LocalManager()
    )
    sio = BoundedSocketServer(
        async_mode="asgi",
        client_manager=manager,
        transports=["websocket"],  # polling would need sticky sessions behind a balancer
        cors_allowed_origins=allowed_origins(settings),
        max_http_buffer_size=MAX_MESSAGE_BYTES,
        max_queued=max_queued_messages,
    )
    contract.contract()  # load and compile now: a broken document fails at start-up
    caps = _caps[sio] = caps_from_settings(settings)
    _register_handlers(sio, authenticate, caps)
    database = getattr(authenticate, "database", None)
    if database is not None:
        _sweepers[sio] = SessionSweeper(sio, database, session_sweep_seconds)
    return sio


async def start_socket_server(sio: socketio.AsyncServer) -> None:
    """Subscribe to the fan-out now rather than at the first connection (python-socketio's
    default), so a process receives other processes' messages and reports its health from
    the start."""
    if not sio.manager_initialized:
        sio.manager_initialized = True
        sio.manager.initialize()
    sweeper = _sweepers.get(sio)
    if sweeper is not None:
        sweeper.start()


def _unknown(event: str) -> str:
    return _fail("validation_error", f"'{event}' is not a message the client may send")


def _register_handlers(sio: socketio.AsyncServer, authenticate: Authenticate | None, caps: SocketCaps) -> None:
    def connected(sid: str) -> bool:
        return sio.manager.is_connected(sid, NAMESPACE)

    session_alive = getattr(authenticate, "session_alive", None)
    current_role = getattr(authenticate, "current_role", None)

    @sio.event
    async def connect(sid: str, *args: Any) -> str | None:
        # python-socketio also routes a client *message* named "connect" or "disconnect" to these
        # handlers (the catch-all skips reserved names). The real handshake and hang-up run while the
        # sid is still pending, never connected; a message can only come from a connected sid.
        if connected(sid):
            return _unknown("connect")  # must not re-run the handshake and replace the session
        environ = args[0] if args and isinstance(args[0], dict) else {}
        auth = args[1] if len(args) > 1 else None  # args: environ[, auth]
        user = await _user(auth, authenticate)
        # Counted last: a refused handshake never reaches `disconnect`, which uncounts.
        if not caps.admit(sid, client_address(environ)):
            raise _refuse(TOO_MANY_CONNECTIONS_MESSAGE, TOO_MANY_CONNECTIONS)
        try:
            await sio.save_session(sid, {"user": user})
            if user is not None and user.session_id:
                # Closed when the session ends: the connection is then disconnected (session_rooms).
                await sio.enter_room(sid, session_room(user.session_id))
        except BaseException:
            caps.forget(sid)
            raise
        return None

    @sio.event
    async def disconnect(sid: str, *args: Any) -> str | None:
        if connected(sid):  # a message, as for connect
            return _unknown("disconnect")
        caps.forget(sid)  # python-socketio drops the connection's rooms after this
        return None

    async def _mark_watching(sid: str, event_id: str, join: bool) -> None:
        # Who is on an event's page, for go-live mails (census.watching): a room of its own
        # per signed-in viewer, which python-socketio drops with the connection.
        user: SocketUser | None = (await sio.get_session(sid)).get("user")
        if user is not None and sio.manager.is_connected(sid, NAMESPACE):  # not hung up meanwhile
            room = watching_room(event_id, user.user_id)
            with contextlib.suppress(ValueError):  # it hung up during this call: no room left to mark
                await (sio.enter_room if join else sio.leave_room)(sid, room)

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
                user: SocketUser | None = (await sio.get_session(sid)).get("user")
                if user is None or user.user_id != payload["userId"]:
                    verb = "join" if join else "leave"
                    return _fail("forbidden", f"A connection may only {verb} its own user room")
                if join and session_alive is not None:
                    # The session may have ended since the handshake (logout on another tab).
                    try:
                        alive = await session_alive(user)
                    except AuthUnavailable:
                        return _fail("service_unavailable", UNAVAILABLE)
                    if not alive:
                        return _fail("forbidden", SESSION_ENDED)
            room = room_of(payload)
            # Asked after the awaits (the session check): a connection that has gone meanwhile
            # hears no answer, and a room or count kept for it would outlive it.
            if not connected(sid):
                return _fail("validation_error", CLOSED)
            if join:
                if not caps.join(sid, room):
                    return _fail(TOO_MANY_ROOMS, TOO_MANY_ROOMS_MESSAGE)
                await sio.enter_room(sid, room)
            else:
                caps.leave(sid, room)
                await sio.leave_room(sid, room)
            if not own_user:
                await _mark_watching(sid, payload["eventId"], join)
            return _ok(room)

        sio.on(name, handler)

    room_handler("join-user-room", True, lambda p: user_room(p["userId"]), own_user=True)
    room_handler("leave-user-room", False, lambda p: user_room(p["userId"]), own_user=True)
    room_handler("join-event-room", True, lambda p: event_room(p["eventId"]), own_user=False)
    room_handler("leave-event-room", False, lambda p: event_room(p["eventId"]), own_user=False)

    @sio.on("watch-room")
    async def watch_room(sid: str, *args: Any) -> str:
        # Staff tools (`touchline socket watch`) see what any user or event room receives, and
        # what an event's ingest room is told.
        if len(args) != 1:
            return _fail("validation_error", "watch-room takes exactly one payload argument")
        payload = args[0]
        try:
            contract.validate_incoming("watch-room", payload)
        except contract.ContractError as exc:
            return _fail("validation_error", exc.message, exc.details)
        user: SocketUser | None = (await sio.get_session(sid)).get("user")
        if user is None:
            return _fail("forbidden", WATCH_FORBIDDEN)
        role = user.role
        if current_role is not None:  # the role now, not the token's (a demotion counts at once)
            try:
                role = await current_role(user)
            except AuthUnavailable:
                return _fail("service_unavailable", UNAVAILABLE)
            if role is None:
                return _fail("forbidden", SESSION_ENDED)
        if role not in STAFF_ROLES:
            return _fail("forbidden", WATCH_FORBIDDEN)
        room = payload["room"]
        if not connected(sid):  # gone during the role check, as for the joins
            return _fail("validation_error", CLOSED)
        if not caps.join(sid, room):
            return _fail(TOO_MANY_ROOMS, TOO_MANY_ROOMS_MESSAGE)
        # Closed when the account loses its staff role: the watch then ends (staff_watches).
        await sio.enter_room(sid, watcher_room(user.user_id))
        await sio.enter_room(sid, room)
        return _ok(room)

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
    sweeper = _sweepers.get(sio)
    if sweeper is not None:
        await sweeper.stop()
    await sio.shutdown()
    manager = sio.manager
    if isinstance(manager, SupervisedRedisManager):
        await manager.aclose()
        return
    listener = getattr(manager, "thread", None)
    if listener is not None:
        listener.cancel()
        await asyncio.wait([listener])  # let it finish without re-raising its CancelledError
    for resource in (getattr(manager, "pubsub", None), getattr(manager, "redis", None)):
        if resource is not None:
            with contextlib.suppress(Exception):
                await resource.aclose()
