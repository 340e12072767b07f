"""The transcoding queue's runner (issue 29 §2), through the real ffmpeg: a checked upload becomes
an asset with an aligned ladder, a measured master, a poster and seek-preview thumbnails; a job
runs once whatever the processes; a job whose process died runs again elsewhere; a cancelled job
stops ffmpeg and leaves nothing behind; a file ffmpeg fails on fails the job with its reason.

Two Transcoding objects on one database stand for two server processes."""

import asyncio
import shutil
import subprocess
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, select, update

from server import clock
from server.db import Database
from server.media.assets.store import MediaStore
from server.media.packaging import measure, previews
from server.media.packaging.ladder import Source, plan
from server.media.packaging.live_hls import LiveInput, live_hls_command
from server.media.playlists import parse_vod_playlist
from server.media.recordings import RECORDING_FILE, RecordingInfo
from server.media.sources.upload_files import UploadFiles
from server.models import JobLease, MediaAsset, MediaJob, new_id
from server.realtime.announcements import announce_media_job
from server.services import event_admin, media_jobs, uploads
from server.settings import Settings
from server.tests import factories
from server.tests.commerce import CREATED
from server.tests.mailbox import recording_socket
from server.tests.media.sources.videos import make_video
from server.transcoding import runner as runner_module
from server.transcoding.runner import JOB_LEASE_SECONDS, Transcoding


@pytest.fixture(autouse=True)
async def _nothing_left_behind(database):
    """The clock back, and no place or job left for another test's runner (a test that moved the
    clock leaves leases that end in the future)."""
    yield
    clock.reset()
    async with database.write_session() as db:
        await db.execute(delete(JobLease).where(JobLease.name.like("transcode:%")))
        await db.execute(update(MediaJob).where(MediaJob.state.in_(media_jobs.ACTIVE)).values(state="cancelled"))
        await db.commit()


@pytest.fixture
def media_settings(settings, tmp_path) -> Settings:
    return settings.model_copy(update={"media_dir": tmp_path / "media", "transcode_concurrency": 1})


async def queued_job(database: Database, settings: Settings, video: Path, title: str = "Final, full match") -> str:
    """A job for `video` as a complete upload leaves it: its source in place, queued."""
    async with database.session() as db:
        event = factories.event(db, "Archive test", status="archived", when=clock.now() - timedelta(days=1))
        await db.commit()
    CREATED.append((database, event.id))
    files = UploadFiles(settings.media_dir)
    job_id = new_id()
    size = await asyncio.to_thread(lambda: video.stat().st_size)
    await asyncio.to_thread(_copy, video, files, job_id)
    async with database.write_session() as db:
        upload = await uploads.begin(
            db,
            event_id=event.id,
            length=size,
            filename=video.name,
            title=title,
            created_by=None,
            max_bytes=settings.upload_max_bytes,
            retention_hours=1,
        )
        await uploads.complete(db, upload, job_id=job_id, duration_ms=0)
        await db.commit()
    return job_id


def _copy(video: Path, files: UploadFiles, job_id: str) -> None:
    files.root.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(video, files.source(job_id))


async def job_row(database: Database, job_id: str) -> MediaJob:
    async with database.session() as db:
        job = await db.get(MediaJob, job_id)
        assert job is not None
        return job


async def asset_row(database: Database, asset_id: str) -> MediaAsset | None:
    async with database.session() as db:
        return await db.get(MediaAsset, asset_id)


