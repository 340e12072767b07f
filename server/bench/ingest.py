"""`python -m server.bench.ingest`: what live ingest costs and how fast it is (issue 28's benchmark).

- Transcoder speed: the live packager's own ffmpeg command (server.media.packaging.live_hls) on
  a 30 s test source as fast as it can go, for a 720p30 source (720p, 360p and 234p) and a 360p
  source (360p, 234p): × real time, and the CPU it takes per second of video (cores). From the
  CPU, how many such inputs this machine sustains at ≥ 1.0× real time; then that many at once,
  in real time, each reporting its own speed.
- Timings through the real chain, as `make run` serves it: the app under uvicorn with nginx-rtmp
  as its child, ffmpeg publishing a 720p30 test pattern with a stream key to an upcoming event
  near its kickoff: from the first published frame to the event's live master answering (the
  event is live and playable), from finish to the archive's playlist answering as VOD, and what
  was published before finish but is not in the archive (the start's loss and the frames in the
  transcoder at finish).
  The glass-to-glass latency in Chromium is measured by the webapp's bench (`BENCH_ONLY=latency`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

from server.media.packaging.ladder import Source, plan
from server.media.packaging.live_hls import LiveInput, live_hls_command

from .servers import free_port, fresh_sqlite_database

SECONDS = 30
REPO = Path(__file__).resolve().parents[2]


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def _pattern(width: int, height: int, seconds: int, *, real_time: bool) -> LiveInput:
    source = f"testsrc2=size={width}x{height}:rate=30:duration={seconds}"
    options = ("-re",) if real_time else ()
    return LiveInput(source, has_audio=False, options=(*options, "-f", "lavfi"))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def transcode_speed(width: int, height: int) -> tuple[float, float]:
    """(× real time, cores per second of video) of the packager's ffmpeg for this source."""
    ladder = plan(Source(width, height, 30, has_audio=False))
    with tempfile.TemporaryDirectory() as out:
        command = live_hls_command(_pattern(width, height, SECONDS, real_time=False), Path(out), ladder)
        cpu, started = _children_cpu(), time.monotonic()
        subprocess.run(command, check=True, capture_output=True)
        wall, cpu = time.monotonic() - started, _children_cpu() - cpu
    return SECONDS / wall, cpu / SECONDS


def concurrent_speeds(width: int, height: int, count: int) -> list[float]:
    """`count` real-time inputs at once: each one's steady speed, the video it wrote per second of
    wall clock over its last STEADY_SECONDS (1.0x: it keeps up). ffmpeg's own `speed=` divides by
    the time since it started, so its start-up (the encoder's lookahead) shows as a lasting 0.85x."""
    ladder = plan(Source(width, height, 30, has_audio=False))
    with tempfile.TemporaryDirectory() as out:
        processes = []
        for i in range(count):
            directory = Path(out) / str(i)
            directory.mkdir()
            command = live_hls_command(_pattern(width, height, 25, real_time=True), directory, ladder)
            processes.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
        readers = [ThreadPoolExecutor(1).submit(_progress_times, process) for process in processes]
        return [_steady_speed(reader.result()) for reader in readers]


STEADY_SECONDS = 10.0
MOST_AT_ONCE = 8


def _progress_times(process: subprocess.Popen) -> list[tuple[float, float]]:
    """(wall clock, seconds of video written) at each of ffmpeg's progress reports, as they come."""
    assert process.stdout is not None
    times = []
    for line in process.stdout:
        if line.startswith("out_time_us="):
            with contextlib.suppress(ValueError):
                times.append((time.monotonic(), int(line.split("=", 1)[1]) / 1e6))
    process.wait()
    return times


def _steady_speed(times: list[tuple[float, float]]) -> float:
    if len(times) < 2:
        return 0.0
    end_wall, end_video = times[-2]  # the last report comes as ffmpeg flushes: not a steady one
    start_wall, start_video = next(((w, v) for w, v in times if w >= end_wall - STEADY_SECONDS), times[0])
    return (end_video - start_video) / (end_wall - start_wall) if end_wall > start_wall else 0.0


