"""The transcoding queue as staff see it (issue 29 §2, §4): list and show jobs (support), cancel
one (admin). Cancelling removes what the job was making: its asset, its partial output (the
process running it stops ffmpeg at its next heartbeat) and the uploaded file."""

import asyncio

from ...media.assets.store import store_of
from ...media.sources.upload_files import UploadFiles
from ...services import media_jobs
from ...transcoding import runner
from ..http.audit import note_target
from ..http.context import settings, staff
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok


def present(job: media_jobs.JobView) -> dict:
    body: dict = {
        "_id": job.id,
        "kind": job.kind,
        "state": job.state,
        "percent": job.percent,
        "attempts": job.attempts,
        "created": iso(job.created),
    }
    optional = {
        "asset": job.asset_id,
        "event": job.event_id,
        "title": job.title,
        "etaSeconds": job.eta_seconds,
        "error": job.error,
        "startedAt": iso(job.started_at),
        "finishedAt": iso(job.finished_at),
        "attachAs": job.attach_as,
        "attached": job.attached_event_id,
    }
    body.update({key: value for key, value in optional.items() if value is not None})
    return body


async def list_media_jobs(state: str | None = None, limit: int = 50):
    await staff()
    async with db_session() as db:
        jobs = await media_jobs.listed(db, state=state, limit=limit)
    return ok({"jobs": [present(job) for job in jobs]})


async def get_media_job(id_: str):
    await staff()
    async with db_session() as db:
        job = await media_jobs.get(db, id_)
    return ok({"job": present(job)})


async def cancel_media_job(id_: str):
    await staff()
    note_target(id_)
    async with db_write_session() as db:
        job, removed_asset = await media_jobs.cancel(db, id_)
        await db.commit()
    config = settings()
    if removed_asset is not None:
        await asyncio.to_thread(store_of(config).remove, removed_asset)
    await asyncio.to_thread(UploadFiles(config.media_dir).remove_source, job.id)
    transcoding = runner.current()
    if transcoding is not None:
        transcoding.wake()
    return ok({"job": present(job)})