async def test_an_upload_becomes_a_ready_asset_with_a_measured_ladder_a_poster_and_thumbnails(
    database, media_settings, tmp_path
):
    video = make_video(tmp_path / "match.mp4", seconds=5, size="854x480", black_seconds=1)
    job_id = await queued_job(database, media_settings, video)
    runner = Transcoding(media_settings, database, holder="process-a")
    assert await runner.round() == [job_id]
    await runner.idle()

    job = await job_row(database, job_id)
    assert (job.state, job.percent, job.error) == ("done", 100.0, None)
    assert job.asset_id is not None
    asset = await asset_row(database, job.asset_id)
    assert asset is not None and asset.state == "ready" and asset.kind == "upload"
    assert asset.duration_ms == pytest.approx(5000, abs=100)
    assert asset.title == "Final, full match"

    directory = MediaStore(media_settings.media_dir).directory(job.asset_id)
    master = (directory / measure.PLAYLIST).read_text()
    # 480p gets 360p and 234p: never upscaled to 720p.
    assert "RESOLUTION=640x360" in master and "RESOLUTION=416x234" in master and "720" not in master
    for attribute in ("BANDWIDTH=", "AVERAGE-BANDWIDTH=", 'CODECS="avc1.', "mp4a.40.2", "FRAME-RATE=25.000"):
        assert attribute in master
    for rendition in ("360p", "234p"):
        vod = parse_vod_playlist((directory / rendition / measure.PLAYLIST).read_text())
        assert vod.duration == pytest.approx(5, abs=0.2)
        assert "#EXT-X-ENDLIST" in (directory / rendition / measure.PLAYLIST).read_text()
    assert (directory / previews.POSTER).stat().st_size > 1000
    assert await previews.mean_luma(directory / previews.POSTER) >= previews.BLACK_LUMA  # not the black first second
    vtt = (directory / previews.THUMBNAILS_VTT).read_text()
    assert vtt.startswith("WEBVTT")
    assert "00:00:00.000 --> 00:00:02.000\nthumbs-001.jpg#xywh=0,0,160,90" in vtt
    assert "00:00:04.000 --> 00:00:05.000" in vtt
    assert (directory / "thumbs-001.jpg").exists()
    assert not UploadFiles(media_settings.media_dir).source(job_id).exists()  # the source is freed
    assert not (media_settings.media_dir / "transcoding" / job_id).exists()


async def test_a_job_encodes_at_the_settings_x264_preset(database, media_settings, tmp_path, monkeypatch):
    ran: list[list[str]] = []
    real_run = runner_module._run_ffmpeg

    async def recording(command, duration, progress):
        ran.append(command)
        await real_run(command, duration, progress)

    monkeypatch.setattr(runner_module, "_run_ffmpeg", recording)
    settings = media_settings.model_copy(update={"x264_preset": "superfast"})
    job_id = await queued_job(database, settings, make_video(tmp_path / "a.mp4", seconds=2, size="320x180"))
    runner = Transcoding(settings, database)
    assert await runner.round() == [job_id]
    await runner.idle()
    assert (await job_row(database, job_id)).state == "done"
    [command] = ran
    assert command[command.index("-preset:v:0") + 1] == "superfast"


async def test_two_processes_run_a_job_once(database, media_settings, tmp_path):
    job_id = await queued_job(database, media_settings, make_video(tmp_path / "a.mp4", seconds=2, size="320x180"))
    a = Transcoding(media_settings, database, holder="process-a")
    b = Transcoding(media_settings, database, holder="process-b")
    taken = await asyncio.gather(a.round(), b.round())
    assert [taken_id for ids in taken for taken_id in ids] == [job_id]
    await asyncio.gather(a.idle(), b.idle())
    job = await job_row(database, job_id)
    assert (job.state, job.attempts) == ("done", 1)


async def test_one_place_runs_one_job_at_a_time_across_processes(database, media_settings, tmp_path):
    first = await queued_job(database, media_settings, make_video(tmp_path / "a.mp4", seconds=2, size="320x180"))
    second = await queued_job(database, media_settings, make_video(tmp_path / "b.mp4", seconds=2, size="320x180"))
    a = Transcoding(media_settings, database, holder="process-a")
    b = Transcoding(media_settings, database, holder="process-b")
    assert await a.round() == [first]
    assert await b.round() == []  # the cluster's one place is taken
    await a.idle()
    assert await b.round() == [second]
    await b.idle()
    assert [(await job_row(database, j)).state for j in (first, second)] == ["done", "done"]


