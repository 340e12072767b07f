"""Which process runs a live input (issue 28 §6): the holder of its lease, one process alone;
another takes the input over when the holder stops renewing it, a holder that lost its lease
stops, and a finish asked of any process waits for the holder to stop its transcoder.

Two LiveInputs on one database stand for two server processes (no nginx here: the feeds wait
for an encoder, which is what a lease needs). The whole chain across processes, with nginx and
ffmpeg, is in test_live_inputs.py and cli/tests/test_cluster_ingest.py."""

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest

from server import clock
from server.db import Database
from server.ingest import live_inputs
from server.ingest.feed import Feed
from server.media.assets.store import store_of
from server.media.sources.rtmp import RtmpIngest
from server.models import JobLease, MediaAsset
from server.services import job_runs, live_feeds, stream_keys
from server.tests.media.sources.test_stream_keys_at_the_ingest import new_key

NO_NGINX = RtmpIngest("127.0.0.1", 1, "http://127.0.0.1:1/publish", "http://127.0.0.1:1/done")
LEASE_S = job_runs.lease_seconds(live_inputs.RECONCILE_SECONDS)


@pytest.fixture(autouse=True)
def _clock_back():
    yield
    clock.reset()


@asynccontextmanager
async def process(settings, database: Database, name: str) -> AsyncIterator[live_inputs.LiveInputs]:
    """A server process's live inputs (its rounds are run by the test), closed as a stopping
    process closes them."""
    inputs = live_inputs.LiveInputs(settings, database, NO_NGINX, holder=name)
    try:
        yield inputs
    finally:
        await inputs.close()


async def published_event(database: Database, settings, publisher: str = "7@203.0.113.9") -> str:
    """An upcoming event whose key an encoder publishes with (as nginx's hook recorded it)."""
    event_id, key = await new_key(database, settings)
    async with database.write_session() as db:
        decision = await stream_keys.may_publish(db, key, publisher, secret_key=settings.secret_key)
    assert decision.accepted
    return event_id


async def on_air_recording(database: Database, settings, event_id: str) -> str:
    """The event's live recording, on air (as its first holder left it)."""
    async with database.write_session() as db:
        asset, _ = await live_feeds.open_recording(db, store_of(settings), event_id)
    async with database.write_session() as db:
        row = await db.get(MediaAsset, asset.id)
        assert row is not None
        row.state = live_feeds.ON_AIR
        await db.commit()
    return asset.id


async def test_an_input_nobody_holds_is_taken_by_one_process_alone(settings, database):
    event_id = await published_event(database, settings)
    async with process(settings, database, "process-a") as a, process(settings, database, "process-b") as b:
        await asyncio.gather(a.reconcile(), b.reconcile())
        await asyncio.gather(a.reconcile(), b.reconcile())
        assert (event_id in a.feeds) != (event_id in b.feeds)
        holder = a if event_id in a.feeds else b
        assert await live_inputs_holder(database, event_id) == holder.holder


async def test_a_dead_holders_input_is_taken_over_once_its_lease_expires(settings, database):
    event_id = await published_event(database, settings)
    await on_air_recording(database, settings, event_id)
    async with process(settings, database, "process-a") as a, process(settings, database, "process-b") as b:
        await a.reconcile()
        assert event_id in a.feeds
        # a dies: it renews nothing any more. Within its lease nobody else takes the input.
        await b.reconcile()
        assert event_id not in b.feeds
        clock.advance(timedelta(seconds=LEASE_S + 0.5))
        await b.reconcile()
        assert event_id in b.feeds
        assert await live_inputs_holder(database, event_id) == "process-b"
        # The new holder continues the recording as it was: on air, waiting for its encoder.
        taken = b.feeds[event_id]
        assert taken.state == live_feeds.ON_AIR and not taken.connected.is_set()


async def test_a_holder_that_lost_its_lease_stops_its_feed(settings, database):
    event_id = await published_event(database, settings)
    async with process(settings, database, "process-a") as a, process(settings, database, "process-b") as b:
        await a.reconcile()
        feed = a.feeds[event_id]
        clock.advance(timedelta(seconds=LEASE_S + 0.5))  # a stalled past its lease
        await b.reconcile()
        await a.reconcile()
        assert event_id in b.feeds and event_id not in a.feeds
        assert feed.done.is_set()


async def test_a_stopping_process_gives_its_inputs_up_at_once(settings, database):
    event_id = await published_event(database, settings)
    async with process(settings, database, "process-b") as b:
        async with process(settings, database, "process-a") as a:
            await a.reconcile()
            assert event_id in a.feeds
        await b.reconcile()  # no wait for the lease to expire
        assert event_id in b.feeds


