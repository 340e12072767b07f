"""A short-lived cache of public catalogue answers, shared by every anonymous viewer.

The catalogue changes rarely and every viewer of a page asks the same question, so one answer
can serve all of them for a moment (a CDN would do the same in front of us). Only answers
for anonymous viewers are kept (one per region): signed-in viewers' answers carry their own
entitlements, so for the hottest reads the rows every viewer shares are kept instead and each
signed-in answer is built from them plus the viewer's own fields (`shared_with_overlay`).
Staleness is bounded by the TTL; every cache of every process is emptied at once when any
process writes to the catalogue (`clear_all`, run on a signal: server.realtime.signals). Each app
has its own cache (in `request.state.cache`).
"""

import functools
import inspect
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from cachetools import TTLCache

from ...realtime import signals
from ...services import event_views
from ...services.spoilers import SHOW
from ...single_flight import SingleFlight
from .context import bind_viewer, state

MAX_ENTRIES = 4096
# Every cache of this process, for writes made outside a request (background jobs): clear_all().
_caches: "weakref.WeakSet[ResponseCache]" = weakref.WeakSet()


class ResponseCache:
    def __init__(self, ttl_seconds: float, max_entries: int = MAX_ENTRIES, *, with_rows: bool = True):
        self.enabled = ttl_seconds > 0
        # The rows behind answers, shared by every viewer (`shared_with_overlay`): same TTL, same
        # clearing, counted apart from the answers.
        self.rows: ResponseCache | None = None
        if with_rows:
            self.rows = ResponseCache(ttl_seconds, max_entries, with_rows=False)
        self._entries: TTLCache = TTLCache(maxsize=max_entries, ttl=ttl_seconds if self.enabled else 1)
        self.hits = 0
        self.misses = 0  # answers computed
        # Misses being computed right now: later askers of the same key wait for that answer
        # instead of all querying the database when a popular entry expires.
        self.inflight: SingleFlight[Any] = SingleFlight()
        _caches.add(self)

    @property
    def coalesced(self) -> int:
        """Askers who waited for another's computation."""
        return self.inflight.joined

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
        if self.rows is not None:
            self.rows.clear()

    def __len__(self) -> int:
        return len(self._entries)


def clear_all() -> None:
    """Empty every response cache of this process. Any process's catalogue write reaches here as
    a signal (server.realtime.announcements.announce_catalogue_changed)."""
    for cache in list(_caches):
        cache.clear()
    event_views.clear_all()


signals.listen(signals.CATALOGUE_CHANGED, clear_all)


def _key(operation: str, arguments: dict) -> bytes:
    return operation.encode() + b"\0" + orjson.dumps(arguments, option=orjson.OPT_SORT_KEYS)


async def _computed(cache: ResponseCache, key: bytes, compute: Callable[[], Awaitable[Any]]) -> Any:
    """The cached value of `key`, else `compute()`'s, computed once however many ask at the same
    time (errors are not cached: they raise for every waiter)."""
    value = cache.get(key)
    if value is not None:
        return value

    async def computed() -> Any:
        cache.misses += 1
        value = await compute()
        cache.put(key, value)
        return value

    return await cache.inflight.run(key, computed)


def _cache() -> ResponseCache | None:
    cache: ResponseCache | None = state("cache")
    return cache if cache is not None and cache.enabled else None


def cached_for_anonymous(handler: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Serve a read-only handler's answer from the cache for anonymous viewers.

    Errors are not cached (they raise, for every waiter); the keyword arguments are the key.
    """

    @functools.wraps(handler)
    async def cached(**arguments):
        current = await bind_viewer()
        cache = _cache()
        if cache is None or current.signed_in:
            return await handler(**arguments)
        # Anonymous answers differ only by region (availability, stream URLs).
        key = _key(handler.__name__, {**arguments, "\0region": current.region})
        return await _computed(cache, key, lambda: handler(**arguments))

    return cached


def shared_with_overlay(present: Callable[..., Any]) -> Callable[[Callable[..., Awaitable[Any]]], Any]:
    """A catalogue read in two parts, for the reads signed-in viewers make at kickoff.

    The decorated handler fetches what every viewer shares (rows that depend on its arguments
    alone); that is cached by its arguments for everyone. `present(rows, spoilers)` adds what is
    one viewer's own (access, region, signed stream URLs) and runs per request for signed-in
    viewers; anonymous viewers get a cached presented answer per region and `spoilers`, as with
    `cached_for_anonymous`. The cached rows are never changed after the query: `present` only
    reads them.

    The handler declares the contract's `spoilers` flag (whether the answer carries scores:
    server.services.spoilers), which is how Connexion knows to pass it; only `present` reads it,
    so it is taken out of the query's arguments and both modes share the rows.
    """

    def decorate(query: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        if "spoilers" not in inspect.signature(query).parameters:
            raise TypeError(f"{query.__name__} must take the contract's `spoilers` flag")

        @functools.wraps(query)
        async def handler(**arguments):
            spoilers = arguments.pop("spoilers", SHOW)
            current = await bind_viewer()
            cache = _cache()
            if cache is None:
                return present(await query(**arguments), spoilers)

            async def rows() -> Any:
                shared = cache.rows if cache.rows is not None else cache
                return await _computed(shared, _key(query.__name__, arguments), lambda: query(**arguments))

            if current.signed_in:
                return present(await rows(), spoilers)

            async def answer() -> Any:
                return present(await rows(), spoilers)

            key = _key(query.__name__, {**arguments, "\0region": current.region, "\0spoilers": spoilers})
            return await _computed(cache, key, answer)

        return handler

    return decorate
