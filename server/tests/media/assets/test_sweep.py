"""Asset directories no asset names any more are removed an hour after they last changed
(server.media.assets.sweep): never a named asset's, never a recent one, never one a kept clip's
link points at, never the samples."""

import os
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from server import clock
from server.media.assets.model import CLIP, LIVE
from server.media.assets.store import MediaStore
from server.media.assets.sweep import ORPHAN_GRACE_SECONDS, sweep_orphans
from server.models import Event, MediaAsset, new_id
from server.seed.fixtures import FIXTURES_DIR
from server.tests import factories
from server.tests.commerce import CREATED

HOUR_AND_A_BIT = ORPHAN_GRACE_SECONDS + 60


def age(path, seconds: float) -> None:
    """Make `path` (a link itself, not its target) look last changed `seconds` ago."""
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def present(path: Path) -> bool:
    """Whether `path` is there, a link counted as itself (whatever it points at)."""
    return path.is_symlink() or path.exists()


@pytest.fixture
def store(tmp_path) -> MediaStore:
    store = MediaStore(tmp_path / "media")
    store.provide_sample("football", FIXTURES_DIR / "media" / "football")
    return store


async def event_with_assets(database, *kinds: str) -> list[str]:
    async with database.session() as db:
        event = factories.event(db, "Sweep test", status="live", when=clock.now())
        await db.commit()
    CREATED.append((database, event.id))
    ids = [new_id() for _ in kinds]
    async with database.session() as db:
        now = clock.now()
        for asset_id, kind in zip(ids, kinds, strict=True):
            db.add(MediaAsset(id=asset_id, kind=kind, event_id=event.id, created=now, updated=now))
        await db.commit()
    return ids


async def test_an_old_directory_no_asset_names_is_removed_and_named_or_recent_ones_stay(database, store):
    (named,) = await event_with_assets(database, LIVE)
    orphan, recent = new_id(), new_id()
    for asset_id in (named, orphan, recent):
        (store.make_directory(asset_id) / "r1-00000.ts").write_bytes(b"\0" * 188)
    orphan_link = new_id()
    store.link_sample(orphan_link, "football")
    for path in (store.directory(named), store.directory(orphan), store.directory(orphan_link)):
        age(path, HOUR_AND_A_BIT)

    removed = await sweep_orphans(database, store)

    assert sorted(removed) == sorted([orphan, orphan_link])
    assert not store.directory(orphan).exists() and not present(store.directory(orphan_link))
    assert store.exists(named) and store.exists(recent)  # a row, or too recent to judge
    assert (store.sample_directory("football") / "index.m3u8").is_file()  # links removed, never their bytes


async def test_a_recording_a_kept_clip_links_to_stays_though_its_own_row_is_gone(database, store):
    (clip,) = await event_with_assets(database, CLIP)
    recording = new_id()  # its row deleted (its event was), the clip's row kept
    (store.make_directory(recording) / "index.m3u8").write_text("#EXTM3U\n")
    store.link_to(clip, recording)
    age(store.directory(recording), HOUR_AND_A_BIT)
    age(store.directory(clip), HOUR_AND_A_BIT)

    assert await sweep_orphans(database, store) == []
    assert (store.directory(clip) / "index.m3u8").is_file()

    async with database.session() as db:  # the clip goes too, and then its recording
        await db.delete(await db.get(MediaAsset, clip))
        await db.commit()
    assert sorted(await sweep_orphans(database, store)) == sorted([clip, recording])


async def test_a_half_made_link_left_by_a_crash_is_removed_once_old(database, store):
    leftover = store.root / f".{new_id()}.0a1b2c3d"
    leftover.symlink_to(".samples/football", target_is_directory=True)
    age(leftover, HOUR_AND_A_BIT)
    fresh = store.root / f".{new_id()}.4e5f6a7b"
    fresh.symlink_to(".samples/football", target_is_directory=True)

    assert await sweep_orphans(database, store) == [leftover.name]
    assert not present(leftover) and present(fresh)


async def test_the_media_sweep_is_a_job_of_its_own_that_a_setting_turns_off(database, settings):
    from server import jobs

    assert jobs.jobs_for(settings, database)["media-sweep"][0] == settings.media_sweep_interval_seconds == 3600.0
    off = settings.model_copy(update={"media_sweep_interval_seconds": 0})
    assert "media-sweep" not in jobs.jobs_for(off, database)


async def test_an_events_deletion_leaves_directories_the_sweep_removes(database, store):
    """Its rows go by cascade; its bytes have no row to name them any more."""
    first, second = await event_with_assets(database, LIVE, LIVE)
    for asset_id in (first, second):
        store.make_directory(asset_id)
        age(store.directory(asset_id), HOUR_AND_A_BIT)
    async with database.session() as db:
        asset = await db.get(MediaAsset, first)
        assert asset is not None
        await db.delete(await db.get(Event, asset.event_id))
        await db.commit()
        assert list(await db.scalars(select(MediaAsset).where(MediaAsset.id.in_([first, second])))) == []
    assert sorted(await sweep_orphans(database, store)) == sorted([first, second])
