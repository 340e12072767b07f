"""Runs the transcoding queue's jobs (issue 29 §2) in this process, as many at a time across the
whole cluster as TOUCHLINE_TRANSCODE_CONCURRENCY says.

Each of the N places is a lease of `job_leases` (`transcode:<k>`, server.services.job_runs): a
process that takes place k may take one job (server.services.media_jobs.claim). So N jobs run at
once whatever the number of processes, and a process that dies frees its place and its job when
their leases run out; another process then runs the job again from the start.

A job, in a working directory of its own (`<media dir>/transcoding/<job id>/`, never served):

1. checks its source again (ffprobe) and plans the ladder, never upscaled (packaging.ladder);
2. transcodes it to HLS VOD (packaging.vod_hls), its percent and ETA from ffmpeg's `-progress`;
3. measures the renditions and writes the master with their real BANDWIDTH, CODECS, RESOLUTION
   and FRAME-RATE (packaging.measure);
4. makes the poster and the seek-preview thumbnails (packaging.previews);
5. describes it as a live recording is described (`recording.json`: its renditions), so cuts and
   clips of it are ranges of it as of a recording, then renames the directory into place as the
   asset's and marks job and asset done, together.

A heartbeat renews the job's lease and records its progress every HEARTBEAT_SECONDS; when the job
is no longer this process's (cancelled by staff) the work stops, ffmpeg is killed and the working
directory removed. Nothing is published before step 5, and a job another process finished or
cancelled meanwhile does not keep this one's output.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ..db import Database
from ..media.assets.store import MediaStore, store_of
from ..media.packaging import measure, previews
from ..media.packaging.ladder import Rendition, plan
from ..media.packaging.live_previews import remove_live_pictures
from ..media.packaging.progress import snapshots
from ..media.packaging.supervisor import dies_with_parent
from ..media.packaging.vod_hls import VodInput, vod_hls_command
from ..media.playlists import parse_vod_playlist
from ..media.recordings import RECORDING_FILE, RecordingInfo
from ..media.sources.upload_files import Refused, UploadFiles, check_video
from ..realtime.announcements import announce_media_job
from ..services import job_runs, media_jobs
from ..settings import Settings
from . import publishing

log = logging.getLogger(__name__)

POLL_SECONDS = 3.0
HEARTBEAT_SECONDS = 2.0
JOB_LEASE_SECONDS = 15.0  # a job whose process stopped renewing it for this long is run again
STOP_WAIT_SECONDS = 5.0
WORK = "transcoding"
# The share of a job's percent the transcode itself takes; previews and publishing the rest.
TRANSCODE_SHARE = 90.0


def place_name(place: int) -> str:
    return f"transcode:{place}"


@dataclass
class Progress:
    percent: float = 0.0
    eta_seconds: int | None = None


class JobLost(Exception):
    """The job is no longer this process's (cancelled, or taken over after a stall)."""


