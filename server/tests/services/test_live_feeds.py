"""What a feed's first segments do to an upcoming event (server.services.live_feeds.on_air): it goes
live near kickoff, or whenever staff armed it, and stays a preview when they turned auto-start off."""

from datetime import timedelta

import pytest

from server import clock
from server.models import Event
from server.services import event_admin, live_feeds
from server.tests import factories
from server.tests.commerce import CREATED

AUTOSTART_MINUTES = 30


async def upcoming_with_a_feed(database, settings, *, kickoff_in: timedelta, autostart: bool | None) -> tuple[str, str]:
    async with database.session() as db:
        event = factories.event(db, "Feed test", status="upcoming", when=clock.now() + kickoff_in)
        await db.commit()
    CREATED.append((database, event.id))
    async with database.write_session() as db:
        await live_feeds.set_ingest_settings(db, event.id, {"autostart": autostart})
    async with database.write_session() as db:
        asset, continued = await live_feeds.open_recording(db, event_admin.Media.of(settings).store, event.id)
    assert not continued
    return event.id, asset.id


async def status_after_first_segments(database, event_id: str, asset_id: str) -> str:
    async with database.write_session() as db:
        await live_feeds.on_air(db, asset_id, started_at=clock.now(), autostart_minutes=AUTOSTART_MINUTES)
    async with database.session() as db:
        event = await db.get(Event, event_id)
        assert event is not None
        return event.status


@pytest.mark.parametrize(
    ("kickoff_in", "autostart", "status"),
    [
        (timedelta(minutes=10), None, "live"),  # near kickoff: the rule
        (timedelta(hours=5), None, "upcoming"),  # far from it: a staff preview
        (timedelta(hours=5), True, "live"),  # armed: live whenever the feed comes
        (timedelta(minutes=10), False, "upcoming"),  # turned off: a preview even at kickoff
    ],
    ids=["near-kickoff", "far-from-kickoff", "armed", "turned-off"],
)
async def test_first_segments_put_an_upcoming_event_live_by_the_kickoff_rule_or_staffs_choice(
    database, settings, kickoff_in, autostart, status
):
    event_id, asset_id = await upcoming_with_a_feed(database, settings, kickoff_in=kickoff_in, autostart=autostart)
    assert await status_after_first_segments(database, event_id, asset_id) == status


async def test_an_events_own_rewind_window_wins_over_the_setting(database, settings):
    event_id, _ = await upcoming_with_a_feed(database, settings, kickoff_in=timedelta(hours=1), autostart=None)
    async with database.write_session() as db:
        event = await live_feeds.set_ingest_settings(db, event_id, {"dvr_seconds": 900})
    assert live_feeds.dvr_seconds_of(event, 7200) == 900
    async with database.write_session() as db:
        event = await live_feeds.set_ingest_settings(db, event_id, {"dvr_seconds": None})
    assert live_feeds.dvr_seconds_of(event, 7200) == 7200
