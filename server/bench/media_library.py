"""`python -m server.bench.media_library`: what the media library costs (issue 29's benchmark).

- Transcoding speed: the queue's own ffmpeg command (server.media.packaging.vod_hls) on a 30 s
  720p30 file with sound, into the default ladder (720p, 360p, 234p, loudness-normalised), as
  fast as it goes: × real time and the cores it keeps busy; then each rendition alone.
- Uploads: one tus PATCH of 2 GiB over loopback to a server as `touchline serve` runs it: its
  throughput (MB/s), and the server's resident memory before, at its highest during, and after
  the upload (it must stay flat: the body is streamed to disk, never held).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

from server.media.packaging.ladder import Source, plan
from server.media.packaging.vod_hls import VodInput, vod_hls_command

from .fanout import SECRET, prepare_database
from .servers import run_server

SECONDS = 30
UPLOAD_BYTES = 2 * 1024**3
PIECE = 1024 * 1024


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _source(directory: Path) -> Path:
    path = directory / "source.mp4"
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
         "-f", "lavfi", "-i", f"testsrc2=size=1280x720:rate=30:duration={SECONDS}",
         "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=48000:duration={SECONDS}",
         "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", str(path)],
        check=True,
    )  # fmt: skip
    return path


def transcode(source: Path, renditions) -> tuple[float, float]:
    """(× real time, cores busy) of the queue's ffmpeg for `renditions` of `source`."""
    with tempfile.TemporaryDirectory() as out:
        for rendition in renditions:
            (Path(out) / rendition.name).mkdir()
        command = vod_hls_command(VodInput(source, has_audio=True), Path(out), renditions)
        cpu, started = _children_cpu(), time.monotonic()
        subprocess.run(command, check=True, capture_output=True)
        wall, cpu = time.monotonic() - started, _children_cpu() - cpu
    return SECONDS / wall, cpu / wall


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def upload_figures(base_url: str, token: str, pid: int) -> dict:
    headers = {"Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0"}
    peak, stop = [0.0], threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _rss_mb(pid))
            time.sleep(0.1)

    async with aiohttp.ClientSession() as http:
        made = await http.post(
            f"{base_url}/api/admin/events",
            json={"title": "Upload bench", "event_date": "2026-12-05T15:00:00Z", "sportType": "football"},
            headers={"Authorization": f"Bearer {token}"},
        )
        event_id = (await made.json())["content"]["_id"]
        metadata = f"event {base64.b64encode(event_id.encode()).decode()}"
        # One byte more than is sent: the upload stays unfinished, so no check reads 2 GiB of zeros.
        created = await http.post(
            f"{base_url}/api/admin/uploads",
            headers={**headers, "Upload-Length": str(UPLOAD_BYTES + 1), "Upload-Metadata": metadata},
        )
        assert created.status == 201, await created.text()
        location = base_url + created.headers["Location"]
        piece = os.urandom(PIECE)

        async def body():
            for _ in range(UPLOAD_BYTES // PIECE):
                yield piece

        before = _rss_mb(pid)
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        started = time.monotonic()
        answer = await http.patch(
            location,
            data=body(),
            headers={**headers, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"},
        )
        seconds = time.monotonic() - started
        stop.set()
        watcher.join()
        assert answer.status == 204 and answer.headers["Upload-Offset"] == str(UPLOAD_BYTES), await answer.text()
        after = _rss_mb(pid)
        await http.delete(location, headers=headers)
    return {
        "upload_mb_per_s": UPLOAD_BYTES / 1e6 / seconds,
        "rss_before_mb": before,
        "rss_peak_mb": peak[0],
        "rss_after_mb": after,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    figures: dict = {"cores": os.cpu_count() or 1}
    workdir = Path(tempfile.mkdtemp(prefix="touchline-bench-media-"))
    source = _source(workdir)
    ladder = plan(Source(1280, 720, 30, has_audio=True))
    speed, cores = transcode(source, ladder)
    figures["ladder"] = {"speed": speed, "cores": cores}
    log(f"720p30 file into {', '.join(r.name for r in ladder)}: {speed:.2f}x real time, {cores:.2f} cores busy")
    for rendition in ladder:
        speed, cores = transcode(source, (rendition,))
        figures[rendition.name] = {"speed": speed, "cores": cores}
        log(f"  {rendition.name} alone: {speed:.2f}x real time, {cores:.2f} cores busy")

    url, token = prepare_database(workdir / "db")
    env = {
        "TOUCHLINE_ENVIRONMENT": "test",
        "TOUCHLINE_DATABASE_URL": url,
        "TOUCHLINE_SECRET_KEY": SECRET,
        "TOUCHLINE_MEDIA_DIR": str(workdir / "media"),
        "TOUCHLINE_TRANSCODE_CONCURRENCY": "0",
    }
    with run_server("server.bench.servers:touchline_app", env=env, ready_path="/api/health") as server:
        upload = asyncio.run(upload_figures(server.base_url, token, server.pid))
    figures["upload"] = upload
    log(
        f"2 GiB tus upload over loopback: {upload['upload_mb_per_s']:.0f} MB/s; server memory "
        f"{upload['rss_before_mb']:.0f} MB before, {upload['rss_peak_mb']:.0f} MB at most during, "
        f"{upload['rss_after_mb']:.0f} MB after"
    )
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
