"""What one client may hold on the socket (issue 26 §8): connections per client address (the
forwarded one behind a proxy, as REST counts it) and rooms per connection, refused with the
documented codes; and the rooms' bookkeeping back to its size once the sockets have left."""

import asyncio
import sys
from types import SimpleNamespace
from typing import Any

import pytest
import socketio

from server.realtime import census, contract
from server.realtime.room_book import COMPACT_FROM
from server.realtime.socket import (
    SocketUser,
    caps_of,
    close_socket_server,
    create_socket_server,
    start_socket_server,
)
from server.tests.realtime.test_socket import PAGE_ORIGIN, TIMEOUT_S, ask, open_client, serving

pytestmark = pytest.mark.asyncio(loop_scope="session")

NAMESPACE = "/"


def capped(connections: int = 20, rooms: int = 50) -> SimpleNamespace:
    return SimpleNamespace(
        redis_url=None,
        socket_origins=[PAGE_ORIGIN],
        socket_connections_per_address=connections,
        socket_rooms_per_connection=rooms,
    )


def event_id(n: int) -> str:
    return f"{n:024x}"


async def refused(url: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    client = socketio.AsyncClient(reconnection=False)
    refusals: list[Any] = []
    client.on("connect_error", refusals.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(
            url, transports=["websocket"], socketio_path="ws", headers=headers or {}, wait_timeout=TIMEOUT_S
        )
    [refusal] = refusals
    contract.schema_validator("ConnectError").validate(refusal["data"])
    return refusal["data"]


class Server:
    def __init__(self, settings: SimpleNamespace, authenticate: Any = None):
        self.sio = create_socket_server(settings, authenticate=authenticate)
        self.clients: list[socketio.AsyncClient] = []

    async def __aenter__(self) -> "Server":
        await start_socket_server(self.sio)
        self._serving = serving(self.sio)
        self.url = await self._serving.__aenter__()
        return self

    async def connect(self, **options: Any) -> socketio.AsyncClient:
        client = await open_client(self.url, **options)
        self.clients.append(client)
        return client

    async def __aexit__(self, *exc: Any) -> None:
        for client in self.clients:
            await client.disconnect()
        await self._serving.__aexit__(*exc)
        await close_socket_server(self.sio)


def forwarded(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def test_one_client_address_gets_at_most_its_connections_and_then_a_clear_refusal():
    async with Server(capped(connections=3)) as server:
        first = await server.connect(headers=forwarded("203.0.113.7"))
        for _ in range(2):
            await server.connect(headers=forwarded("203.0.113.7"))

        assert await refused(server.url, forwarded("203.0.113.7")) == {
            "error": True,
            "message": "Too many connections from your address; close some and try again later",
            "messageErrorCode": "too_many_connections",
        }
        # Another address behind the same proxy has its own budget; a closed connection frees one.
        assert (await server.connect(headers=forwarded("198.51.100.9"))).connected
        await first.disconnect()
        await asyncio.sleep(0.2)
        assert (await server.connect(headers=forwarded("203.0.113.7"))).connected


async def test_a_connection_may_be_in_at_most_its_rooms():
    async with Server(capped(rooms=3)) as server:
        client = await server.connect()
        for n in range(3):
            assert (await ask(client, "join-event-room", {"eventId": event_id(n)}))["ok"] is True

        assert await ask(client, "join-event-room", {"eventId": event_id(3)}) == {
            "ok": False,
            "messageErrorCode": "too_many_rooms",
            "message": "This connection is in too many rooms; leave one first",
        }
        assert (await ask(client, "join-event-room", {"eventId": event_id(0)}))["ok"] is True  # already in it
        assert (await ask(client, "leave-event-room", {"eventId": event_id(0)}))["ok"] is True
        assert (await ask(client, "join-event-room", {"eventId": event_id(3)}))["ok"] is True
        rooms = server.sio.manager.rooms[NAMESPACE]
        assert f"event:{event_id(3)}" in rooms and f"event:{event_id(0)}" not in rooms


def bookkeeping(sio: socketio.AsyncServer) -> dict[str, Any]:
    rooms = sio.manager.rooms.get(NAMESPACE, {})
    return {
        "rooms": len(rooms),
        "census": census.local(sio),
        "caps": caps_of(sio).entries(),
        "connections": len(sio.eio.sockets),
        "environ": len(sio.environ),
    }


async def test_the_rooms_bookkeeping_returns_to_its_size_once_the_sockets_have_left():
    async with Server(capped(connections=0, rooms=20)) as server:
        staying = await server.connect()
        assert (await ask(staying, "join-event-room", {"eventId": event_id(0)}))["ok"] is True
        before = bookkeeping(server.sio)

        clients = [await server.connect() for _ in range(50)]

        async def join(n: int, client: socketio.AsyncClient) -> None:
            for room in range(20):
                ack = await ask(client, "join-event-room", {"eventId": event_id(1 + n * 20 + room)})
                assert ack["ok"] is True

        await asyncio.gather(*(join(n, c) for n, c in enumerate(clients)))
        assert bookkeeping(server.sio)["rooms"] > 1000
        for client in clients:
            await client.disconnect()
        for _ in range(100):
            if len(server.sio.eio.sockets) == 1:
                break
            await asyncio.sleep(0.05)

        assert bookkeeping(server.sio) == before
        # The namespace's dict of rooms is sized for the rooms left, not for the thousand it held.
        left = server.sio.manager.rooms[NAMESPACE]
        assert sys.getsizeof(left) <= sys.getsizeof(dict.fromkeys(range(COMPACT_FROM)))


class SlowSessionCheck:
    """Lets every handshake in; a join's check of the session (or a watch's of the role) waits
    until the test answers it."""

    def __init__(self) -> None:
        self.checking = asyncio.Event()
        self.answer = asyncio.Event()

    async def __call__(self, token: str) -> SocketUser:
        return SocketUser(token, "session-1")

    async def session_alive(self, user: SocketUser) -> bool:
        self.checking.set()
        await self.answer.wait()
        return True

    async def current_role(self, user: SocketUser) -> str:
        await self.session_alive(user)
        return "support"


@pytest.mark.parametrize(
    "message",
    [("join-user-room", {"userId": event_id(7)}), ("watch-room", {"room": f"event:{event_id(8)}"})],
    ids=["join-user-room", "watch-room"],
)
async def test_a_connection_that_hangs_up_during_its_join_leaves_no_room_or_count_behind(message):
    check = SlowSessionCheck()
    async with Server(capped(), authenticate=check) as server:
        before = bookkeeping(server.sio)
        client = await open_client(server.url, token=event_id(7))
        await client.emit(*message)
        await asyncio.wait_for(check.checking.wait(), TIMEOUT_S)
        await client.disconnect()
        for _ in range(100):
            if not server.sio.eio.sockets:
                break
            await asyncio.sleep(0.05)

        check.answer.set()  # the join goes on after the hang-up
        await asyncio.sleep(0.2)

        assert bookkeeping(server.sio) == before
