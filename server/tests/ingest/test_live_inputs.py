"""A real feed through the whole chain (issue 28 §3, §4): ffmpeg publishes to Debian's nginx RTMP
module, the server's hook lets the key in, the live input transcodes the ladder into the event's
recording, the event goes live at it, viewers' signed URLs play it, an encoder that drops and
comes back continues the same recording, and finishing makes the recording the archive."""

import asyncio
import contextlib
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import select

from server import clock
from server.db import Database
from server.ingest import live_inputs
from server.ingest.hooks import hook_urls
from server.media.assets.model import RECORDING
from server.media.delivery.signing import sign_stream
from server.media.recordings import recorded
from server.media.sources.rtmp import RtmpIngest
from server.models import Event, JobLease, MediaAsset, Tag, User, new_id
from server.services import event_admin, ingest_health, stream_keys, tags, user_clips
from server.services.access import Viewer
from server.tests import factories
from server.tests.commerce import CREATED
from server.tests.media.serving import media_app
from server.tests.media.sources.test_rtmp import free_port, start_nginx
from server.tests.media.tools import tool
from server.tests.serving import uvicorn_serving

# One database is enough for this long chain; PostgreSQL is the one with real row locks.
pytestmark = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
# What a start or reconnect may miss of the feed: the moment between nginx taking the encoder's
# first packets and ffmpeg's connecting (nginx describes the feed, no probe reads it first), and
# the frames before the first keyframe ffmpeg sees. About 0.2 s each on a quiet machine; a busy
# one takes longer to start ffmpeg. Still short of the reconnect's 6 s: a lost run fails.
JOIN_ALLOWANCE_S = 2


