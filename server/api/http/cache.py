"""A short-lived cache of public catalogue answers, shared by every anonymous viewer.

The catalogue changes rarely and every viewer of a page asks the same question, so one answer
can serve all of them for a moment (a CDN would do the same in front of us). Only answers
for anonymous viewers are kept (one per region): signed-in viewers' answers carry their own
entitlements.
Staleness is bounded by the TTL; every cache of every process is emptied at once when any
process writes to the catalogue (`clear_all`, run on a signal: server.realtime.signals). Each app
has its own cache (in `request.state.cache`).
"""

import asyncio
import functools
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from cachetools import TTLCache
from connexion import request

from ...realtime import signals
from .context import bind_viewer

MAX_ENTRIES = 4096
# Every cache of this process, for writes made outside a request (background jobs): clear_all().
_caches: "weakref.WeakSet[ResponseCache]" = weakref.WeakSet()


class ResponseCache:
    def __init__(self, ttl_seconds: float, max_entries: int = MAX_ENTRIES):
        self.enabled = ttl_seconds > 0
        self._entries: TTLCache = TTLCache(maxsize=max_entries, ttl=ttl_seconds if self.enabled else 1)
        self.hits = 0
        self.misses = 0  # answers computed
        self.coalesced = 0  # askers who waited for another's computation
        # Misses being computed right now: later askers of the same key wait for that answer
        # instead of all querying the database when a popular entry expires.
        self.inflight: dict[bytes, asyncio.Future] = {}
        _caches.add(self)

    def get(self, key: bytes) -> Any | None:
        value = self._entries.get(key)
        if value is not None:
            self.hits += 1
        return value

    def put(self, key: bytes, value: Any) -> None:
        if self.enabled:
            self._entries[key] = value

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


def clear_all() -> None:
    """Empty every response cache of this process. Any process's catalogue write reaches here as
    a signal (server.realtime.announcements.announce_catalogue_changed)."""
    for cache in list(_caches):
        cache.clear()


signals.listen(signals.CATALOGUE_CHANGED, clear_all)


def _key(operation: str, arguments: dict) -> bytes:
    return operation.encode() + b"\0" + orjson.dumps(arguments, option=orjson.OPT_SORT_KEYS)


def cached_for_anonymous(handler: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Serve a read-only handler's answer from the cache for anonymous viewers.

    Errors are not cached (they raise, for every waiter); the keyword arguments are the key.
    """

    @functools.wraps(handler)
    async def cached(**arguments):
        current = await bind_viewer()
        cache: ResponseCache | None = getattr(request.state, "cache", None)
        if cache is None or not cache.enabled or current.signed_in:
            return await handler(**arguments)
        # Anonymous answers differ only by region (availability, stream URLs).
        key = _key(handler.__name__, {**arguments, "\0region": current.region})
        answer = cache.get(key)
        if answer is not None:
            return answer
        pending = cache.inflight.get(key)
        if pending is not None:
            cache.coalesced += 1
            return await asyncio.shield(pending)
        cache.misses += 1
        pending = cache.inflight[key] = asyncio.get_running_loop().create_future()
        try:
            answer = await handler(**arguments)
        except BaseException as exc:
            pending.set_exception(exc)
            pending.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del cache.inflight[key]
        cache.put(key, answer)
        pending.set_result(answer)
        return answer

    return cached
