"""A session's sockets end with it: when a session ends (every way it can), its connections are
disconnected, so they leave the user room and hear no more `user-purchase-status`: at once in the
process that ended it, through Redis in every other one, and within SESSION_SWEEP_SECONDS in any
process that heard nothing (server.realtime.session_rooms).

Accounts are made and ended through the API (the `client` fixture), whose announcements reach the
socket server of each test (the process-wide emitter is bound to it), on SQLite and PostgreSQL.
"""

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import socketio

from server.realtime import emitter
from server.realtime.emitter import Emitter
from server.realtime.session_rooms import SESSION_SWEEP_SECONDS, session_room
from server.realtime.socket import close_socket_server, create_socket_server, start_socket_server, token_authenticator
from server.services import sessions
from server.tests.accounts import sign_in, sign_up
from server.tests.realtime.test_redis_fanout import subscribed
from server.tests.realtime.test_socket import TIMEOUT_S, Inbox, ask, open_client, serving, socket_settings
from server.tests.session_endings import ENDINGS, Context, session_of, user_of

pytestmark = pytest.mark.asyncio(loop_scope="session")

# Where the session ended and with Redis: the announcement, a few milliseconds. A busy machine may
# take seconds to run it; what "at once" is told from is a sweep (an hour, unless a test asks).
AT_ONCE_S = 3.0
PURCHASE = {"purchaseId": "a" * 24, "status": "success", "productId": "b" * 24}


@contextlib.asynccontextmanager
async def socket_server(settings, database, *, sweep: float = 3600, redis_url=None, channel=None):
    """A socket server checking sessions in `database`, served on a free port: (sio, url)."""
    options = {"redis_channel": channel} if channel else {}
    sio = create_socket_server(
        socket_settings(redis_url),
        authenticate=token_authenticator(settings.secret_key, database),
        session_sweep_seconds=sweep,
        **options,
    )
    try:
        await start_socket_server(sio)
        async with serving(sio) as url:
            yield sio, url
    finally:
        await close_socket_server(sio)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def server(settings, database) -> AsyncIterator[tuple[socketio.AsyncServer, str]]:
    """The socket server the API's announcements reach (no sweep: what is seen here is the
    announcement's doing)."""
    async with socket_server(settings, database) as (sio, url):
        previous = emitter.default._target
        emitter.bind(sio)
        try:
            yield sio, url
        finally:
            emitter.bind(previous)


class Watched:
    """A client in its user room, and when it was disconnected."""

    def __init__(self, client: socketio.AsyncClient):
        self.client = client
        self.inbox = Inbox(client)
        self.gone = asyncio.Event()
        client.on("disconnect", lambda *reason: self.gone.set())

    async def disconnected_within(self, seconds: float) -> float:
        started = time.monotonic()
        await asyncio.wait_for(self.gone.wait(), seconds)
        return time.monotonic() - started


async def in_user_room(url: str, account: dict, token: str | None = None) -> Watched:
    watched = Watched(await open_client(url, token=token or account["tokenData"]["access_token"]))
    assert (await ask(watched.client, "join-user-room", {"userId": user_of(account)}))["ok"] is True
    return watched


def members(sio: socketio.AsyncServer, room: str) -> int:
    return len(sio.manager.rooms.get("/", {}).get(room) or ())


@pytest.mark.parametrize("ending", list(ENDINGS), ids=list(ENDINGS))
async def test_an_ended_sessions_socket_is_disconnected_at_once_and_leaves_the_user_room(
    client, api, database, settings, server, ending
):
    sio, url = server
    fan = await sign_up(client)
    phone = await in_user_room(url, fan)
    assert members(sio, session_room(session_of(fan))) == 1

    await ENDINGS[ending](Context(client, api, database, settings), fan)

    await phone.disconnected_within(AT_ONCE_S)
    # Out of every room: nothing sent to the user reaches it any more.
    assert members(sio, f"user:{user_of(fan)}") == 0 and members(sio, session_room(session_of(fan))) == 0


async def test_the_accounts_other_sessions_keep_their_sockets_and_their_messages(client, server):
    sio, url = server
    fan = await sign_up(client)
    laptop = (await sign_in(client, fan["email"], fan["password"])).json()["content"]
    phone, desk = await in_user_room(url, fan), await in_user_room(url, laptop)

    assert (await client.post("/api/user/logout", headers=fan["headers"])).status_code == 200

    await phone.disconnected_within(AT_ONCE_S)
    await emitter.emit_user_purchase_status(
        user_of(fan), purchase_id=PURCHASE["purchaseId"], status="success", product_id=PURCHASE["productId"]
    )
    assert await desk.inbox.next() == ("user-purchase-status", PURCHASE)
    assert desk.client.connected and members(sio, f"user:{user_of(fan)}") == 1
    await desk.client.disconnect()


async def test_an_anonymous_connection_is_in_no_session_room(server):
    sio, url = server
    client = await open_client(url)
    try:
        rooms = sio.manager.rooms.get("/", {})
        assert not any(isinstance(room, str) and room.startswith("session:") for room in rooms)
    finally:
        await client.disconnect()


async def test_a_session_that_ends_without_a_word_is_disconnected_within_the_sweep(client, database, settings):
    """A process that hears nothing (no Redis; or a session revoked by another deployment, or
    just expired) finds out on its next sweep of its connections' sessions."""
    assert SESSION_SWEEP_SECONDS <= 5
    async with socket_server(settings, database, sweep=0.2) as (sio, url):
        fan = await sign_up(client)
        phone = await in_user_room(url, fan)
        async with database.session() as db:  # ended elsewhere: nobody announces it here
            await sessions.revoke_session(db, session_of(fan), reason="logout")
            await db.commit()
        took = await phone.disconnected_within(TIMEOUT_S)
        assert took < 0.2 + AT_ONCE_S < SESSION_SWEEP_SECONDS  # the sweep asked for, not the default one
        assert members(sio, f"user:{user_of(fan)}") == 0


async def test_the_sweep_leaves_standing_sessions_alone(client, database, settings):
    async with socket_server(settings, database, sweep=0.05) as (_sio, url):
        fan = await sign_up(client)
        phone = await in_user_room(url, fan)
        await asyncio.sleep(0.3)  # several sweeps
        assert phone.client.connected and not phone.gone.is_set()
        await phone.client.disconnect()


async def test_with_redis_a_session_ended_on_one_server_is_disconnected_on_another_at_once(
    client, database, settings, redis_server
):
    channel = f"touchline:test:{uuid.uuid4().hex[:12]}"
    async with (
        socket_server(settings, database, redis_url=redis_server.url, channel=channel) as (a, _url_a),
        socket_server(settings, database, redis_url=redis_server.url, channel=channel) as (b, url_b),
    ):
        await subscribed(redis_server.url, channel, 2)
        fan = await sign_up(client)
        phone = await in_user_room(url_b, fan)
        await Emitter(a).end_sessions([session_of(fan)])  # what the API's process does
        await phone.disconnected_within(AT_ONCE_S)
        assert members(b, f"user:{user_of(fan)}") == 0
