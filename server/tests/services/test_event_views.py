"""Event views are rebuilt when their row changes and reused while it does not."""

from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from server.api.http.cache import clear_all
from server.models import Event, Team
from server.services import event_views
from server.services.event_views import StampedCache
from server.services.events import EventFilters, Sort, get_event, list_events
from server.services.paging import PageQuery

T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def test_a_value_is_found_only_at_the_stamp_it_was_built_at():
    cache: StampedCache[str] = StampedCache()
    cache.put("e1", T0, "view at T0")

    assert cache.get("e1", T0) == "view at T0"
    assert cache.get("e1", T0 + timedelta(microseconds=1)) is None
    assert cache.get("e2", T0) is None
    assert (cache.hits, cache.misses) == (1, 2)


def test_an_entry_lives_at_most_its_ttl():
    cache: StampedCache[str] = StampedCache(ttl_seconds=0.000001)
    cache.put("e1", T0, "view")
    assert cache.get("e1", T0) is None


async def read(database, event_id: str):
    async with database.read_session() as db:
        return await get_event(db, event_id)


async def test_an_unchanged_event_is_built_once_and_reused(database, catalogue):
    clear_all()
    first = await read(database, catalogue["live"])
    again = await read(database, catalogue["live"])
    assert again is first  # the same view: neither rows nor wire form built again


async def test_a_changed_event_is_read_afresh_even_with_its_view_built(database, catalogue):
    clear_all()
    before = await read(database, catalogue["upcoming"])
    async with database.session() as db:  # a write from anywhere: it moves `updated`
        await db.execute(update(Event).where(Event.id == catalogue["upcoming"]).values(title="Renamed derby"))
        await db.commit()
    try:
        after = await read(database, catalogue["upcoming"])
        assert after.event.title == "Renamed derby"
        assert after.event.updated > before.event.updated

        async with database.read_session() as db:
            page = await list_events(db, EventFilters(media_types=("event",)), Sort("title", False), PageQuery(0, 50))
        assert "Renamed derby" in [view.event.title for view in page.entries]
    finally:
        async with database.session() as db:
            await db.execute(update(Event).where(Event.id == catalogue["upcoming"]).values(title=before.event.title))
            await db.commit()


async def test_a_team_change_shows_once_the_catalogue_changed_signal_clears_the_views(database, catalogue):
    clear_all()
    before = await read(database, catalogue["live"])
    async with database.session() as db:  # teams carry no stamp on the event
        await db.execute(update(Team).where(Team.id == catalogue["mariners"]).values(name="Harbour Mariners"))
        await db.commit()
    try:
        assert (await read(database, catalogue["live"])).home.name == before.home.name
        clear_all()  # what the catalogue-changed signal runs in every process
        assert (await read(database, catalogue["live"])).home.name == "Harbour Mariners"
    finally:
        async with database.session() as db:
            await db.execute(update(Team).where(Team.id == catalogue["mariners"]).values(name=before.home.name))
            await db.commit()
        clear_all()


def test_clear_all_empties_every_databases_cache():
    for url in ("sqlite:///a.db", "sqlite:///b.db"):
        event_views.cache_for(url).put("e1", T0, "view")
    event_views.clear_all()
    assert all(event_views.cache_for(url).get("e1", T0) is None for url in ("sqlite:///a.db", "sqlite:///b.db"))
