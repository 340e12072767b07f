"""What a feed's first segments do to an upcoming event (server.services.live_feeds.on_air): it goes
live near kickoff, or whenever staff armed it, and stays a preview when they turned auto-start off."""

from datetime import timedelta

import pytest

from server import clock
from server.media.delivery.live_recordings import LiveRecordings
from server.media.recordings import RECORDING_FILE, RecordingInfo, write_atomically
from server.models import Event
from server.services import event_admin, live_feeds
from server.tests import factories
from server.tests.commerce import CREATED

AUTOSTART_MINUTES = 30


def where(settings) -> dict:
    """Where set_ingest_settings finds a running recording, and the rewind it falls back to."""
    return {"store": event_admin.Media.of(settings).store, "dvr_default": 7200}


async def upcoming_with_a_feed(database, settings, *, kickoff_in: timedelta, autostart: bool | None) -> tuple[str, str]:
    async with database.session() as db:
        event = factories.event(db, "Feed test", status="upcoming", when=clock.now() + kickoff_in)
        await db.commit()
    CREATED.append((database, event.id))
    async with database.write_session() as db:
        await live_feeds.set_ingest_settings(db, event.id, {"autostart": autostart}, **where(settings))
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
        event = await live_feeds.set_ingest_settings(db, event_id, {"dvr_seconds": 900}, **where(settings))
    assert live_feeds.dvr_seconds_of(event, 7200) == 900
    async with database.write_session() as db:
        event = await live_feeds.set_ingest_settings(db, event_id, {"dvr_seconds": None}, **where(settings))
    assert live_feeds.dvr_seconds_of(event, 7200) == 7200


async def test_a_new_rewind_window_cuts_the_running_recordings_next_live_playlist(database, settings):
    event_id, asset_id = await upcoming_with_a_feed(database, settings, kickoff_in=timedelta(hours=1), autostart=None)
    directory = event_admin.Media.of(settings).store.directory(asset_id)
    renditions = ({"name": "360p", "width": 640, "height": 360, "fps": 25.0, "video_kbps": 800, "level": "3.0"},)
    write_atomically(directory / RECORDING_FILE, RecordingInfo(7200, 2.0, renditions).dumps())
    (directory / "360p").mkdir()
    segments = "".join(f"#EXTINF:2.000000,\nr1-{k:05d}.ts\n" for k in range(300))  # ten minutes
    (directory / "360p" / "index.m3u8").write_text(f"#EXTM3U\n#EXT-X-TARGETDURATION:2\n{segments}")
    live = LiveRecordings(directory.parent)

    def window() -> int:
        info = live.info(asset_id)
        assert info is not None
        rendered = live.window(asset_id, "360p", info.dvr_seconds)
        assert rendered is not None
        return rendered.body.decode().count("#EXTINF")

    assert window() == 300
    async with database.write_session() as db:
        await live_feeds.set_ingest_settings(db, event_id, {"dvr_seconds": 120}, **where(settings))
    assert RecordingInfo.loads((directory / RECORDING_FILE).read_bytes()).renditions == renditions
    assert window() == 60  # viewers rewind two minutes from the next playlist on
    async with database.write_session() as db:
        await live_feeds.set_ingest_settings(db, event_id, {"dvr_seconds": None}, **where(settings))
    assert window() == 300  # the setting's two hours again


async def test_a_rewind_window_set_before_any_recording_changes_no_file(database, settings):
    async with database.session() as db:
        event = factories.event(db, "No feed yet", status="upcoming", when=clock.now() + timedelta(hours=1))
        await db.commit()
    CREATED.append((database, event.id))
    async with database.write_session() as db:
        changed = await live_feeds.set_ingest_settings(db, event.id, {"dvr_seconds": 600}, **where(settings))
    assert changed.dvr_seconds == 600
