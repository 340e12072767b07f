"""The media library on `touchline cluster` (issue 29): an upload through HAProxy (whichever
process answers each request) is transcoded once; killing the process that transcodes it mid-job
hands the job to the other process, which runs it again and publishes it once.

Needs PostgreSQL, redis-server, haproxy and ffmpeg (REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 turn
skips into failures, as in CI)."""

import asyncio
import json
import os
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from server import clock
from server.models import MediaJob
from server.tests import factories
from server.tests.accounts import PASSWORD
from server.tests.billing import database_at
from server.tests.media.sources.videos import make_video
from server.tests.realtime.support import RedisServer, redis_server_binary

from .cluster_support import eventually, running_cluster

pytestmark = pytest.mark.asyncio(loop_scope="session")
runner = CliRunner()


async def upload(cluster, video: Path, event_id: str) -> dict:
    env = {
        "TOUCHLINE_API_URL": cluster.url,
        "TOUCHLINE_STAFF_EMAIL": cluster.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
        "TOUCHLINE_API_KEY": None,
    }
    args = ["media", "upload", str(video), "--event", event_id, "--json", "--no-wait"]  # the test follows the job
    result = await asyncio.to_thread(runner.invoke, app, args, env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


async def job_of(database, job_id: str) -> MediaJob:
    async with database.session() as db:
        job = await db.get(MediaJob, job_id)
        assert job is not None
        return job


def holder_pid(holder: str | None) -> int:
    """The pid in a holder's name (`host:pid:random`, server.services.job_runs.new_holder)."""
    assert holder is not None
    return int(holder.split(":")[-2])


async def test_an_upload_is_transcoded_once_and_survives_the_death_of_its_process(tmp_path):
    redis_server = RedisServer(redis_server_binary()).start()
    env = {"TOUCHLINE_MEDIA_DIR": str(tmp_path / "media"), "TOUCHLINE_INGEST_ENABLED": "false"}
    try:
        async with (
            running_cluster(tmp_path, redis_server.url, env) as cluster,
            database_at(cluster.database_url) as database,
        ):
            async with database.session() as db:
                event = factories.event(db, "Cluster upload", status="archived", when=clock.now())
                await db.commit()
                event_id = event.id

            # A long enough transcode to kill its process half way (720p, 40 s: about 16 s).
            video = await asyncio.to_thread(make_video, tmp_path / "match.mp4", seconds=40, size="1280x720")
            uploaded = await upload(cluster, video, event_id)

            async def half_way() -> MediaJob | None:
                job = await job_of(database, uploaded["job"])
                return job if job.state == "running" and job.percent >= 20 else None

            running = await eventually(half_way, timeout=60)
            assert running, await job_of(database, uploaded["job"])
            first = holder_pid(running.holder)
            os.kill(first, signal.SIGKILL)

            async def done() -> MediaJob | None:
                job = await job_of(database, uploaded["job"])
                return job if job.state in ("done", "failed") else None

            finished = await eventually(done, timeout=120)
            assert finished and finished.state == "done", await job_of(database, uploaded["job"])
            assert finished.attempts == 2 and holder_pid(finished.holder) != first
            master = (tmp_path / "media" / "assets" / uploaded["asset"] / "index.m3u8").read_text()
            assert master.count("#EXT-X-STREAM-INF") == 3
            assert not (tmp_path / "media" / "transcoding" / uploaded["job"]).exists()
    finally:
        redis_server.stop()
