"""The socket at /ws, over a real websocket: handshake, rooms, acks and delivery.

Each test is one promise of asyncapi/asyncapi.yaml. Every ack is checked against the sent
message's `x-ack` (server.realtime.contract.validate_ack) on top of what the test asserts.
Negative delivery is proven with a marker: Socket.IO keeps the order of one connection's
packets, so when a later marker arrives first, the earlier message was never sent.
"""

import asyncio
from types import SimpleNamespace
from typing import Any

import aiohttp
import httpx
import pytest
import pytest_asyncio
import socketio

from server.auth.tokens import issue_access_token
from server.realtime import census, contract
from server.realtime.emitter import Emitter
from server.realtime.socket import close_socket_server, create_socket_server, start_socket_server, token_authenticator
from server.tests.serving import uvicorn_serving

pytestmark = pytest.mark.asyncio(loop_scope="session")

SECRET = "socket-test-secret-of-at-least-32-bytes"
ALICE = "a11ce0000000000000000001"
BOB = "b0b000000000000000000002"
EVENT = "e0e000000000000000000003"
MARKER_EVENT = "e0e000000000000000000004"
STREAM_URL = "https://cdn.example/live/main.m3u8"
TIMEOUT_S = 5
PAGE_ORIGIN = "https://touchline.example"  # the allow-listed origin of the test servers


def socket_settings(redis_url: str | None = None, origins: list[str] | None = None) -> SimpleNamespace:
    """What create_socket_server reads from server.settings.Settings."""
    return SimpleNamespace(redis_url=redis_url, socket_origins=origins or [PAGE_ORIGIN])


# --- helpers (test_redis_fanout uses them too) --------------------------------------------------


def serving(sio: socketio.AsyncServer, *, ws: str = "auto"):
    """Serve `sio` at /ws with uvicorn (`ws`: its websocket implementation) on a free loopback
    port; yields the base URL."""
    return uvicorn_serving(lambda _port: socketio.ASGIApp(sio, socketio_path="ws"), lifespan="off", ws=ws)


async def open_client(
    url: str, *, token: str | None = None, auth: Any = None, headers: dict[str, str] | None = None
) -> socketio.AsyncClient:
    client = socketio.AsyncClient(reconnection=False)
    if token is not None:
        auth = {"token": token}
    await client.connect(
        url, transports=["websocket"], socketio_path="ws", auth=auth, headers=headers or {}, wait_timeout=TIMEOUT_S
    )
    return client


async def ask(client: socketio.AsyncClient, name: str, *args: Any) -> dict[str, Any]:
    """Send `name` with `args` (any number) and return the parsed ack, checked against the contract."""
    data = args[0] if len(args) == 1 else (args or None)  # a tuple is sent as several arguments
    ack = await client.call(name, data, timeout=TIMEOUT_S)
    return contract.validate_ack(name, ack)


class Inbox:
    """Every server message one client receives, in arrival order."""

    def __init__(self, client: socketio.AsyncClient):
        self._queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        client.on("*", lambda name, data: self._queue.put_nowait((name, data)))

    async def next(self) -> tuple[str, Any]:
        return await asyncio.wait_for(self._queue.get(), TIMEOUT_S)


def token_for(user_id: str, **claims: Any) -> str:
    return issue_access_token(user_id, secret=SECRET, **claims)


# --- fixtures -----------------------------------------------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def socket_server():
    sio = create_socket_server(socket_settings(), authenticate=token_authenticator(SECRET))
    try:
        await start_socket_server(sio)
        async with serving(sio) as url:
            yield SimpleNamespace(url=url, emitter=Emitter(sio), sio=sio)
    finally:
        await close_socket_server(sio)


@pytest_asyncio.fixture(loop_scope="session")
async def connect(socket_server):
    """connect(token=None, **options) -> a connected client, disconnected after the test."""
    clients: list[socketio.AsyncClient] = []

    async def connect_(token: str | None = None, **options: Any) -> socketio.AsyncClient:
        client = await open_client(socket_server.url, token=token, **options)
        clients.append(client)
        return client

    yield connect_
    for client in clients:
        await client.disconnect()


