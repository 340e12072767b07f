"""Watching rooms without a line in the audit log, for what the console watches by itself.

RoomWatch (cli/room_watch.py) makes a staff call before it opens the socket, to sign in (or
refresh a stored sign-in) and to check the account is staff: a read of the outbox, which the
contract marks `x-touchline-audit: read`, so the audit log says this staff member read mail.
That is fair when staff ask to watch a room; the dashboard watches the live events' `qoe:` rooms
by itself at every opening, and the log would fill with mail its staff never read. QuietRoomsWatch
makes its staff call with the events' list instead, which is not audited."""

from ..admin_client import AdminApiError
from ..room_watch import API_KEY_CANNOT_WATCH
from .rooms import RoomsWatch


class QuietRoomsWatch(RoomsWatch):
    async def __aenter__(self) -> "QuietRoomsWatch":
        if self.client.api_key:
            raise AdminApiError(API_KEY_CANNOT_WATCH, "api_key_cannot_watch")
        await self.client.get("/admin/events", {"size": 1})
        await self._connect()
        try:
            await self._watch()
        except BaseException:
            await self._disconnect()
            raise
        return self