class Transcoding:
    def __init__(
        self,
        settings: Settings,
        database: Database,
        *,
        holder: str | None = None,
        ffmpeg: str = "ffmpeg",
        ffprobe: str = "ffprobe",
        poll_seconds: float = POLL_SECONDS,
        on_change: Callable[[media_jobs.JobView], Awaitable[None]] | None = None,
    ):
        self.settings = settings
        self.database = database
        self.holder = holder or job_runs.new_holder()
        self.ffmpeg, self.ffprobe = ffmpeg, ffprobe
        self.poll_seconds = poll_seconds
        self.store: MediaStore = store_of(settings)
        self.files = UploadFiles(settings.media_dir)
        self.work_root = Path(settings.media_dir) / WORK
        self.places: dict[int, asyncio.Task] = {}  # place -> the task running a job there
        self._wake = asyncio.Event()
        self._on_change = on_change

    def wake(self) -> None:
        """A job was queued or cancelled here: look at once rather than at the next poll."""
        self._wake.set()

    async def run_forever(self) -> None:
        while True:
            try:
                await self.round()
            except Exception:  # a database hiccup: the next round tries again
                log.exception("transcoding round failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
            self._wake.clear()

    async def round(self) -> list[str]:
        """Take jobs for the free places this process can get; the ids taken."""
        taken: list[str] = []
        if len(self.places) >= self.settings.transcode_concurrency or not await media_jobs.any_waiting(self.database):
            return taken  # a read: an idle queue costs no write per round
        for place in range(self.settings.transcode_concurrency):
            if place in self.places:
                continue
            if not await job_runs.claim(self.database, place_name(place), self.holder, HEARTBEAT_SECONDS):
                continue
            job = await media_jobs.claim(self.database, self.holder, JOB_LEASE_SECONDS)
            if job is None:
                await job_runs.release(self.database, place_name(place), self.holder)
                break
            taken.append(job.id)
            task = asyncio.create_task(self._run(job, place), name=f"transcode-{job.id}")
            self.places[place] = task
        return taken

    async def idle(self) -> None:
        """Until every job this process runs has ended (tests)."""
        while self.places:
            await asyncio.gather(*self.places.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop: running jobs go back to the queue at once (another process takes them)."""
        tasks = list(self.places.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, job: media_jobs.JobView, place: int) -> None:
        work = self.work_root / job.id
        progress = Progress()
        main = asyncio.current_task()
        assert main is not None
        lost = asyncio.Event()

        async def heartbeat() -> None:
            while True:
                await asyncio.sleep(HEARTBEAT_SECONDS)
                ours = await media_jobs.progress(
                    self.database,
                    job.id,
                    self.holder,
                    percent=progress.percent,
                    eta_seconds=progress.eta_seconds,
                    lease_seconds=JOB_LEASE_SECONDS,
                )
                await job_runs.claim(self.database, place_name(place), self.holder, HEARTBEAT_SECONDS)
                await self._changed(job.id)
                if not ours:
                    lost.set()
                    main.cancel()
                    return

        beating = asyncio.create_task(heartbeat(), name=f"transcode-heartbeat-{job.id}")
        try:
            await self._changed(job.id)
            make = self._previews if job.kind == media_jobs.PREVIEWS else self._transcode
            await make(job, work, progress)
        except asyncio.CancelledError:
            if not lost.is_set():  # this process is stopping: the job goes back to the queue
                await asyncio.shield(media_jobs.requeue(self.database, job.id, self.holder))
                raise
            log.info("transcoding job %s stopped: cancelled or taken over", job.id)
        except JobLost:
            log.info("transcoding job %s ended elsewhere first: its output is not kept", job.id)
        except (Refused, previews.PreviewFailed, TranscodeFailed) as failed:
            await media_jobs.fail(self.database, job.id, self.holder, str(failed))
            self.files.remove_source(job.id)
        except Exception as unexpected:
            log.exception("transcoding job %s failed", job.id)
            await media_jobs.fail(self.database, job.id, self.holder, f"Internal error: {type(unexpected).__name__}")
            self.files.remove_source(job.id)
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beating
            await asyncio.to_thread(shutil.rmtree, work, True)
            self.places.pop(place, None)
            with contextlib.suppress(Exception):
                await job_runs.release(self.database, place_name(place), self.holder)
            with contextlib.suppress(Exception):
                await self._changed(job.id)
            self.wake()  # the place is free: the next job may start

    async def _changed(self, job_id: str) -> None:
        if self._on_change is None:
            return
        with contextlib.suppress(Exception):
            async with self.database.session() as db:
                view = await media_jobs.get(db, job_id)
            await self._on_change(view)

    async def _transcode(self, job: media_jobs.JobView, work: Path, progress: Progress) -> None:
        if job.asset_id is None:
            raise TranscodeFailed("The job's asset is gone")
        source = self.files.source(job.id)
        if not source.exists():
            raise TranscodeFailed("The uploaded file is gone")
        await asyncio.to_thread(shutil.rmtree, work, True)  # an earlier run's leftovers
        await asyncio.to_thread(work.mkdir, parents=True)
        checked = await check_video(source, ffprobe=self.ffprobe, ffmpeg=self.ffmpeg)
        renditions = plan(checked.source)
        for rendition in renditions:
            await asyncio.to_thread((work / rendition.name).mkdir)
        command = vod_hls_command(
            VodInput(source, checked.source.has_audio),
            work,
            renditions,
            segment_seconds=self.settings.live_segment_seconds,
            loudnorm=self.settings.transcode_loudnorm,
            preset=self.settings.x264_preset,
            ffmpeg=self.ffmpeg,
        )
        await _run_ffmpeg(command, checked.duration_seconds, progress)
        measured = [measure.measure(work, measure.Picture(r.name, r.width, r.height, r.fps)) for r in renditions]
        (work / measure.PLAYLIST).write_text(measure.master_playlist(measured))
        progress.percent, progress.eta_seconds = TRANSCODE_SHARE, None
        largest, smallest = renditions[0], renditions[-1]
        await previews.make_poster(
            work / largest.name / measure.PLAYLIST,
            checked.duration_seconds,
            work,
            ffmpeg=self.ffmpeg,
            ffprobe=self.ffprobe,
        )
        await previews.make_thumbnails(
            work / smallest.name / measure.PLAYLIST,
            checked.duration_seconds,
            smallest.width,
            smallest.height,
            work,
            ffmpeg=self.ffmpeg,
        )
        # Described as a recording is: cuts and clips of it are ranges of its renditions (clips.py).
        info = RecordingInfo(
            0, self.settings.live_segment_seconds, tuple(asdict(r) for r in renditions), checked.source.has_audio
        )
        (work / RECORDING_FILE).write_bytes(info.dumps())
        await asyncio.to_thread(self._publish, work, job.asset_id)
        duration_ms = round(checked.duration_seconds * 1000)
        if not await media_jobs.finish(self.database, job.id, self.holder, duration_ms=duration_ms):
            await asyncio.to_thread(self.store.remove, job.asset_id)  # cancelled meanwhile: not published
            raise JobLost()
        self.files.remove_source(job.id)
        log.info("transcoding job %s done: asset %s, %d renditions", job.id, job.asset_id, len(renditions))
        await publishing.attach_as_declared(self.database, self.settings, job)

    async def _previews(self, job: media_jobs.JobView, work: Path, progress: Progress) -> None:
        """A finished live recording's poster and thumbnails, from its own renditions, added to its
        directory (it plays throughout: nothing else of it changes)."""
        if job.asset_id is None:
            raise TranscodeFailed("The job's asset is gone")
        directory = self.store.directory(job.asset_id)
        try:
            info, duration = await asyncio.to_thread(_recorded_ladder, directory)
        except (OSError, ValueError, KeyError) as unreadable:
            raise TranscodeFailed(f"The recording cannot be read: {unreadable}") from None
        await asyncio.to_thread(shutil.rmtree, work, True)
        await asyncio.to_thread(work.mkdir, parents=True)
        largest, smallest = info.renditions[0], info.renditions[-1]
        await previews.make_poster(
            directory / largest["name"] / measure.PLAYLIST, duration, work, ffmpeg=self.ffmpeg, ffprobe=self.ffprobe
        )
        progress.percent = 50.0
        await previews.make_thumbnails(
            directory / smallest["name"] / measure.PLAYLIST,
            duration,
            int(smallest["width"]),
            int(smallest["height"]),
            work,
            ffmpeg=self.ffmpeg,
        )
        await asyncio.to_thread(_move_files, work, directory)
        await asyncio.to_thread(remove_live_pictures, directory)  # the sheets replace the live pictures
        if not await media_jobs.finish(self.database, job.id, self.holder, duration_ms=round(duration * 1000)):
            raise JobLost()
        await publishing.refresh_archive_poster(self.database, self.settings, job.asset_id)

    def _publish(self, work: Path, asset_id: str) -> None:
        """The working directory becomes the asset's, in one rename (same file system)."""
        self.store.root.mkdir(parents=True, exist_ok=True)
        self.store.remove(asset_id)
        work.rename(self.store.directory(asset_id))


class TranscodeFailed(Exception):
    pass


def _recorded_ladder(directory: Path) -> tuple[RecordingInfo, float]:
    """A recording's renditions (largest first, as planned) and its length in seconds."""
    info = RecordingInfo.loads((directory / RECORDING_FILE).read_bytes())
    if not info.renditions:
        raise ValueError("no renditions")
    smallest = info.renditions[-1]["name"]
    vod = parse_vod_playlist((directory / smallest / measure.PLAYLIST).read_text())
    if vod.duration <= 0:
        raise ValueError("an empty recording")
    return info, vod.duration


def _move_files(source: Path, target: Path) -> None:
    """Every file of `source` into `target`, each renamed into place (a reader sees whole files)."""
    for path in source.iterdir():
        path.replace(target / path.name)


def _write_master(work: Path, renditions: tuple[Rendition, ...]) -> None:
    """The master playlist, from what each rendition's files measure."""
    measured = [measure.measure(work, measure.Picture(r.name, r.width, r.height, r.fps)) for r in renditions]
    (work / measure.PLAYLIST).write_text(measure.master_playlist(measured))


async def _run_ffmpeg(command: list[str], duration: float, progress: Progress) -> None:
    """Run ffmpeg to its end, following its progress; TranscodeFailed with its reason in one line."""
    # A killed server's ffmpeg must not go on writing where the job's next run writes.
    process = await asyncio.create_subprocess_exec(
        *dies_with_parent(command),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    errors: deque[str] = deque(maxlen=5)

    async def read_errors() -> None:
        assert process.stderr is not None
        async for line in process.stderr:
            text = line.decode(errors="replace").strip()
            if text:
                errors.append(text)

    async def lines():
        assert process.stdout is not None
        async for line in process.stdout:
            yield line.decode(errors="replace")

    reading = asyncio.create_task(read_errors())
    try:
        started = time.monotonic()
        async for snap in _snapshots(lines()):
            done = min(snap.out_seconds, duration)
            progress.percent = TRANSCODE_SHARE * done / duration if duration > 0 else 0.0
            rate = snap.speed or (done / (time.monotonic() - started) if done > 0 else None)
            progress.eta_seconds = round((duration - done) / rate) if rate else None
        code = await process.wait()
    finally:
        if process.returncode is None:
            await _stop(process)
        await reading
    if code != 0:
        raise TranscodeFailed(f"ffmpeg failed: {errors[-1][:300] if errors else f'exit {code}'}")


async def _snapshots(lines):
    """packaging.progress.snapshots over an async stream of lines."""
    block: list[str] = []
    async for line in lines:
        block.append(line)
        if line.startswith("progress="):
            for snap in snapshots(block):
                yield snap
            block = []


async def _stop(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), STOP_WAIT_SECONDS)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


_current: Transcoding | None = None


def current() -> Transcoding | None:
    """This process's runner, when it transcodes (handlers wake it when they queue or cancel)."""
    return _current


@contextlib.asynccontextmanager
async def running(settings: Settings, database: Database):
    """Run the queue in this process for the app's lifetime (nothing when concurrency is 0)."""
    global _current  # one per process, like the live inputs: handlers find it here
    if settings.transcode_concurrency <= 0:
        yield None
        return
    transcoding = Transcoding(settings, database, on_change=announce_media_job)
    _current = transcoding
    loop = asyncio.create_task(transcoding.run_forever(), name="transcoding")
    try:
        yield transcoding
    finally:
        _current = None
        loop.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await loop
        await transcoding.close()
