"""Watching several rooms on one socket, for the screens that follow many events at once (the
media library's jobs: cli/tui/media_jobs.py).

    async with RoomsWatch(client, ["media:<id>", "media:<id>"]) as messages:
        async for message in messages:  # RoomMessage(event, data, at), from any of the rooms
            ...

It is RoomWatch (cli/room_watch.py) sending one `watch-room` per room on the same connection:
the server lets a client address hold few connections but a connection many rooms. At most
MAX_ROOMS are asked for (the server's default cap, `rooms_per_connection`); a server capped lower
answers `too_many_rooms` past its cap, and the rooms taken until then stay watched (`rooms`):
the screens refresh the others slowly instead of failing the whole watch."""

from collections.abc import Sequence

from ..admin_client import AdminApiError, AdminClient
from ..room_watch import WATCH_TIMEOUT_S, RoomWatch

# server/realtime/caps.py's DEFAULT_ROOMS_PER_CONNECTION: more are never asked for.
MAX_ROOMS = 50
TOO_MANY_ROOMS = "too_many_rooms"


class RoomsWatch(RoomWatch):
    """The messages `rooms` receive (at most MAX_ROOMS of them), from entering the block until the
    socket closes."""

    def __init__(self, client: AdminClient, rooms: Sequence[str], timeout: float = WATCH_TIMEOUT_S):
        if not rooms:
            raise ValueError("RoomsWatch needs at least one room")
        super().__init__(client, rooms[0], timeout)
        self.rooms = tuple(rooms[:MAX_ROOMS])

    async def _watch(self) -> None:
        for index, room in enumerate(self.rooms):
            self.room = room
            try:
                await super()._watch()
            except AdminApiError as error:
                if error.code != TOO_MANY_ROOMS or index == 0:
                    raise
                self.rooms = self.rooms[:index]
                return
