"""The socket at /ws, over a real websocket: handshake auth, rooms, acks and delivery."""

import asyncio
import json
import socket
from types import SimpleNamespace

import pytest
import socketio
import uvicorn

from server.auth.tokens import issue_access_token
from server.realtime import contract
from server.realtime.emitter import Emitter
from server.realtime.socket import close_socket_server, create_socket_server, token_authenticator

SECRET = "socket-test-secret-of-at-least-32-bytes"
ALICE = "a11ce0000000000000000001"
BOB = "b0b000000000000000000002"
EVENT = "e0e000000000000000000003"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
async def socket_server():
    sio = create_socket_server(SimpleNamespace(redis_url=None), authenticate=token_authenticator(SECRET))
    port = free_port()
    config = uvicorn.Config(socketio.ASGIApp(sio, socketio_path="ws"), host="127.0.0.1", port=port,
                            lifespan="off", log_level="warning", ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    yield SimpleNamespace(sio=sio, url=f"http://127.0.0.1:{port}", emitter=Emitter(sio))
    server.should_exit = True
    await task
    await close_socket_server(sio)


async def connect(url: str, token: str | None = None) -> socketio.AsyncClient:
    client = socketio.AsyncClient(reconnection=False)
    await client.connect(url, transports=["websocket"], socketio_path="ws",
                         auth={"token": token} if token else None, wait_timeout=5)
    return client


def token_for(user_id: str) -> str:
    return issue_access_token(user_id, secret=SECRET)


async def ask(client: socketio.AsyncClient, name: str, *args) -> dict:
    """Emit and parse the JSON-string ack, checking it against the message's x-ack schema."""
    ack = await client.call(name, args[0] if len(args) == 1 else args, timeout=5) if args else await client.call(
        name, timeout=5)
    assert isinstance(ack, str), "acks are JSON strings"
    body = json.loads(ack)
    message = contract.contract().messages.get(name)
    if message is not None and message.ack_validator is not None:
        message.ack_validator.validate(body)
    return body


async def test_anonymous_connection_joins_an_event_room(socket_server):
    client = await connect(socket_server.url)
    try:
        assert await ask(client, "join-event-room", {"eventId": EVENT}) == {"ok": True, "room": f"event:{EVENT}"}
    finally:
        await client.disconnect()


@pytest.mark.parametrize("payload", [{}, {"eventId": 42}, {"eventId": "not-an-id"}, {"eventId": EVENT, "x": 1}])
async def test_invalid_join_payload_is_refused_with_a_validation_error(socket_server, payload):
    client = await connect(socket_server.url)
    try:
        ack = await ask(client, "join-event-room", payload)
        assert ack["ok"] is False and ack["messageErrorCode"] == "validation_error"
    finally:
        await client.disconnect()


async def test_signed_in_connection_joins_its_own_user_room(socket_server):
    client = await connect(socket_server.url, token_for(ALICE))
    try:
        assert await ask(client, "join-user-room", {"userId": ALICE}) == {"ok": True, "room": f"user:{ALICE}"}
    finally:
        await client.disconnect()


async def test_a_connection_may_not_join_another_users_room(socket_server):
    client = await connect(socket_server.url, token_for(ALICE))
    try:
        ack = await ask(client, "join-user-room", {"userId": BOB})
        assert ack["ok"] is False and ack["messageErrorCode"] == "forbidden"
    finally:
        await client.disconnect()


async def test_an_anonymous_connection_may_not_join_a_user_room(socket_server):
    client = await connect(socket_server.url)
    try:
        ack = await ask(client, "join-user-room", {"userId": ALICE})
        assert ack["ok"] is False and ack["messageErrorCode"] == "forbidden"
    finally:
        await client.disconnect()


@pytest.mark.parametrize("token", ["not-a-jwt", issue_access_token(ALICE, secret="someone-elses-secret-of-at-least-32-bytes"),
                                   issue_access_token(ALICE, secret=SECRET, lifetime=-60)])
async def test_a_bad_or_expired_token_is_refused_at_the_handshake(socket_server, token):
    with pytest.raises(socketio.exceptions.ConnectionError):
        await connect(socket_server.url, token)


async def test_an_unknown_message_gets_a_validation_error_ack(socket_server):
    client = await connect(socket_server.url)
    try:
        ack = await ask(client, "launch-rockets", {"eventId": EVENT})
        assert ack["ok"] is False and ack["messageErrorCode"] == "validation_error"
    finally:
        await client.disconnect()


async def test_room_messages_reach_members_only_and_stop_after_leaving(socket_server):
    member, outsider = await connect(socket_server.url), await connect(socket_server.url)
    received: dict[str, asyncio.Queue] = {"member": asyncio.Queue(), "outsider": asyncio.Queue()}
    member.on("event-url-change", lambda data: received["member"].put_nowait(data))
    outsider.on("event-url-change", lambda data: received["outsider"].put_nowait(data))
    try:
        await ask(member, "join-event-room", {"eventId": EVENT})
        url = "https://cdn.example/live/main.m3u8"
        assert await socket_server.emitter.emit_event_url_change(EVENT, url)
        assert await asyncio.wait_for(received["member"].get(), 5) == {"eventId": EVENT, "eventUrl": url}

        assert (await ask(member, "leave-event-room", {"eventId": EVENT}))["ok"] is True
        await socket_server.emitter.emit_event_url_change(EVENT, url + "?v=2")
        # A marker sent afterwards to a room the member is in proves the earlier one was skipped.
        await ask(member, "join-event-room", {"eventId": "e0e000000000000000000004"})
        await socket_server.emitter.emit_event_url_change("e0e000000000000000000004", url + "?marker")
        marker = await asyncio.wait_for(received["member"].get(), 5)
        assert marker["eventId"] == "e0e000000000000000000004"
        assert received["outsider"].empty()
    finally:
        await member.disconnect()
        await outsider.disconnect()