# --- handshake ----------------------------------------------------------------------------------


async def test_a_connection_without_a_token_is_accepted_as_anonymous(connect):
    client = await connect()
    assert client.connected and client.get_sid() is not None


async def test_a_connection_with_a_valid_access_token_is_accepted(connect):
    client = await connect(token_for(ALICE, role="admin", session_id="5e5000000000000000000005"))
    assert client.connected


@pytest.mark.parametrize(
    "auth",
    [
        {"token": "not-a-jwt"},
        {"token": issue_access_token(ALICE, secret="someone-elses-secret-of-at-least-32-bytes")},
        {"token": issue_access_token(ALICE, secret=SECRET, lifetime=-60)},
        {"token": ""},
        {"token": 42},
        "a-bare-token-instead-of-an-object",
    ],
    ids=["malformed", "forged", "expired", "empty", "not-a-string", "auth-not-an-object"],
)
async def test_a_bad_token_is_refused_at_the_handshake_with_the_unauthorized_envelope(socket_server, auth):
    client = socketio.AsyncClient(reconnection=False)
    refusals: list[Any] = []
    client.on("connect_error", refusals.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(
            socket_server.url, transports=["websocket"], socketio_path="ws", auth=auth, wait_timeout=TIMEOUT_S
        )
    [refusal] = refusals
    envelope = refusal["data"]  # what a browser's connect_error sees as err.data
    contract.schema_validator("ConnectError").validate(envelope)
    assert envelope["messageErrorCode"] == "unauthorized" and refusal["message"] == envelope["message"]
    assert not client.connected


async def test_a_handshake_from_an_allowed_origin_is_accepted(connect):
    assert (await connect(headers={"Origin": PAGE_ORIGIN})).connected


async def test_a_handshake_without_an_origin_is_accepted_as_it_comes_from_no_web_page(connect):
    assert (await connect()).connected  # browsers always send Origin; tools and apps do not


@pytest.mark.parametrize(
    "origin",
    [
        "https://elsewhere.example",
        "http://touchline.example",  # the right host over another scheme
        "https://touchline.example.evil.example",
        "null",  # sandboxed frames and file:// pages
    ],
    ids=["other-site", "other-scheme", "suffix-trick", "null"],
)
async def test_a_handshake_from_an_origin_not_on_the_list_is_refused_before_the_websocket_opens(socket_server, origin):
    async with aiohttp.ClientSession() as http:
        async with http.get(
            f"{socket_server.url}/ws/", params={"EIO": "4", "transport": "websocket"}, headers={"Origin": origin}
        ) as response:  # a plain GET: no upgrade happens
            assert response.status == 400
        # And a real client is refused. Our own HTTP session: a client refused this early
        # leaves its own one open.
        client = socketio.AsyncClient(reconnection=False, http_session=http)
        with pytest.raises(socketio.exceptions.ConnectionError):
            await client.connect(
                socket_server.url,
                transports=["websocket"],
                socketio_path="ws",
                headers={"Origin": origin},
                wait_timeout=TIMEOUT_S,
            )


@pytest.mark.parametrize(
    "origins", [[], None, ["*"]], ids=["empty-list-means-no-check", "none-means-host-header", "star-means-any"]
)
async def test_the_socket_server_needs_an_explicit_origin_allow_list(origins):
    with pytest.raises(ValueError, match="allowed origins"):
        create_socket_server(SimpleNamespace(redis_url=None, socket_origins=origins))


async def test_long_polling_is_refused_with_400(socket_server):
    async with httpx.AsyncClient(base_url=socket_server.url) as http:
        response = await http.get("/ws/", params={"EIO": "4", "transport": "polling"})
    assert response.status_code == 400


# --- event rooms --------------------------------------------------------------------------------


async def test_anyone_may_join_an_event_room(connect):
    client = await connect()
    assert await ask(client, "join-event-room", {"eventId": EVENT}) == {"ok": True, "room": f"event:{EVENT}"}


async def test_leaving_an_event_room_is_acknowledged_with_the_room_left(connect):
    client = await connect()
    await ask(client, "join-event-room", {"eventId": EVENT})
    # `customer` is what the web client sends along; it is allowed and ignored.
    ack = await ask(client, "leave-event-room", {"eventId": EVENT, "customer": "touchline"})
    assert ack == {"ok": True, "room": f"event:{EVENT}"}


async def test_a_signed_in_viewer_in_an_event_room_counts_as_watching_it_until_they_leave(socket_server, connect):
    alice, bob, anonymous = await connect(token_for(ALICE)), await connect(token_for(BOB)), await connect()
    for client in (alice, bob, anonymous):
        await ask(client, "join-event-room", {"eventId": EVENT})
    assert await census.watching(socket_server.sio, EVENT) == {ALICE, BOB}
    await ask(alice, "leave-event-room", {"eventId": EVENT})
    await bob.disconnect()
    deadline = asyncio.get_running_loop().time() + TIMEOUT_S
    # The server drops the connection's rooms once it hears the hang-up.
    while await census.watching(socket_server.sio, EVENT) != set():
        assert asyncio.get_running_loop().time() < deadline, "bob still counts as watching"
        await asyncio.sleep(0.02)


INVALID_REQUESTS = {
    "missing-eventId": ("join-event-room", {}),
    "eventId-wrong-type": ("join-event-room", {"eventId": 42}),
    "eventId-not-24-hex": ("join-event-room", {"eventId": "not-an-id"}),
    "eventId-uppercase-hex": ("join-event-room", {"eventId": EVENT.upper()}),
    "unknown-property": ("join-event-room", {"eventId": EVENT, "x": 1}),
    "payload-not-an-object": ("join-event-room", EVENT),
    "no-payload": ("join-event-room",),
    "extra-argument": ("join-event-room", {"eventId": EVENT}, "extra"),
    "leave-missing-eventId": ("leave-event-room", {"customer": "touchline"}),
    "user-room-wrong-key": ("join-user-room", {"eventId": EVENT}),
}


@pytest.mark.parametrize("request_", INVALID_REQUESTS.values(), ids=INVALID_REQUESTS.keys())
async def test_an_invalid_room_request_is_acknowledged_with_validation_error(connect, request_):
    client = await connect()
    ack = await ask(client, *request_)
    assert ack["ok"] is False and ack["messageErrorCode"] == "validation_error"


async def test_a_validation_error_names_each_offending_field(connect):
    client = await connect()
    ack = await ask(client, "join-event-room", {"eventId": 42, "x": 1})
    assert sorted(detail["field"] for detail in ack["details"]) == ["", "eventId"]  # "" is the payload itself
    assert ack["message"] == "join-event-room payload is invalid"


# --- user rooms ---------------------------------------------------------------------------------


async def test_a_signed_in_connection_may_join_and_leave_its_own_user_room(connect):
    client = await connect(token_for(ALICE))
    assert await ask(client, "join-user-room", {"userId": ALICE}) == {"ok": True, "room": f"user:{ALICE}"}
    assert await ask(client, "leave-user-room", {"userId": ALICE}) == {"ok": True, "room": f"user:{ALICE}"}


@pytest.mark.parametrize("name", ["join-user-room", "leave-user-room"])
async def test_a_connection_may_not_use_another_users_room(connect, name):
    client = await connect(token_for(ALICE))
    ack = await ask(client, name, {"userId": BOB})
    assert ack["ok"] is False and ack["messageErrorCode"] == "forbidden"


async def test_an_anonymous_connection_may_not_join_a_user_room(connect):
    client = await connect()
    ack = await ask(client, "join-user-room", {"userId": ALICE})
    assert ack["ok"] is False and ack["messageErrorCode"] == "forbidden"


# --- messages the server does not handle --------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["launch-rockets", "update-event", "connect", "disconnect"],
    ids=["unknown", "a-server-message", "reserved-connect", "reserved-disconnect"],
)
async def test_a_message_the_server_does_not_handle_is_acknowledged_with_validation_error(connect, name):
    client = await connect()
    ack = await ask(client, name, {"eventId": EVENT})
    assert ack["ok"] is False and ack["messageErrorCode"] == "validation_error"
    assert client.connected


