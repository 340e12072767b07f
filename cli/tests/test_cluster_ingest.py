"""Live ingest in `touchline cluster` (issue 28 §6): the launcher runs one nginx-rtmp for the
cluster, whose hooks reach the processes through HAProxy; one process transcodes the feed (the
holder of its lease); when that process is killed, its ffmpeg dies with it and another process
continues the same recording well within the reconnect grace, the event on air throughout; and
staff finish it through the balancer, whichever process answers.

Needs PostgreSQL, redis-server, haproxy, nginx with its RTMP module and ffmpeg
(REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 turn skips into failures, as in CI)."""

import asyncio
import os
import signal
import subprocess
import time
from datetime import timedelta
from pathlib import Path

import pytest

from server import clock
from server.ingest import live_inputs
from server.media.recordings import recorded
from server.media.sources.rtmp import RtmpIngest
from server.models import Event, JobLease
from server.tests import factories
from server.tests.billing import database_at
from server.tests.ingest.test_live_inputs import publish
from server.tests.media.sources.test_rtmp import free_port
from server.tests.media.tools import nginx_with_rtmp
from server.tests.realtime.support import RedisServer, redis_server_binary

from .cluster_support import eventually, pid_on, running_cluster

pytestmark = pytest.mark.asyncio(loop_scope="session")

GRACE_S = 60


def ffmpeg_children(pid: int) -> set[int]:
    """The ffmpeg processes `pid` started (setpriv execs ffmpeg in its own place: same pid)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False).stdout.split()
    return {int(child) for child in found if Path(f"/proc/{child}/comm").read_text().strip() == "ffmpeg"}


def alive(pid: int) -> bool:
    """Running: a process that has exited but is not reaped yet (a zombie, whose parent was the
    killed server) runs no more, though a signal still finds it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


async def test_a_killed_transcoding_process_hands_its_feed_to_another_and_staff_finish_it_anywhere(tmp_path):
    nginx_with_rtmp()  # fails (in CI) or skips without nginx's RTMP module
    media_dir, rtmp_port, srt_port = tmp_path / "media", free_port(), free_port()
    redis_server = RedisServer(redis_server_binary()).start()
    env = {
        "TOUCHLINE_MEDIA_DIR": str(media_dir),
        "TOUCHLINE_INGEST_ENABLED": "true",
        "TOUCHLINE_RTMP_PORT": str(rtmp_port),
        "TOUCHLINE_SRT_PORTS": f"{srt_port}-{srt_port}",
        "TOUCHLINE_INGEST_RECONNECT_SECONDS": str(GRACE_S),
    }
    try:
        async with running_cluster(tmp_path, redis_server.url, env) as cluster:

            async def described() -> bool:
                return f"rtmp://127.0.0.1:{rtmp_port}/live/<stream key>" in cluster.output()

            assert await eventually(described, timeout=10), cluster.output()
            async with database_at(cluster.database_url) as database:
                async with database.session() as db:
                    event = factories.event(
                        db, "Cluster ingest", status="upcoming", when=clock.now() + timedelta(minutes=2)
                    )
                    await db.commit()
                    event_id = event.id
                headers = {"Authorization": f"Bearer {await cluster.staff_token()}"}
                async with cluster.http.post(
                    f"{cluster.url}/api/admin/events/{event_id}/stream_keys", headers=headers
                ) as made:
                    assert made.status == 200, await made.text()
                    key = (await made.json())["content"]["key"]
                ingest = RtmpIngest("127.0.0.1", rtmp_port, "", "")
                encoder = asyncio.create_task(asyncio.to_thread(publish, ingest, key, 50, "320x180"))

                async def row() -> Event:
                    async with database.session() as db:
                        found = await db.get(Event, event_id, populate_existing=True)
                        assert found is not None
                        return found

                async def on_air():
                    return (await row()).status == "live"

                assert await eventually(on_air, timeout=40), cluster.output()
                asset_id = ((await row()).hls_stream or "").removeprefix("/media/live/").removesuffix(".m3u8")
                rendition = media_dir / "assets" / asset_id / "180p"

                async def lease_holder() -> str | None:
                    async with database.session() as db:
                        lease = await db.get(JobLease, live_inputs.lease_name(event_id), populate_existing=True)
                    return lease.holder if lease is not None and lease.expires_at > clock.now() else None

                holder = await lease_holder()
                assert holder is not None
                pid = int(holder.split(":")[1])
                assert pid in {await pid_on(port) for port in cluster.ports}  # a server process, not the launcher
                transcoders = ffmpeg_children(pid)
                assert transcoders, "the holder runs the feed's ffmpeg"

                async def recording_for(seconds: float):
                    return await asyncio.to_thread(
                        lambda: rendition.is_dir() and recorded(rendition).duration >= seconds
                    )

                assert await eventually(lambda: recording_for(4), timeout=20)
                before = recorded(rendition).duration

                os.kill(pid, signal.SIGKILL)
                killed_at = time.monotonic()

                async def transcoders_gone():
                    return not any(alive(p) for p in transcoders)

                # SIGTERM lets ffmpeg close its files: seconds on a busy two-core machine, so the bound is loose
                assert await eventually(transcoders_gone, timeout=30), "the killed process's ffmpeg went on"

                async def taken_over():
                    now_holder = await lease_holder()
                    return now_holder is not None and now_holder != holder and await recording_for(before + 4)

                assert await eventually(taken_over, timeout=40), cluster.output()
                assert time.monotonic() - killed_at < GRACE_S
                assert "#EXT-X-DISCONTINUITY" in (rendition / "index.m3u8").read_text()
                still = await row()
                assert still.status == "live" and still.live_feed is None
                assert still.hls_stream == f"/media/live/{asset_id}.m3u8"

                async with cluster.http.post(
                    f"{cluster.url}/api/admin/events/{event_id}/finish", headers=headers
                ) as done:
                    assert done.status == 200, await done.text()
                finished = await row()
                assert finished.status == "archived" and finished.hls_stream == f"/media/vod/{asset_id}/index.m3u8"
                archive = (rendition / "index.m3u8").read_text()
                assert "#EXT-X-PLAYLIST-TYPE:VOD" in archive and archive.endswith("#EXT-X-ENDLIST\n")
                assert finished.duration_s is not None and finished.duration_s >= before + 4
            encoder.cancel()
    finally:
        redis_server.stop()
