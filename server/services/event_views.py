"""Built event views, reused for as long as their row is unchanged.

Building an event's view (its row, teams and league as ORM objects) and its wire form costs more
than finding which events a page shows. So catalogue reads first ask the database for the page's
ids and `updated` stamps, which every write of an event moves (server.models.base, and
event_admin when links change), and build only the views this process has not built at that
stamp. Every read still asks the database: a new filter, a cache miss of the answer cache
(`TOUCHLINE_CATALOGUE_CACHE_SECONDS=0` included) gets today's rows; what is reused is the work of
turning an unchanged row into its answer.

Teams and leagues are not stamped on the event: their changes come with a catalogue-changed
signal, which empties these caches in every process (`clear_all`, run by the API layer next to
the answer caches), and an entry lives at most ENTRY_TTL_S in case a signal is lost.
"""

from collections.abc import Hashable
from datetime import datetime
from typing import Generic, TypeVar

from cachetools import TTLCache

V = TypeVar("V")

MAX_ENTRIES = 5000
ENTRY_TTL_S = 60.0


class StampedCache(Generic[V]):
    """Values by key, each valid only for the stamp it was built at."""

    def __init__(self, max_entries: int = MAX_ENTRIES, ttl_seconds: float = ENTRY_TTL_S):
        self._entries: TTLCache[Hashable, tuple[datetime, V]] = TTLCache(maxsize=max_entries, ttl=ttl_seconds)
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, stamp: datetime) -> V | None:
        entry = self._entries.get(key)
        if entry is None or entry[0] != stamp:
            self.misses += 1
            return None
        self.hits += 1
        return entry[1]

    def put(self, key: Hashable, stamp: datetime, value: V) -> None:
        self._entries[key] = (stamp, value)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


# One cache per database (by URL): tests and benchmarks run several in one process.
_caches: dict[str, StampedCache] = {}


def cache_for(database: str) -> StampedCache:
    cache = _caches.get(database)
    if cache is None:
        cache = _caches[database] = StampedCache()
    return cache


def clear_all() -> None:
    for cache in _caches.values():
        cache.clear()