async def test_a_message_named_connect_does_not_redo_the_handshake(connect):
    # Regression: python-socketio hands such a message to the connect handler, which used to
    # replace the session (here: sign Alice out) and ack with nothing.
    client = await connect(token_for(ALICE))
    await ask(client, "connect", {})
    assert (await ask(client, "join-user-room", {"userId": ALICE}))["ok"] is True


async def test_an_oversized_message_closes_the_connection(connect):
    client = await connect()
    closed = asyncio.Event()
    client.on("disconnect", lambda *reason: closed.set())
    await client.emit("join-event-room", {"eventId": "0" * 20_000})
    await asyncio.wait_for(closed.wait(), TIMEOUT_S)


# --- delivery -----------------------------------------------------------------------------------


async def test_an_event_room_message_reaches_members_and_no_one_else(socket_server, connect):
    member, outsider = await connect(), await connect()
    member_inbox, outsider_inbox = Inbox(member), Inbox(outsider)
    for client in (member, outsider):
        await ask(client, "join-event-room", {"eventId": MARKER_EVENT})
    await ask(member, "join-event-room", {"eventId": EVENT})

    assert await socket_server.emitter.emit_event_url_change(EVENT, STREAM_URL) is True
    assert await socket_server.emitter.emit_event_url_change(MARKER_EVENT, STREAM_URL) is True

    assert await member_inbox.next() == ("event-url-change", {"eventId": EVENT, "eventUrl": STREAM_URL})
    assert (await member_inbox.next())[1]["eventId"] == MARKER_EVENT
    assert (await outsider_inbox.next())[1]["eventId"] == MARKER_EVENT  # the EVENT message never came


