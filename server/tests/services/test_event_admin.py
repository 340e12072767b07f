"""The rules of server.services.event_admin that no single API call shows: upcoming events go live
at kickoff (the kickoff job, on server.clock), once whoever else runs the job; which stream an
event keeps when it goes live or ends; dates read as UTC."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from server import clock, jobs
from server.api.http.cache import ResponseCache
from server.errors import ApiError
from server.models import Event
from server.services import event_admin
from server.settings import Settings
from server.tests import factories
from server.tests.commerce import CREATED
from server.tests.mailbox import recording_socket
from server.tests.media_dir import as_sample, as_samples

MEDIA = event_admin.Media.of(Settings())

TIMEOUT_S = 10


async def upcoming(database, *, starts_in: timedelta, **kw) -> Event:
    """An upcoming football event `starts_in` from now on server.clock (removed after the test)."""
    async with database.session() as db:
        event = factories.event(
            db,
            f"Kickoff test {clock.now().timestamp()}",
            status="upcoming",
            when=clock.now() + starts_in,
            sport_type="football",
            **kw,
        )
        await db.commit()
    CREATED.append((database, event.id))
    return event


async def status_of(database, event_id: str) -> Event:
    async with database.session() as db:
        return await db.get(Event, event_id)


async def test_an_upcoming_event_goes_live_at_kickoff_and_not_before(database):
    event = await upcoming(database, starts_in=timedelta(seconds=30))
    assert event.id not in [c.event.id for c in await event_admin.start_due(database, media=MEDIA)]
    assert (await status_of(database, event.id)).status == "upcoming"

    clock.advance(timedelta(minutes=1))
    started = [c for c in await event_admin.start_due(database, media=MEDIA) if c.event.id == event.id]
    assert len(started) == 1
    row = await status_of(database, event.id)
    assert (row.status, as_sample(row.hls_stream)) == ("live", "/media/live/football.m3u8")
    assert as_samples(started[0].fields) == {
        "status": "live",
        "gameStartDate": event_admin.wire_time(row.game_start_date),
        "content": {"HLSStream": "/media/live/football.m3u8"},
    }


async def test_a_planned_kickoff_time_is_kept_when_the_event_goes_live_on_schedule(database):
    planned = clock.now() + timedelta(minutes=5)
    event = await upcoming(database, starts_in=timedelta(seconds=1), game_start_date=planned)
    clock.advance(timedelta(seconds=2))
    await event_admin.start_due(database, media=MEDIA)
    assert (await status_of(database, event.id)).game_start_date == planned


async def test_kickoff_runs_of_several_processes_at_once_start_each_event_once(database):
    events = [await upcoming(database, starts_in=timedelta(seconds=5)) for _ in range(3)]
    clock.advance(timedelta(seconds=10))
    runs = await asyncio.gather(*(event_admin.start_due(database, media=MEDIA) for _ in range(4)))
    started = [c.event.id for run in runs for c in run if c.event.id in {e.id for e in events}]
    assert sorted(started) == sorted(e.id for e in events)


async def test_kickoff_works_through_more_due_events_than_one_batch(database):
    events = [await upcoming(database, starts_in=timedelta(seconds=5)) for _ in range(5)]
    clock.advance(timedelta(seconds=10))
    await event_admin.start_due(database, media=MEDIA, batch=2)
    assert {(await status_of(database, e.id)).status for e in events} == {"live"}


async def test_the_kickoff_job_runs_with_the_server_tells_the_room_and_empties_the_catalogue_cache(
    database, database_url
):
    assert Settings(environment="test", database_url=database_url).kickoff_interval_seconds == 10.0
    settings = Settings(
        environment="test",
        database_url=database_url,
        kickoff_interval_seconds=0.02,
        settlement_interval_seconds=0,
        renewal_interval_seconds=0,
        payment_cleanup_interval_seconds=0,
        notices_interval_seconds=0,
        live_alerts_interval_seconds=0,
        analytics_retention_interval_seconds=0,
        outbox_audit_retention_interval_seconds=0,
        media_sweep_interval_seconds=0,
        qoe_alert_interval_seconds=0,
        outage_interval_seconds=0,
    )
    assert set(jobs.jobs_for(settings, database)) == {"kickoff"}
    cache = ResponseCache(ttl_seconds=300)
    cache.put(b"list", {"stale": True})
    event = await upcoming(database, starts_in=timedelta(seconds=5))
    clock.advance(timedelta(seconds=10))

    with recording_socket() as socket:
        async with jobs.running(settings, database):
            deadline = asyncio.get_running_loop().time() + TIMEOUT_S
            while (await status_of(database, event.id)).status != "live":
                assert asyncio.get_running_loop().time() < deadline, "the kickoff job did not start the event"
                await asyncio.sleep(0.02)
            while len([m for m in socket.sent if m[2] == f"event:{event.id}"]) < 2:
                assert asyncio.get_running_loop().time() < deadline, "the room was not told"
                await asyncio.sleep(0.02)
    messages = [(name, data) for name, data, room in socket.sent if room == f"event:{event.id}"]
    assert [(name, data.get("status")) for name, data in messages] == [
        ("update-event", "live"),
        ("event-url-change", None),
    ]
    assert len(cache) == 0


def test_an_interval_of_zero_turns_the_kickoff_job_off(database_url, database):
    settings = Settings(environment="test", database_url=database_url, kickoff_interval_seconds=0)
    assert "kickoff" not in jobs.jobs_for(settings, database)


@pytest.mark.parametrize(
    ("stored", "sport", "kept"),
    [
        ("/media/live/hockey.m3u8", "football", "/media/vod/hockey/index.m3u8"),  # the sample that played
        (None, "basketball", "/media/vod/basketball/index.m3u8"),  # none: its sport's
        (None, "curling", "/media/vod/football/index.m3u8"),  # a sport without a sample
        ("/media/vod/football/index.m3u8", "football", "/media/vod/football/index.m3u8"),
        ("https://cdn.example/live/npd.m3u8", "football", "https://cdn.example/live/npd.m3u8"),  # another host's
        (
            "http://elsewhere.example/media/live/football.m3u8",
            "football",
            "http://elsewhere.example/media/live/football.m3u8",
        ),
    ],
)
def test_a_finished_event_keeps_the_vod_of_what_it_played(stored, sport, kept):
    assert event_admin.vod_of(stored, sport) == kept


def test_each_sport_plays_its_own_sample():
    assert [event_admin.sample_for(s) for s in ("football", "basketball", "ice-hockey", "volleyball")] == [
        "football",
        "basketball",
        "hockey",
        "volleyball",
    ]


def test_dates_are_read_as_utc():
    noon = datetime(2026, 11, 21, 18, tzinfo=UTC)
    assert event_admin.parse_time("2026-11-21T18:00:00Z", "event_date") == noon
    assert event_admin.parse_time("2026-11-21T19:00:00+01:00", "event_date") == noon
    assert event_admin.parse_time("2026-11-21T18:00:00", "event_date") == noon  # no offset: UTC
    assert event_admin.wire_time(noon) == "2026-11-21T18:00:00Z"


@pytest.mark.parametrize("value", ["tomorrow", "0001-01-01T00:00:00+01:00", "2026-13-01T00:00:00Z"])
def test_a_date_that_is_no_instant_is_a_400_naming_its_field(value):
    with pytest.raises(ApiError) as refused:
        event_admin.parse_time(value, "gameStartDate")
    details = refused.value.details
    assert refused.value.status == 400 and details is not None and details[0]["field"] == "gameStartDate"


@pytest.mark.parametrize(
    ("stored", "sport", "seconds", "kept"),
    [
        ("/media/live/hockey.m3u8", "football", 8_100, "/media/vod/hockey/game-8100.m3u8"),
        ("/media/live/football-pano.m3u8", "football", 8_100, "/media/vod/football-pano/game-8100.m3u8"),
        (None, "basketball", 7_200, "/media/vod/basketball/game-7200.m3u8"),
        ("/media/live/hockey.m3u8", "hockey", 0, "/media/vod/hockey/index.m3u8"),  # no time at all: the sample
        ("/media/live/hockey.m3u8", "hockey", 10**9, f"/media/vod/hockey/game-{event_admin.MAX_DURATION_S}.m3u8"),
        ("/media/vod/football/game-300.m3u8", "football", 8_100, "/media/vod/football/game-300.m3u8"),
        ("https://cdn.example/live/npd.m3u8", "football", 8_100, "https://cdn.example/live/npd.m3u8"),
    ],
)
def test_a_finished_game_keeps_a_vod_as_long_as_it_lasted(stored, sport, seconds, kept):
    assert event_admin.vod_of(stored, sport, seconds) == kept


def test_finishing_gives_the_main_and_the_panoramic_stream_a_game_length_vod():
    kickoff = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
    event = Event(
        status="live",
        event_date=kickoff,
        game_start_date=kickoff,
        sport_type="football",
        hls_stream="/media/live/football.m3u8",
        pano_stream="/media/live/football-pano.m3u8",
    )
    event_admin._finish(event, kickoff + timedelta(minutes=105))
    assert event.duration_s == 6_300
    assert event.hls_stream == "/media/vod/football/game-6300.m3u8"
    assert event.pano_stream == "/media/vod/football-pano/game-6300.m3u8"
