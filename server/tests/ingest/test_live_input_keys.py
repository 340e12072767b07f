"""Keys of a running feed through the real chain (issue 28 §2): staff let a second encoder take
over from the one publishing, and revoking a key cuts its encoder off; either way the event's
recording goes on (server.ingest.live_inputs, nginx's control API)."""

import asyncio
import time
from datetime import timedelta

import pytest

from server.media.recordings import recorded
from server.services import event_admin, stream_keys

from .test_live_inputs import event_row, ingest_chain, publish, until, upcoming_with_key

pytestmark = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


async def on_air(database, event_id: str):
    async def live():
        event = await event_row(database, event_id)
        return event if event.status == "live" else None

    return await until(live)


async def test_a_second_encoder_staff_let_take_over_replaces_the_first_in_the_same_recording(
    settings, database, tmp_path
):
    event_id, key = await upcoming_with_key(database, settings, starts_in=timedelta(minutes=1))
    async with ingest_chain(settings, database, tmp_path) as chain:
        ingest, inputs = chain.ingest, chain.inputs
        started = time.monotonic()
        first = asyncio.create_task(asyncio.to_thread(publish, ingest, key, 40, "320x180"))
        event = await on_air(database, event_id)
        # Without staff's choice a second encoder is refused, and the first goes on.
        refused = await asyncio.to_thread(publish, ingest, key, 2, "320x180")
        assert refused.returncode != 0 and not first.done()
        async with database.write_session() as db:
            await stream_keys.allow_take_over(db, event_id)
        second = asyncio.create_task(asyncio.to_thread(publish, ingest, key, 10, "320x180"))
        # The first encoder is dropped well before its 40 s, the second publishes to its end.
        dropped = await first
        assert dropped.returncode != 0 and time.monotonic() - started < 35
        assert (await second).returncode == 0
        # One recording, continued after a discontinuity, as after a reconnect.
        assert (await event_row(database, event_id)).hls_stream == event.hls_stream
        health = inputs.health(event_id)
        assert health is not None and health.reconnects == 1
        asset_id = (event.hls_stream or "").removeprefix("/media/live/").removesuffix(".m3u8")
        store = event_admin.Media.of(settings).store

        def joined():
            playlist = (store.directory(asset_id) / "180p" / "index.m3u8").read_text()
            return "#EXT-X-DISCONTINUITY" in playlist and recorded(store.directory(asset_id) / "180p").duration > 8

        await until(lambda: asyncio.to_thread(joined), timeout=15)


async def test_revoking_the_key_cuts_its_encoder_off_and_the_feed_waits_for_a_new_key(settings, database, tmp_path):
    settings = settings.model_copy(update={"ingest_reconnect_seconds": 30})
    event_id, key = await upcoming_with_key(database, settings, starts_in=timedelta(minutes=1))
    async with ingest_chain(settings, database, tmp_path) as chain:
        ingest = chain.ingest
        first = asyncio.create_task(asyncio.to_thread(publish, ingest, key, 40, "320x180"))
        await on_air(database, event_id)
        async with database.write_session() as db:
            await stream_keys.revoke(db, event_id)
        revoked_at = time.monotonic()
        assert (await first).returncode != 0
        assert time.monotonic() - revoked_at < 10  # within a check (3 s) and nginx's drop

        # The event is live and waits for the encoder, within the grace.
        async def reconnecting():
            return (await event_row(database, event_id)).live_feed == "reconnecting"

        await until(reconnecting, timeout=10)
        # The old key lets nobody back in; a new one continues the event.
        assert (await asyncio.to_thread(publish, ingest, key, 2, "320x180")).returncode != 0
        async with database.write_session() as db:
            fresh = await stream_keys.create(db, event_id, settings=settings, actor=None)
        back = asyncio.create_task(asyncio.to_thread(publish, ingest, fresh.key, 8, "320x180"))

        async def back_on_air():
            return (await event_row(database, event_id)).live_feed is None

        await until(back_on_air, timeout=20)
        assert (await back).returncode == 0
