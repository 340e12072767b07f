"""Watching a socket room as staff, for `touchline socket watch` and the console's Live screen.

    async with RoomWatch(client, "event:<id>") as messages:
        async for message in messages:  # RoomMessage(event, data, at) until the socket closes
            ...

It connects to the server's socket (/ws) with the staff account's access token and sends the
staff-only `watch-room` message (asyncapi/asyncapi.yaml); leaving the block disconnects. An API
key cannot sign in to the socket, so a client using one is refused before connecting. Failures
raise AdminApiError (as the admin API's do), with `code` saying which."""

import asyncio
import json
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, NamedTuple

import socketio

from .admin_client import AdminApiError, AdminClient

WATCH_TIMEOUT_S = 15.0
API_KEY_CANNOT_WATCH = (
    "Watching a room signs in to the socket with a staff account's token, which an API key is not: "
    "run `touchline login` or set TOUCHLINE_STAFF_EMAIL and TOUCHLINE_STAFF_PASSWORD"
)


class RoomMessage(NamedTuple):
    event: str
    data: Any
    at: str  # when it arrived, e.g. 2026-11-24T18:02:11Z


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class RoomWatch:
    """The messages `room` receives, from entering the block until the socket closes."""

    def __init__(self, client: AdminClient, room: str, timeout: float = WATCH_TIMEOUT_S):
        self.client = client
        self.room = room
        self.timeout = timeout
        # None marks the end: the socket closed.
        self._inbox: asyncio.Queue[RoomMessage | None] = asyncio.Queue()
        self._sio = socketio.AsyncClient(reconnection=False)
        self._sio.on("*", lambda event, data=None: self._inbox.put_nowait(RoomMessage(event, data, _now())))
        self._sio.on("disconnect", lambda *args: self._inbox.put_nowait(None))

    async def __aenter__(self) -> "RoomWatch":
        if self.client.api_key:
            raise AdminApiError(API_KEY_CANNOT_WATCH, "api_key_cannot_watch")
        await self._check_staff()
        await self._connect()
        try:
            await self._watch()
        except BaseException:
            await self._disconnect()
            raise
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self._disconnect()

    def __aiter__(self) -> "RoomWatch":
        return self

    async def __anext__(self) -> RoomMessage:
        message = await self._inbox.get()
        if message is None:
            raise AdminApiError(
                "The server closed the socket (the sign-in ended, the account lost its staff role, "
                "or the server stopped)",
                "socket_closed",
            )
        return message

    async def _check_staff(self) -> None:
        """A staff call before the socket: it signs in (or refreshes a stored sign-in) and checks the
        account is staff."""
        await self.client.get("/admin/outbox", {"size": 1})

    async def _connect(self) -> None:
        try:
            await self._sio.connect(
                self.client.base_url,
                transports=["websocket"],
                socketio_path="ws",
                auth={"token": self.client.token},
                wait_timeout=self.timeout,
            )
        except socketio.exceptions.ConnectionError as exc:
            raise AdminApiError(
                f"Cannot open the socket of {self.client.base_url}: {exc}", "socket_unreachable"
            ) from None

    async def _watch(self) -> None:
        try:
            ack = await self._sio.call("watch-room", {"room": self.room}, timeout=self.timeout)
        except socketio.exceptions.TimeoutError:
            raise AdminApiError(
                f"The server did not answer watch-room within {self.timeout:.0f} s", "socket_timeout"
            ) from None
        answer = json.loads(ack) if isinstance(ack, str) else {}
        if not answer.get("ok"):
            raise AdminApiError(
                answer.get("message", "The server refused to watch"), answer.get("messageErrorCode") or "refused"
            )

    async def _disconnect(self) -> None:
        if self._sio.connected:
            await self._sio.disconnect()
