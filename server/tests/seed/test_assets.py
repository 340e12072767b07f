"""Streams stored before media assets existed are adopted by the next seed run."""

from datetime import timedelta

from sqlalchemy import select

from server import clock
from server.media.assets.store import MediaStore
from server.models import Event, MediaAsset, new_id
from server.seed.assets import adopt_sample_streams
from server.seed.fixtures import FIXTURES_DIR
from server.tests.commerce import CREATED


async def test_an_event_naming_a_sample_gets_an_asset_of_its_own_and_other_addresses_stay(database, tmp_path):
    store = MediaStore(tmp_path / "media")
    ids = [new_id(), new_id()]
    async with database.write_session() as db:
        for n, (event_id, stream) in enumerate(
            zip(ids, ["/media/live/football.m3u8", "https://cdn.example/live.m3u8"], strict=True)
        ):
            db.add(
                Event(
                    id=event_id,
                    media_type="event",
                    title="Stored before assets",
                    event_date=clock.now() - timedelta(minutes=5),
                    external_id=f"TL-OLD-{event_id}",
                    reference_id=f"ref-old-{n}-{event_id}",
                    status="live",
                    hls_stream=stream,
                    pano_stream="/media/vod/football-pano/game-60.m3u8" if n == 0 else None,
                )
            )
        await db.commit()
    CREATED.extend((database, event_id) for event_id in ids)
    async with database.write_session() as db:
        assert await adopt_sample_streams(db, store, FIXTURES_DIR / "media") == 2
    async with database.session() as db:
        adopted, untouched = [await db.get(Event, event_id) for event_id in ids]
        assets = {a.id: a for a in await db.scalars(select(MediaAsset).where(MediaAsset.event_id == ids[0]))}
    hls = adopted.hls_stream.removeprefix("/media/live/").removesuffix(".m3u8")
    pano = adopted.pano_stream.split("/")[3]
    assert (assets[hls].sample, assets[pano].sample) == ("football", "football-pano")
    assert adopted.pano_stream == f"/media/vod/{pano}/game-60.m3u8"
    assert (store.directory(hls) / "index.m3u8").is_file()
    assert untouched.hls_stream == "https://cdn.example/live.m3u8"
    async with database.write_session() as db:
        assert await adopt_sample_streams(db, store, FIXTURES_DIR / "media") == 0  # once
