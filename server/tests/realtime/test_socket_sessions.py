"""A token opens the socket only while its sign-in session stands, as for every secured REST
call: after logout, a removed device or a deleted account the handshake is refused.

Accounts are made and ended through the API (the `client` fixture), on SQLite and PostgreSQL;
the socket server checks sessions in the same database.
"""

from types import SimpleNamespace
from typing import Any

import pytest
import pytest_asyncio
import socketio

from server.auth.tokens import issue_access_token
from server.db import Database
from server.realtime import contract
from server.realtime.socket import close_socket_server, create_socket_server, start_socket_server, token_authenticator
from server.tests.accounts import bearer, sign_in, sign_up
from server.tests.realtime.test_socket import TIMEOUT_S, ask, open_client, serving, socket_settings

pytestmark = pytest.mark.asyncio(loop_scope="session")

SESSION_ENDED = "Your session has ended, please sign in again"


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def socket_url(settings, database):
    sio = create_socket_server(socket_settings(), authenticate=token_authenticator(settings.secret_key, database))
    try:
        await start_socket_server(sio)
        async with serving(sio) as url:
            yield url
    finally:
        await close_socket_server(sio)


@pytest_asyncio.fixture(loop_scope="session")
async def connect(socket_url):
    clients: list[socketio.AsyncClient] = []

    async def connect_(token: str) -> socketio.AsyncClient:
        client = await open_client(socket_url, token=token)
        clients.append(client)
        return client

    yield connect_
    for client in clients:
        await client.disconnect()


async def refusal(url: str, token: str) -> dict[str, Any]:
    """Connect with `token`, expecting a refusal; returns err.data (checked against the contract)."""
    client = socketio.AsyncClient(reconnection=False)
    refusals: list[Any] = []
    client.on("connect_error", refusals.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(
            url, transports=["websocket"], socketio_path="ws", auth={"token": token}, wait_timeout=TIMEOUT_S
        )
    [refused] = refusals
    contract.schema_validator("ConnectError").validate(refused["data"])
    return refused["data"]


def token_of(account: dict) -> str:
    return account["tokenData"]["access_token"]


async def test_a_token_whose_session_stands_opens_the_socket_and_its_user_room(client, connect):
    fan = await sign_up(client)
    socket = await connect(token_of(fan))
    assert (await ask(socket, "join-user-room", {"userId": fan["profile"]["userId"]}))["ok"] is True


async def test_after_logout_the_token_is_refused(client, socket_url):
    fan = await sign_up(client)
    assert (await client.post("/api/user/logout", headers=fan["headers"])).status_code == 200
    assert await refusal(socket_url, token_of(fan)) == {
        "error": True,
        "message": SESSION_ENDED,
        "messageErrorCode": "unauthorized",
    }


async def test_after_the_device_is_removed_its_token_is_refused(client, socket_url, connect):
    phone = await sign_up(client)
    laptop = (await sign_in(client, phone["email"])).json()["content"]
    removed = await client.post(
        "/api/user/delete_device", headers=bearer(token_of(laptop)), json={"deviceId": phone["device_id"]}
    )
    assert removed.status_code == 200, removed.text

    assert (await refusal(socket_url, token_of(phone)))["message"] == SESSION_ENDED
    assert (await connect(token_of(laptop))).connected  # the other device is still signed in


async def test_after_the_account_is_deleted_its_tokens_are_refused(client, socket_url):
    fan = await sign_up(client)
    assert (await client.post("/api/user/delete_account", headers=fan["headers"])).status_code == 200
    assert (await refusal(socket_url, token_of(fan)))["message"] == SESSION_ENDED


async def test_a_signed_token_without_a_session_is_refused(client, settings, socket_url):
    fan = await sign_up(client)
    forged_by_us = issue_access_token(fan["profile"]["userId"], secret=settings.secret_key)  # no `sid`
    assert (await refusal(socket_url, forged_by_us))["messageErrorCode"] == "unauthorized"


async def test_a_connection_whose_session_ends_can_no_longer_join_its_user_room(client, connect):
    fan = await sign_up(client)
    socket = await connect(token_of(fan))
    await client.post("/api/user/logout", headers=fan["headers"])

    ack = await ask(socket, "join-user-room", {"userId": fan["profile"]["userId"]})
    assert ack == {"ok": False, "messageErrorCode": "forbidden", "message": SESSION_ENDED}
    # Leaving is always allowed: it is what the client does on logout.
    assert (await ask(socket, "leave-user-room", {"userId": fan["profile"]["userId"]}))["ok"] is True


async def test_when_sessions_cannot_be_checked_the_handshake_asks_the_client_to_retry(client, settings):
    fan = await sign_up(client)
    unreachable = Database("postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=1")
    sio = create_socket_server(
        SimpleNamespace(redis_url=None, socket_origins=["https://touchline.example"]),
        authenticate=token_authenticator(settings.secret_key, unreachable),
    )
    try:
        async with serving(sio) as url:
            refused = await refusal(url, token_of(fan))
    finally:
        await close_socket_server(sio)
        await unreachable.dispose()
    # Not `unauthorized`: the client must not sign out because our database hiccuped.
    assert refused["messageErrorCode"] == "service_unavailable"