async def test_a_job_whose_process_died_runs_again_elsewhere_and_is_published_once(database, media_settings, tmp_path):
    job_id = await queued_job(database, media_settings, make_video(tmp_path / "a.mp4", seconds=2, size="320x180"))
    dead = await media_jobs.claim(database, "process-that-died", JOB_LEASE_SECONDS)
    assert dead is not None and dead.id == job_id
    # What the dead process left: half a working directory.
    leftover = media_settings.media_dir / "transcoding" / job_id / "360p"
    leftover.mkdir(parents=True)
    (leftover / "v-00000.ts").write_bytes(b"half")
    survivor = Transcoding(media_settings, database, holder="process-b")
    assert await survivor.round() == []  # its lease still runs
    clock.advance(timedelta(seconds=JOB_LEASE_SECONDS + 1))
    assert await survivor.round() == [job_id]
    await survivor.idle()
    job = await job_row(database, job_id)
    assert (job.state, job.attempts, job.holder) == ("done", 2, "process-b")
    # The dead process cannot publish afterwards.
    assert not await media_jobs.finish(database, job_id, "process-that-died", duration_ms=1)


async def test_a_job_that_never_finishes_in_three_runs_fails(database, media_settings, tmp_path):
    job_id = await queued_job(database, media_settings, make_video(tmp_path / "a.mp4", seconds=2, size="320x180"))
    for attempt in range(media_jobs.MAX_ATTEMPTS):
        assert (await media_jobs.claim(database, f"doomed-{attempt}", JOB_LEASE_SECONDS)) is not None
        clock.advance(timedelta(seconds=JOB_LEASE_SECONDS + 1))
    # The next process's round finds it stalled for the last time: it fails, nothing runs.
    assert await Transcoding(media_settings, database, holder="process-b").round() == []
    job = await job_row(database, job_id)
    assert job.state == "failed" and "3 times" in (job.error or "")
    asset = await asset_row(database, job.asset_id or "")
    assert asset is not None and asset.state == "failed"


async def test_cancelling_a_running_job_stops_ffmpeg_and_removes_its_partial_output(database, media_settings, tmp_path):
    video = make_video(tmp_path / "long.mp4", seconds=40, size="1280x720")
    job_id = await queued_job(database, media_settings, video)
    runner = Transcoding(media_settings, database, holder="process-a")
    assert await runner.round() == [job_id]
    work = media_settings.media_dir / "transcoding" / job_id
    for _ in range(200):  # ffmpeg has written segments
        if any(work.glob("*/v-*.ts")):
            break
        await asyncio.sleep(0.1)
    assert any(work.glob("*/v-*.ts"))
    async with database.write_session() as db:
        view, removed_asset = await media_jobs.cancel(db, job_id)
        await db.commit()
    assert view.state == "cancelled" and removed_asset is not None
    await asyncio.wait_for(runner.idle(), 10)  # the next heartbeat stops it
    assert not work.exists()
    assert not MediaStore(media_settings.media_dir).directory(removed_asset).exists()
    assert await asset_row(database, removed_asset) is None
    assert (await job_row(database, job_id)).state == "cancelled"


async def test_a_source_ffmpeg_cannot_read_fails_the_job_with_its_reason_in_one_line(
    database, media_settings, tmp_path
):
    job_id = await queued_job(database, media_settings, make_video(tmp_path / "a.mp4", seconds=2, size="320x180"))
    UploadFiles(media_settings.media_dir).source(job_id).write_text("no longer a video\n" * 20)
    runner = Transcoding(media_settings, database, holder="process-a")
    await runner.round()
    await runner.idle()
    job = await job_row(database, job_id)
    assert job.state == "failed"
    assert job.error is not None and "not a video" in job.error and "\n" not in job.error
    assert not UploadFiles(media_settings.media_dir).source(job_id).exists()
    assert not MediaStore(media_settings.media_dir).directory(job.asset_id or "x").exists()


async def test_a_stopping_process_hands_its_running_job_back_to_the_queue(database, media_settings, tmp_path):
    job_id = await queued_job(database, media_settings, make_video(tmp_path / "long.mp4", seconds=30, size="1280x720"))
    runner = Transcoding(media_settings, database, holder="process-a")
    await runner.round()
    await asyncio.sleep(0.5)
    await runner.close()
    job = await job_row(database, job_id)
    assert (job.state, job.holder, job.attempts) == ("queued", None, 0)
    assert not (media_settings.media_dir / "transcoding" / job_id).exists()