async def test_leaving_an_event_room_stops_delivery(socket_server, connect):
    client = await connect()
    inbox = Inbox(client)
    for event_id in (EVENT, MARKER_EVENT):
        await ask(client, "join-event-room", {"eventId": event_id})
    await socket_server.emitter.emit_update_event(EVENT, {"status": "live"})
    assert await inbox.next() == ("update-event", {"eventId": EVENT, "status": "live"})

    await ask(client, "leave-event-room", {"eventId": EVENT})
    await socket_server.emitter.emit_update_event(EVENT, {"status": "archived"})
    await socket_server.emitter.emit_update_event(MARKER_EVENT, {"status": "archived"})
    assert await inbox.next() == ("update-event", {"eventId": MARKER_EVENT, "status": "archived"})


async def test_a_user_room_message_reaches_only_that_users_connections(socket_server, connect):
    alice_phone, alice_laptop, bob = (
        await connect(token_for(ALICE)),
        await connect(token_for(ALICE)),
        await connect(token_for(BOB)),
    )
    inboxes = {client: Inbox(client) for client in (alice_phone, alice_laptop, bob)}
    for client, user_id in ((alice_phone, ALICE), (alice_laptop, ALICE), (bob, BOB)):
        await ask(client, "join-user-room", {"userId": user_id})

    await socket_server.emitter.emit_remove_user_device(ALICE, "Chrome on Linux", "device_limit_exceeded")
    await socket_server.emitter.emit_register_user(BOB)  # the marker for Bob

    expected = ("remove-user-device", {"deviceId": "Chrome on Linux", "messageErrorCode": "device_limit_exceeded"})
    assert await inboxes[alice_phone].next() == expected
    assert await inboxes[alice_laptop].next() == expected
    assert await inboxes[bob].next() == ("register-user", {"userId": BOB})