async def chain_timings(url: str, workdir: Path) -> tuple[float, float, float]:
    """(first frame to playable live, finish to playable archive, published but not archived), seconds,
    through the real chain."""
    import httpx
    import uvicorn

    from server import clock
    from server.app import create_app
    from server.db import Database
    from server.ingest import live_inputs
    from server.media.delivery.signing import sign_stream
    from server.media.sources.rtmp import RtmpIngest
    from server.models import Event, new_id
    from server.services import event_admin, stream_keys
    from server.settings import Settings

    port, srt_port = free_port(), free_port()
    settings = Settings(
        database_url=url,
        port=port,
        var_dir=workdir,
        rtmp_port=free_port(),
        srt_ports=f"{srt_port}-{srt_port}",
        ingest_enabled=True,
    )
    database = Database(url)
    async with database.session() as db:
        event = Event(
            id=new_id(),
            media_type="event",
            title="Ingest bench",
            event_date=clock.now() + timedelta(minutes=5),
            external_id="TL-BENCH-INGEST",
            reference_id="ref-bench-ingest",
            sport_type="football",
            event_type="game",
            status="upcoming",
            commerce_type="commerce_free_media",
            commerce_modes=[],
            regions=[],
            available_in_region=True,
            search_text="",
            created=clock.now(),
            updated=clock.now(),
        )
        db.add(event)
        await db.commit()
        event_id = event.id
    async with database.write_session() as db:
        key = (await stream_keys.create(db, event_id, settings=settings, actor=None)).key
    server = uvicorn.Server(uvicorn.Config(create_app(settings, database), port=port, log_level="warning"))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    ingest = RtmpIngest("127.0.0.1", settings.rtmp_port, "", "")
    try:
        await asyncio.sleep(1.0)  # nginx is up
        publisher = await asyncio.create_subprocess_exec(
            *("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-re"),
            *("-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=40"),
            *("-f", "lavfi", "-i", "sine=frequency=440:duration=40"),
            *("-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-g", "60", "-pix_fmt", "yuv420p"),
            *("-c:a", "aac", "-f", "flv", ingest.publish_url(key)),
        )
        published = time.monotonic()
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            playable = await _until_playable(database, event_id, settings, http)
            first_frame_to_live = playable - published
            log(f"first frame to playable live: {first_frame_to_live:.1f} s")
            await asyncio.sleep(15)
            finish_started = time.monotonic()
            await live_inputs.stop_for_finish(database, event_id, live_inputs.current())
            async with database.write_session() as db:
                await event_admin.finish(db, event_id, media=event_admin.Media.of(settings))
            async with database.session() as db:
                finished = await db.get(Event, event_id)
                assert finished is not None
                vod = sign_stream(finished.hls_stream, settings=settings)
            assert vod is not None
            while (await http.get(vod)).status_code != 200:
                await asyncio.sleep(0.1)
            finish_to_archive = time.monotonic() - finish_started
            # What the archive misses of what was published before finish: the start's loss, and
            # the frames still in the transcoder at finish (its pipeline and the open segment).
            archived = sum(
                float(line.removeprefix("#EXTINF:").rstrip(","))
                for line in (await http.get(vod.replace("index.m3u8", "360p/index.m3u8"))).text.splitlines()
                if line.startswith("#EXTINF:")
            )
            missed = (finish_started - published) - archived
            log(f"published before finish but not in the archive: {missed:.1f} s")
        publisher.kill()
        await publisher.wait()
        return first_frame_to_live, finish_to_archive, missed
    finally:
        server.should_exit = True
        await serving
        await database.dispose()


async def _until_playable(database, event_id: str, settings, http) -> float:
    from server.media.delivery.signing import sign_stream
    from server.models import Event

    while True:
        async with database.session() as db:
            event = await db.get(Event, event_id, populate_existing=True)
        if event is not None and event.status == "live" and event.hls_stream:
            signed = sign_stream(event.hls_stream, settings=settings)
            if signed and (await http.get(signed)).status_code == 200:
                return time.monotonic()
        await asyncio.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--timings-only", action="store_true", help="only the timings through the chain")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    figures: dict = {"cores": cores}
    for width, height in () if args.timings_only else ((1280, 720), (640, 360)):
        speed, cpu = transcode_speed(width, height)
        sustained = max(0, int(cores / cpu)) if cpu > 0 else 0
        log(f"{height}p30 source: {speed:.2f}x real time, {cpu:.2f} cores per live input; about {sustained} at once")
        # What the CPU suggests, and one more: the first count that falls behind real time.
        at_once = {}
        for count in (max(1, min(sustained, MOST_AT_ONCE)), max(1, min(sustained, MOST_AT_ONCE)) + 1):
            at_once[count] = concurrent_speeds(width, height, count)
            speeds = ", ".join(f"{s:.2f}x" for s in at_once[count])
            log(f"  {count} at once in real time: steady speeds {speeds}")
        figures[f"{height}p"] = {"speed": speed, "cores": cpu, "sustained": sustained, "at_once": at_once}
    workdir = Path(tempfile.mkdtemp(prefix="touchline-bench-ingest-"))
    url = fresh_sqlite_database(workdir / "ingest.db")  # migrated before the bench's event loop runs
    live, archive, missed = asyncio.run(chain_timings(url, workdir))
    figures["first_frame_to_live_s"], figures["finish_to_archive_s"] = live, archive
    figures["published_not_archived_s"] = missed
    log(f"finish to playable archive: {archive:.1f} s")
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