async def live_event_with_a_recording(database, settings: Settings, tmp_path: Path) -> tuple[str, str]:
    """A live event playing its live input's recording, as the ingest writes one: a run of each
    rendition (`run-1.m3u8`, `r1-<k>.ts`) and recording.json; (event id, asset id)."""
    async with database.session() as db:
        event = factories.event(db, "Recorded live", status="live", when=clock.now() - timedelta(minutes=5))
        asset = MediaAsset(id=new_id(), kind="live", event_id=event.id, state="live")
        db.add(asset)
        event.hls_stream = f"/media/live/{asset.id}.m3u8"
        await db.commit()
    CREATED.append((database, event.id))
    directory = MediaStore(settings.media_dir).make_directory(asset.id)
    source = make_video(tmp_path / "feed.mp4", seconds=5, size="640x360", black_seconds=1)
    ladder = plan(Source(640, 360, 25, has_audio=True))
    for rendition in ladder:
        (directory / rendition.name).mkdir()
    command = live_hls_command(LiveInput(str(source), has_audio=True), directory, ladder, run=1)
    await asyncio.to_thread(subprocess.run, command, check=True, capture_output=True)
    (directory / RECORDING_FILE).write_bytes(RecordingInfo(7200, 2.0, tuple(asdict(r) for r in ladder)).dumps())
    (directory / measure.PLAYLIST).write_text("#EXTM3U\n")  # the feed's master (its content is not read here)
    return event.id, asset.id


async def test_a_finished_live_recording_gets_a_poster_and_thumbnails_and_stays_the_archive(
    database, media_settings, tmp_path
):
    event_id, asset_id = await live_event_with_a_recording(database, media_settings, tmp_path)
    async with database.write_session() as db:
        await event_admin.finish(db, event_id, media=event_admin.Media.of(media_settings))
    async with database.session() as db:
        [job] = (await db.scalars(select(MediaJob).where(MediaJob.asset_id == asset_id))).all()
    assert (job.kind, job.state) == ("previews", "queued")
    runner = Transcoding(media_settings, database, holder="process-a")
    assert await runner.round() == [job.id]
    await runner.idle()
    assert (await job_row(database, job.id)).state == "done"
    asset = await asset_row(database, asset_id)
    assert asset is not None and (asset.kind, asset.state) == ("recording", "ready")
    assert asset.duration_ms == pytest.approx(5000, abs=300)
    directory = MediaStore(media_settings.media_dir).directory(asset_id)
    assert await previews.mean_luma(directory / previews.POSTER) >= previews.BLACK_LUMA
    vtt = (directory / previews.THUMBNAILS_VTT).read_text()
    assert "thumbs-001.jpg#xywh=0,0,160,90" in vtt and (directory / "thumbs-001.jpg").exists()
    assert (directory / "360p" / "index.m3u8").exists()  # the archive itself is untouched


async def test_cancelling_a_recordings_previews_leaves_the_recording(database, media_settings, tmp_path):
    event_id, asset_id = await live_event_with_a_recording(database, media_settings, tmp_path)
    async with database.write_session() as db:
        await event_admin.finish(db, event_id, media=event_admin.Media.of(media_settings))
    async with database.write_session() as db:
        job_id = await db.scalar(select(MediaJob.id).where(MediaJob.asset_id == asset_id))
        assert job_id is not None
        _, removed = await media_jobs.cancel(db, job_id)
        await db.commit()
    assert removed is None
    asset = await asset_row(database, asset_id)
    assert asset is not None and asset.state == "ready"
    assert (MediaStore(media_settings.media_dir).directory(asset_id) / "360p" / "index.m3u8").exists()


async def test_staff_watching_the_events_media_room_hear_the_job_start_move_on_and_end(
    database, media_settings, tmp_path
):
    job_id = await queued_job(database, media_settings, make_video(tmp_path / "a.mp4", seconds=3, size="320x180"))
    job = await job_row(database, job_id)
    runner = Transcoding(media_settings, database, holder="process-a", on_change=announce_media_job)
    with recording_socket() as socket:
        await runner.round()
        await runner.idle()
    heard = [(data["state"], data["percent"]) for name, data, room in socket.sent if room == f"media:{job.event_id}"]
    assert heard[0] == ("running", 0.0)
    assert heard[-1] == ("done", 100.0)
    assert all(name == "media-job-change" for name, _, room in socket.sent if room == f"media:{job.event_id}")
