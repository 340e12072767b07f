"""The per-process cache of what viewers hold."""

from datetime import timedelta

from server import clock
from server.services.commerce.holdings import EMPTY, Holdings, HoldingsCache

USER = "a" * 24


def test_a_cached_viewer_is_served_until_the_entry_ages_out_on_the_servers_clock():
    cache = HoldingsCache(2.0)
    held = Holdings(event_ids=frozenset({"e" * 24}))
    cache.put(USER, held)
    assert cache.get(USER) is held
    clock.advance(timedelta(seconds=3))
    assert cache.get(USER) is None


def test_forgetting_a_viewer_drops_their_entry_at_once():
    cache = HoldingsCache(60.0)
    cache.put(USER, EMPTY)
    cache.forget(USER)
    assert cache.get(USER) is None


def test_a_zero_lifetime_turns_the_cache_off():
    cache = HoldingsCache(0)
    cache.put(USER, EMPTY)
    assert cache.get(USER) is None