def publish(ingest: RtmpIngest, key: str, seconds: int, size: str = "640x360") -> subprocess.CompletedProcess:
    """`seconds` of a test picture and tone at 25 fps, sent in real time as an encoder does."""
    return subprocess.run(
        [
            *(tool("ffmpeg"), "-hide_banner", "-loglevel", "error", "-nostdin", "-re"),
            *("-f", "lavfi", "-i", f"testsrc2=size={size}:rate=25:duration={seconds}"),
            *("-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}"),
            *("-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-pix_fmt", "yuv420p"),
            *("-c:a", "aac", "-f", "flv", ingest.publish_url(key)),
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    )


async def upcoming_with_key(database: Database, settings, *, starts_in: timedelta) -> tuple[str, str]:
    async with database.session() as db:
        event = factories.event(db, "Ingest chain", status="upcoming", when=clock.now() + starts_in)
        await db.commit()
    CREATED.append((database, event.id))
    async with database.write_session() as db:
        issued = await stream_keys.create(db, event.id, settings=settings, actor=None)
    return event.id, issued.key


async def until(check, timeout: float = 40.0, every: float = 0.5):
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(every)


async def event_row(database: Database, event_id: str) -> Event:
    async with database.session() as db:
        event = await db.get(Event, event_id)
        assert event is not None
        return event


def lines(playlist: str, prefix: str) -> list[str]:
    return [line for line in playlist.splitlines() if line.startswith(prefix)]


async def test_a_feed_goes_live_plays_its_ladder_survives_a_drop_and_becomes_the_archive(settings, database, tmp_path):
    settings = settings.model_copy(update={"ingest_reconnect_seconds": 30, "dvr_seconds": 600})
    event_id, key = await upcoming_with_key(database, settings, starts_in=timedelta(minutes=10))
    async with ingest_chain(settings, database, tmp_path) as chain, httpx.AsyncClient(base_url=chain.base) as http:
        ingest, inputs = chain.ingest, chain.inputs
        first = asyncio.create_task(asyncio.to_thread(publish, ingest, key, 14))

        # Kickoff is 10 minutes away: the feed's first segments put the event on air.
        async def live():
            event = await event_row(database, event_id)
            return event if event.status == "live" else None

        event = await until(live)
        assert event.hls_stream is not None and event.hls_stream.startswith("/media/live/")
        asset_id = event.hls_stream.removeprefix("/media/live/").removesuffix(".m3u8")
        signed = sign_stream(event.hls_stream, settings=settings)
        assert signed is not None
        master = await http.get(signed)
        assert master.status_code == 200, master.text
        # A 360p source: 360p and 234p, never upscaled, with what was measured.
        variants = lines(master.text, "#EXT-X-STREAM-INF:")
        assert [v.split("RESOLUTION=")[1].split(",")[0] for v in variants] == ["640x360", "416x234"]
        assert all('CODECS="avc1.' in v and "mp4a.40.2" in v and "FRAME-RATE=25.000" in v for v in variants)
        # The live stream's directory, and its token (carried in the query here, in a cookie by browsers).
        below, _, token = signed.partition("?token=")
        below = below.rsplit("/", 1)[0]
        assert below.startswith(f"/media/live/{asset_id}/from-")
        window = await http.get(f"{below}/360p/live.m3u8?token={token}")
        assert window.status_code == 200, window.text
        assert lines(window.text, "#EXT-X-PROGRAM-DATE-TIME:") and "#EXT-X-ENDLIST" not in window.text
        first_segment = lines(window.text, "r1-")[0]
        segment = await http.get(f"{below}/360p/{first_segment}?token={token}")
        assert segment.status_code == 200 and segment.headers["content-type"] == "video/mp2t"
        # Its directory serves the live ladder alone: not the transcoder's own files.
        for neighbour in ("360p/index.m3u8", "recording.json", "transcoder.json"):
            refused = await http.get(f"{below}/{neighbour}?token={token}")
            assert refused.status_code == 404, neighbour
        assert (await http.get(f"/media/vod/{asset_id}/index.m3u8?token={token}")).status_code == 403

        # Another process of a cluster answers staff with the transcoder's own figures, from the
        # report it writes beside the recording.
        async def told_elsewhere():
            async with database.session() as db:
                health = await ingest_health.ingest_health(
                    db, event_id, feed=None, store=inputs.store, now=clock.now(), dvr_default=settings.dvr_seconds
                )
            return health if health.progress is not None else None

        elsewhere = await until(told_elsewhere, timeout=10)
        assert elsewhere.source is not None and (elsewhere.source.width, elsewhere.source.height) == (640, 360)
        assert not elsewhere.transcoder_here and elsewhere.restarts == 0

        # A viewer tags 2.5 s into the match and clips 1 s to 3 s of it, while it is live.
        await until(lambda: _has_segments(http, f"{below}/360p/live.m3u8?token={token}", 3))
        viewer = await new_viewer(database)
        async with database.write_session() as db:
            tag = await tags.save_tag(
                db,
                viewer,
                event_id,
                {"title": "Chance", "start_ms": 2500, "end_ms": 3500},
                media_root=event_admin.Media.of(settings).store.root,
                limit=tags.save_limit(settings),
            )
        async with database.write_session() as db:
            clip = await user_clips.create_clip(
                db,
                Viewer(viewer),
                user_clips.NewClip(event_id, "Early chance", 1.0, 3.0),
                settings=settings,
                now=clock.now(),
            )
        clip_url = sign_stream(clip.hls_stream, settings=settings)
        assert clip_url is not None
        clip_dir, _, clip_token = clip_url.partition("?token=")
        clip_dir = clip_dir.rsplit("/", 1)[0]
        clip_media = await http.get(f"{clip_dir}/360p/index.m3u8?token={clip_token}")
        assert clip_media.status_code == 200, clip_media.text
        clip_segments = lines(clip_media.text, "r1-")
        assert clip_segments and "#EXT-X-START:TIME-OFFSET=" in clip_media.text
        for name in clip_segments:  # its directory serves its own segments alone
            assert (await http.get(f"{clip_dir}/360p/{name}?token={clip_token}")).status_code == 200
        assert (await http.get(f"{clip_dir}/360p/r1-00004.ts?token={clip_token}")).status_code == 404

        assert (await first).returncode == 0
        await asyncio.sleep(3)  # the encoder is away, within the grace
        assert inputs.health(event_id) is not None
        again = await asyncio.to_thread(publish, ingest, key, 6)
        assert again.returncode == 0, again.stderr

        async def joined():
            text = (await http.get(f"{below}/360p/live.m3u8?token={token}")).text
            return "#EXT-X-DISCONTINUITY" in text and text

        await until(joined, timeout=20)
        async with database.session() as db:
            live_assets = [a for a in await _assets(db, event_id) if a.kind == "live"]
        assert [a.id for a in live_assets] == [asset_id], "the reconnect continued another recording"

        await live_inputs.stop_for_finish(database, event_id, inputs)
        async with database.write_session() as db:
            _view, _change = await event_admin.finish(db, event_id, media=event_admin.Media.of(settings))
        finished = await event_row(database, event_id)
        assert finished.hls_stream == f"/media/vod/{asset_id}/index.m3u8"
        # What was published (14 s and 6 s) but the moment each join misses; the reconnect's run
        # is whole in the archive (its ffmpeg ended with its input, not by a signal).
        assert finished.duration_s is not None and 20 - 2 * JOIN_ALLOWANCE_S <= finished.duration_s <= 20 + 2
        vod = sign_stream(finished.hls_stream, settings=settings)
        assert vod is not None
        archive = await http.get(vod.replace("index.m3u8", "360p/index.m3u8"))
        assert archive.status_code == 200
        assert "#EXT-X-PLAYLIST-TYPE:VOD" in archive.text and archive.text.endswith("#EXT-X-ENDLIST\n")
        async with database.session() as db:
            kinds = {a.id: a.kind for a in await _assets(db, event_id)}
            kept = await db.get(Tag, tag.id, populate_existing=True)
            kept_clip = await db.get(Event, clip.id, populate_existing=True)
        assert kinds[asset_id] == RECORDING
        # The recording began with what viewers saw: the tag and the clip are where they were.
        assert kept is not None and (kept.start_ms, kept.end_ms) == (2500, 3500)
        assert kept_clip is not None and (kept_clip.start_time_ms, kept_clip.end_time_ms) == (1000, 3000)
        again_clip = await http.get(f"{clip_dir}/360p/index.m3u8?token={clip_token}")
        assert again_clip.status_code == 200 and lines(again_clip.text, "r1-") == clip_segments


@dataclass(frozen=True)
class Chain:
    base: str  # the server's address
    ingest: RtmpIngest
    inputs: live_inputs.LiveInputs


@asynccontextmanager
async def nginx_asking(settings, database: Database, prefix) -> AsyncIterator[tuple[str, RtmpIngest]]:
    """The server's media routes and hooks, and nginx-rtmp asking them: (the server's address, the ingest)."""
    async with uvicorn_serving(lambda port: media_app(settings, database)) as base:
        publish_url, done_url = hook_urls(settings, base)
        ingest = RtmpIngest("127.0.0.1", free_port(), publish_url, done_url, control_port=free_port())
        nginx = await asyncio.to_thread(start_nginx, ingest, prefix)
        try:
            yield base, ingest
        finally:
            nginx.terminate()
            await asyncio.to_thread(nginx.wait, 10)


def inputs_of_a_process(settings, database: Database, ingest: RtmpIngest, holder: str | None = None):
    return live_inputs.LiveInputs(
        settings, database, ingest, ffmpeg=tool("ffmpeg"), ffprobe=tool("ffprobe"), holder=holder
    )


@asynccontextmanager
async def ingest_chain(settings, database: Database, prefix) -> AsyncIterator[Chain]:
    """The server's media routes and hooks, nginx-rtmp asking them, and the live inputs, for a test."""
    async with nginx_asking(settings, database, prefix) as (base, ingest):
        inputs = inputs_of_a_process(settings, database, ingest)
        async with live_inputs.serving(inputs):
            yield Chain(base, ingest, inputs)


async def _has_segments(http: httpx.AsyncClient, url: str, count: int) -> bool:
    answer = await http.get(url)
    return answer.status_code == 200 and len(lines(answer.text, "#EXTINF")) >= count


async def new_viewer(database: Database) -> str:
    async with database.session() as db:
        user = User(id=new_id(), email=f"{new_id()}@example.com", display_name="Viewer", club_list=[], options={})
        db.add(user)
        await db.commit()
        return user.id


async def _assets(db, event_id: str) -> list[MediaAsset]:
    return list(await db.scalars(select(MediaAsset).where(MediaAsset.event_id == event_id)))


async def test_an_encoder_away_past_the_grace_interrupts_the_event_which_resumes_when_it_is_back(
    settings, database, tmp_path
):
    settings = settings.model_copy(update={"ingest_reconnect_seconds": 2})
    event_id, key = await upcoming_with_key(database, settings, starts_in=timedelta(minutes=1))
    async with ingest_chain(settings, database, tmp_path) as chain:
        ingest, inputs = chain.ingest, chain.inputs
        assert (await asyncio.to_thread(publish, ingest, key, 8, "320x180")).returncode == 0

        async def live():
            return (await event_row(database, event_id)).status == "live"

        await until(live)

        async def told(state):
            async def check():
                return (await event_row(database, event_id)).live_feed == state

            return check

        # Away past the 2 s grace: interrupted, and the event stays live.
        await until(await told("interrupted"), timeout=15)
        event = await event_row(database, event_id)
        health = inputs.health(event_id)
        assert event.status == "live" and health is not None and health.state == "interrupted"
        # The encoder comes back: on air again, same recording.
        back = asyncio.create_task(asyncio.to_thread(publish, ingest, key, 8, "320x180"))
        await until(await told(None), timeout=20)
        assert (await back).returncode == 0
        assert (await event_row(database, event_id)).hls_stream == event.hls_stream


async def test_past_the_disk_budget_a_new_ingest_is_refused_and_the_running_one_goes_on(settings, database, tmp_path):
    store = event_admin.Media.of(settings).store
    # The budget: what the store holds now and one more MB, which the running feed soon writes.
    budget_mb = store.used_bytes() // (1024 * 1024) + 1
    settings = settings.model_copy(update={"media_budget_mb": budget_mb})
    running_id, running_key = await upcoming_with_key(database, settings, starts_in=timedelta(minutes=1))
    other_id, other_key = await upcoming_with_key(database, settings, starts_in=timedelta(minutes=1))
    async with ingest_chain(settings, database, tmp_path) as chain:
        ingest, inputs = chain.ingest, chain.inputs
        running = asyncio.create_task(asyncio.to_thread(publish, ingest, running_key, 24))

        async def full():
            return store.used_bytes() >= budget_mb * 1024 * 1024

        await until(full)
        refused = await asyncio.to_thread(publish, ingest, other_key, 3, "320x180")
        assert refused.returncode != 0
        assert inputs.refusals[other_id][1].startswith("the media disk budget")
        assert (await event_row(database, other_id)).status == "upcoming"
        # The running feed was never disturbed: its whole publish went through and is recorded.
        assert (await running).returncode == 0
        event = await event_row(database, running_id)
        assert event.status == "live" and event.live_feed is None
        assert event.hls_stream is not None
        asset_id = event.hls_stream.removeprefix("/media/live/").removesuffix(".m3u8")
        recording = recorded(store.directory(asset_id) / "360p")
        assert recording.duration >= 24 - 2 * JOIN_ALLOWANCE_S


async def test_another_process_takes_a_feed_over_when_its_holder_dies_and_a_third_finishes_it(
    settings, database, tmp_path
):
    """Two processes transcode (neither answered nginx's hooks: they follow the database and
    nginx's stat page); the holder dies; the other continues the same recording within its
    lease, long before the reconnect grace; a finish asked of a third process closes it."""
    settings = settings.model_copy(update={"ingest_reconnect_seconds": 30})
    event_id, key = await upcoming_with_key(database, settings, starts_in=timedelta(minutes=1))
    async with nginx_asking(settings, database, tmp_path) as (_base, ingest):
        a = inputs_of_a_process(settings, database, ingest, "process-a")
        b = inputs_of_a_process(settings, database, ingest, "process-b")
        rounds = {a: contextlib.AsyncExitStack(), b: contextlib.AsyncExitStack()}
        for inputs, stack in rounds.items():
            await stack.enter_async_context(inputs.rounds())
        encoder = asyncio.create_task(asyncio.to_thread(publish, ingest, key, 40, "320x180"))
        try:

            async def live():
                event = await event_row(database, event_id)
                return event if event.status == "live" else None

            event = await until(live)
            holder, other = (a, b) if event_id in a.feeds else (b, a)
            assert event_id not in other.feeds
            asset_id = (event.hls_stream or "").removeprefix("/media/live/").removesuffix(".m3u8")
            rendition = holder.store.directory(asset_id) / "180p"
            await until(lambda: asyncio.to_thread(lambda: recorded(rendition).duration >= 4))
            before = recorded(rendition).duration

            # The holder dies: its rounds stop, the kernel ends its ffmpeg, its lease stays behind.
            await rounds.pop(holder).aclose()
            died_at = time.monotonic()
            await holder._abandon(holder.feeds[event_id])

            def continued():
                playlist = (rendition / "index.m3u8").read_text()
                return "#EXT-X-DISCONTINUITY" in playlist and recorded(rendition).duration >= before + 4

            await until(lambda: asyncio.to_thread(continued), timeout=30)
            assert event_id in other.feeds
            assert time.monotonic() - died_at < settings.ingest_reconnect_seconds
            # The same recording, on air throughout: viewers were never told the feed was away.
            event = await event_row(database, event_id)
            assert event.status == "live" and event.live_feed is None
            assert event.hls_stream == f"/media/live/{asset_id}.m3u8"

            # Staff finish the event through a process that runs no feed.
            started = time.monotonic()
            assert await live_inputs.stop_for_finish(database, event_id, None) is not None
            assert time.monotonic() - started < 5  # the holder stopped its transcoder: no lease to wait out
            async with database.write_session() as db:
                await event_admin.finish(db, event_id, media=event_admin.Media.of(settings))
            finished = await event_row(database, event_id)
            assert finished.hls_stream == f"/media/vod/{asset_id}/index.m3u8"
            archive = (rendition / "index.m3u8").read_text()
            assert "#EXT-X-PLAYLIST-TYPE:VOD" in archive and "#EXT-X-DISCONTINUITY" in archive
            assert finished.duration_s is not None and finished.duration_s >= before + 4

            async def closed():
                return event_id not in other.feeds

            await until(closed, timeout=10)
            async with database.session() as db:
                assert await db.get(JobLease, live_inputs.lease_name(event_id)) is None
        finally:
            for stack in rounds.values():
                await stack.aclose()
            await a.close()
            await b.close()
            encoder.cancel()