async def test_a_finish_asked_of_another_process_waits_for_the_holder_to_stop_its_transcoder(settings, database):
    event_id = await published_event(database, settings)
    asset_id = await on_air_recording(database, settings, event_id)
    async with process(settings, database, "process-a") as a:
        await a.reconcile()
        feed = a.feeds[event_id]
        async with a.rounds():
            started = time.monotonic()
            restore = await live_inputs.stop_for_finish(database, event_id, None)
            waited = time.monotonic() - started
        assert restore is not None and feed.finishing and feed.stopping
        assert waited < live_inputs.FINISH_WAIT_SECONDS
        assert await live_inputs_holder(database, event_id) is None
        async with database.session() as db:
            assert await live_feeds.current_state(db, asset_id) == live_feeds.FINISHING
        # Nothing puts a finishing feed back on air, and no process takes it on meanwhile.
        async with database.write_session() as db:
            assert await live_feeds.set_state(db, asset_id, live_feeds.RECONNECTING) is None
        async with process(settings, database, "process-b") as b:
            await b.reconcile()
            assert event_id not in b.feeds
        # The finish fell through: the feed is what it was, and is taken on again.
        await restore()
        await a.reconcile()
        again = a.feeds[event_id]
        assert again is not feed and not again.finishing and feed.done.is_set()
        async with database.session() as db:
            assert await live_feeds.current_state(db, asset_id) == live_feeds.ON_AIR


async def test_a_finish_without_a_feed_on_air_waits_for_nothing(settings, database):
    event_id = await published_event(database, settings)
    assert await live_inputs.stop_for_finish(database, event_id, None) is None


class Inputs:
    """Just what a Feed reads of its process, for follow()."""

    def __init__(self, settings):
        self.settings = settings


def test_a_feed_follows_the_publisher_whichever_process_recorded_it(settings):
    feed = Feed(Inputs(settings), "event", "tlk_a", "1@203.0.113.9")  # type: ignore[arg-type]
    feed.follow("1@203.0.113.9", "tlk_a")
    assert feed.connected.is_set() and feed.reconnects == 0
    feed.follow(None, None)  # the encoder left
    assert not feed.connected.is_set() and feed.left_at is not None
    feed.follow("2@203.0.113.9", None)  # nginx cannot say which stream yet: wait
    assert not feed.connected.is_set()
    feed.follow("2@203.0.113.9", "tlk_a")  # back
    assert feed.connected.is_set() and feed.reconnects == 1 and feed.left_at is None
    feed.follow("3@198.51.100.4", "tlk_b")  # staff let another encoder take over, on a new key
    assert feed.connected.is_set() and feed.reconnects == 2 and feed.name == "tlk_b"


def test_a_feed_taken_over_while_interrupted_stays_interrupted(settings):
    feed = Feed(Inputs(settings), "event", None, taken_over=live_feeds.INTERRUPTED)  # type: ignore[arg-type]
    assert feed.state == live_feeds.INTERRUPTED and not feed.connected.is_set()
    assert feed.left_at is not None
    assert time.monotonic() - feed.left_at > settings.ingest_reconnect_seconds


async def live_inputs_holder(database: Database, event_id: str) -> str | None:
    """The process holding the input's lease now, None when nobody does."""
    async with database.session() as db:
        row = await db.get(JobLease, live_inputs.lease_name(event_id), populate_existing=True)
    return row.holder if row is not None and row.expires_at > clock.now() else None


async def test_a_publisher_nginx_no_longer_has_frees_its_key_after_a_while(settings, database, monkeypatch):
    event_id = await published_event(database, settings)
    monkeypatch.setattr(live_inputs, "STALE_PUBLISHER_SECONDS", 0.3)
    async with process(settings, database, "process-a") as a:

        async def nginx_restarted() -> dict[str, str]:
            return {}  # nginx answers, and has no publisher

        monkeypatch.setattr(a, "_stream_names", nginx_restarted)
        await a.reconcile()
        # Just let in: nginx takes an encoder's packets a moment after its hook said yes.
        async with database.session() as db:
            assert event_id in await stream_keys.publishers(db)
        await asyncio.sleep(0.4)
        await a.reconcile()
        async with database.session() as db:
            assert event_id not in await stream_keys.publishers(db)
        # The key is free: the encoder may connect again (no take-over needed).
        async with database.session() as db:
            row = await stream_keys.in_force(db, event_id)
        assert row is not None and row.publisher is None


async def test_a_publisher_that_left_and_whose_number_comes_back_is_not_judged_stale_at_once(
    settings, database, monkeypatch
):
    """nginx numbers its clients afresh after a restart: an encoder may get the number one that
    left had. Its first round is a fresh start, not the old one's time away."""
    publisher = "7@203.0.113.9"
    event_id = await published_event(database, settings, publisher)
    monkeypatch.setattr(live_inputs, "STALE_PUBLISHER_SECONDS", 0.3)
    async with process(settings, database, "process-a") as a:

        async def nginx_has_nobody() -> dict[str, str]:
            return {}

        monkeypatch.setattr(a, "_stream_names", nginx_has_nobody)
        await a.reconcile()  # missing since now
        async with database.write_session() as db:  # it leaves, as nginx says
            assert await stream_keys.forget_publisher(db, event_id, publisher)
        await a.reconcile()
        await asyncio.sleep(0.4)
        async with database.write_session() as db:  # the same number publishes again
            row = await stream_keys.in_force(db, event_id)
            assert row is not None
            row.publisher = publisher
            await db.commit()
        await a.reconcile()
        async with database.session() as db:
            assert (await stream_keys.publishers(db)).get(event_id) == publisher
