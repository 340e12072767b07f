"""What one client may hold on the socket: connections per client address, rooms per connection.

Without caps one client could open sockets and join rooms until the process runs out of memory
(issue 26 §8: 150 sockets from one address in 0.3 s; 50 sockets x 4,000 rooms). A handshake over
`connections_per_address` is refused with `too_many_connections`; a join (`join-event-room`,
`join-user-room`, `watch-room`) that would put a connection in more than `rooms_per_connection`
rooms is answered `too_many_rooms` (asyncapi/asyncapi.yaml). The rooms the server puts a
connection in itself (its session's, a watcher's) do not count.

The client address is the one REST sees (`scope["client"]`, which uvicorn takes from
X-Forwarded-For when the peer is a proxy of TOUCHLINE_FORWARDED_ALLOW_IPS). The counts are this
process's: behind a balancer each process caps what it holds.

Everything here is per connection and dropped when it disconnects (`forget`): an address
without connections and a connection that is gone leave no entry behind.
"""

from typing import Any

DEFAULT_CONNECTIONS_PER_ADDRESS = 20
DEFAULT_ROOMS_PER_CONNECTION = 50
TOO_MANY_CONNECTIONS = "too_many_connections"
TOO_MANY_ROOMS = "too_many_rooms"


def client_address(environ: dict[str, Any]) -> str:
    """The handshake's client address, as REST's (Engine.IO's REMOTE_ADDR is always 127.0.0.1)."""
    client = (environ.get("asgi.scope") or {}).get("client")
    return str(client[0]) if client else "unknown"


class SocketCaps:
    """This process's connections per address and rooms per connection, against their caps
    (`connections_per_address` 0: no cap)."""

    def __init__(
        self,
        connections_per_address: int = DEFAULT_CONNECTIONS_PER_ADDRESS,
        rooms_per_connection: int = DEFAULT_ROOMS_PER_CONNECTION,
    ):
        self.connections_per_address = connections_per_address
        self.rooms_per_connection = rooms_per_connection
        self._connections: dict[str, int] = {}  # address -> open connections
        self._address_of: dict[str, str] = {}  # sid -> address
        self._rooms: dict[str, set[str]] = {}  # sid -> rooms it joined

    def admit(self, sid: str, address: str) -> bool:
        """Count a new connection from `address`; False (and nothing counted) over the cap."""
        open_now = self._connections.get(address, 0)
        if self.connections_per_address and open_now >= self.connections_per_address:
            return False
        self._connections[address] = open_now + 1
        self._address_of[sid] = address
        return True

    def join(self, sid: str, room: str) -> bool:
        """Count `room` for `sid`; False (and nothing counted) when it would be one too many."""
        rooms = self._rooms.setdefault(sid, set())
        if room not in rooms and len(rooms) >= self.rooms_per_connection:
            if not rooms:
                del self._rooms[sid]
            return False
        rooms.add(room)
        return True

    def leave(self, sid: str, room: str) -> None:
        rooms = self._rooms.get(sid)
        if rooms is not None:
            rooms.discard(room)
            if not rooms:
                del self._rooms[sid]

    def forget(self, sid: str) -> None:
        """The connection is gone: nothing of it stays."""
        self._rooms.pop(sid, None)
        address = self._address_of.pop(sid, None)
        if address is None:
            return
        left = self._connections.get(address, 1) - 1
        if left > 0:
            self._connections[address] = left
        else:
            self._connections.pop(address, None)

    def entries(self) -> int:
        """How many entries the bookkeeping holds (0 once every connection has gone)."""
        return len(self._connections) + len(self._address_of) + len(self._rooms)


def from_settings(settings: Any) -> SocketCaps:
    return SocketCaps(
        getattr(settings, "socket_connections_per_address", DEFAULT_CONNECTIONS_PER_ADDRESS),
        getattr(settings, "socket_rooms_per_connection", DEFAULT_ROOMS_PER_CONNECTION),
    )
