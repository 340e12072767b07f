"""Signals every server process must hear, such as "the catalogue changed: drop your cached
answers", carried as the closing of a reserved room.

Closing a room is the one thing python-socketio's managers already tell every process, in
order, on the same Redis channel as the messages (server.realtime.fanout); without Redis there
is one process and closing is local (server.realtime.session_rooms.LocalManager). Both call
`heard()` for every room that closes, here or elsewhere. No socket is ever in a signal room,
and asyncapi/asyncapi.yaml names none: clients cannot join them.

What a process misses while it is not subscribed to Redis, it does not hear: the anonymous
cache's TTL (TOUCHLINE_CATALOGUE_CACHE_SECONDS) bounds how stale it can be then.
"""

import logging
from collections import defaultdict
from collections.abc import Callable

log = logging.getLogger(__name__)

PREFIX = "touchline:"
CATALOGUE_CHANGED = f"{PREFIX}catalogue-changed"

_listeners: defaultdict[str, list[Callable[[], None]]] = defaultdict(list)


def listen(signal: str, callback: Callable[[], None]) -> None:
    """Call `callback` in this process whenever `signal` is raised by any process."""
    if callback not in _listeners[signal]:
        _listeners[signal].append(callback)


def is_signal(room: object) -> bool:
    return isinstance(room, str) and room.startswith(PREFIX)


def heard(room: object) -> bool:
    """Run the listeners of a signal room that closed; False for any other room."""
    if not is_signal(room):
        return False
    for callback in list(_listeners.get(str(room), ())):
        try:
            callback()
        except Exception:  # one listener's failure must not keep the others from hearing it
            log.exception("signal %s: a listener failed", room)
    return True
