"""The transcoding queue (issue 29 §2): jobs in the database, each run by one process at a time.

    queued -> running -> done
                      -> failed      ffmpeg's reason, or MAX_ATTEMPTS runs that never finished
    queued | running  -> cancelled   staff; the running process stops ffmpeg and removes its output

A process takes a job with one conditional UPDATE (`claim`): a queued job, or a running one whose
lease ran out because its process died (it is run again from the start, its `attempts` counted).
The runner renews the lease with its progress (`progress`); every later step is conditional on
the runner still holding a running job, so a job cancelled, or taken over after a stall, is never
finished twice or published by a process that lost it. How many run at once across a cluster is
server.transcoding's business (slots of `job_leases`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database, rows_changed
from ..errors import Conflict, NotFound
from ..models import MediaAsset, MediaJob, new_id

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
# What a job makes: an upload's ladder (its asset is nothing without it), or the poster and
# thumbnails of an asset that plays already (a finished live recording: the archive, kept whatever
# becomes of the job).
TRANSCODE, PREVIEWS = "transcode", "previews"
STATES = (QUEUED, RUNNING, DONE, FAILED, CANCELLED)
ACTIVE = (QUEUED, RUNNING)
MAX_ATTEMPTS = 3
JOB_NOT_FOUND = "job_not_found"
JOB_FINISHED = "job_finished"


@dataclass(frozen=True)
class JobView:
    id: str
    kind: str
    asset_id: str | None
    event_id: str | None
    title: str | None
    state: str
    percent: float
    eta_seconds: int | None
    error: str | None
    attempts: int
    created: datetime
    started_at: datetime | None
    finished_at: datetime | None
    attach_as: str | None = None
    attached_event_id: str | None = None

    @classmethod
    def of(cls, job: MediaJob) -> JobView:
        return cls(
            job.id,
            job.kind,
            job.asset_id,
            job.event_id,
            job.title,
            job.state,
            round(job.percent, 1),
            job.eta_seconds,
            job.error,
            job.attempts,
            job.created,
            job.started_at,
            job.finished_at,
            job.attach_as,
            job.attached_event_id,
        )


async def claim(database: Database, holder: str, lease_seconds: float) -> JobView | None:
    """Take the oldest job waiting to run (queued, or running under a lease that ran out) for
    `holder`; None when there is none, or another process took each first."""
    now = clock.now()
    async with database.write_session() as db:
        await _give_up_stalled(db, now)
        candidates = list(
            await db.scalars(select(MediaJob.id).where(_waiting(now)).order_by(MediaJob.created, MediaJob.id).limit(5))
        )
        for job_id in candidates:
            taken = await db.execute(
                update(MediaJob)
                .where(MediaJob.id == job_id, _waiting(now))
                .values(
                    state=RUNNING,
                    holder=holder,
                    lease_until=now + timedelta(seconds=lease_seconds),
                    attempts=MediaJob.attempts + 1,
                    started_at=now,
                    percent=0.0,
                    eta_seconds=None,
                )
            )
            if rows_changed(taken) == 1:
                await db.commit()
                job = await db.get(MediaJob, job_id, populate_existing=True)
                assert job is not None  # just updated in this transaction
                return JobView.of(job)
        await db.commit()
    return None


async def any_waiting(database: Database) -> bool:
    """Whether some job waits for a process: queued, or running under a lease that ran out (to run
    again, or to fail after its last attempt)."""
    now = clock.now()
    lapsed = (MediaJob.state == RUNNING) & (MediaJob.lease_until < now)
    async with database.session() as db:
        return await db.scalar(select(MediaJob.id).where((MediaJob.state == QUEUED) | lapsed).limit(1)) is not None


def _waiting(now: datetime) -> ColumnElement[bool]:
    stalled = (MediaJob.state == RUNNING) & (MediaJob.lease_until < now) & (MediaJob.attempts < MAX_ATTEMPTS)
    return (MediaJob.state == QUEUED) | stalled


async def _give_up_stalled(db: AsyncSession, now: datetime) -> None:
    """A job whose runs stopped MAX_ATTEMPTS times without an outcome fails (and its asset)."""
    stuck = list(
        await db.scalars(
            select(MediaJob.id).where(
                MediaJob.state == RUNNING, MediaJob.lease_until < now, MediaJob.attempts >= MAX_ATTEMPTS
            )
        )
    )
    for job_id in stuck:
        await _end(db, job_id, None, FAILED, f"The transcoder stopped {MAX_ATTEMPTS} times before finishing", now)


async def progress(
    database: Database, job_id: str, holder: str, *, percent: float, eta_seconds: int | None, lease_seconds: float
) -> bool:
    """Record progress and renew the lease; False when the holder must stop (cancelled, or the job
    is no longer its own)."""
    now = clock.now()
    async with database.write_session() as db:
        changed = await db.execute(
            update(MediaJob)
            .where(MediaJob.id == job_id, MediaJob.holder == holder, MediaJob.state == RUNNING)
            .values(
                percent=max(0.0, min(percent, 99.9)),
                eta_seconds=eta_seconds,
                lease_until=now + timedelta(seconds=lease_seconds),
            )
        )
        await db.commit()
    return rows_changed(changed) == 1


async def requeue(database: Database, job_id: str, holder: str) -> None:
    """The holder stops without an outcome (its process is shutting down): the job waits for the
    next process at once, that run not counted as an attempt."""
    async with database.write_session() as db:
        await db.execute(
            update(MediaJob)
            .where(MediaJob.id == job_id, MediaJob.holder == holder, MediaJob.state == RUNNING)
            .values(
                state=QUEUED,
                holder=None,
                lease_until=None,
                percent=0.0,
                eta_seconds=None,
                attempts=MediaJob.attempts - 1,
            )
        )
        await db.commit()


async def finish(database: Database, job_id: str, holder: str, *, duration_ms: int) -> bool:
    """The job is done and its asset ready, together; False when the holder lost the job first
    (its output must then not be kept)."""
    now = clock.now()
    async with database.write_session() as db:
        job = await db.get(MediaJob, job_id, with_for_update=True)
        if job is None or job.holder != holder or job.state != RUNNING:
            return False
        job.state, job.percent, job.eta_seconds, job.finished_at, job.lease_until = DONE, 100.0, 0, now, None
        if job.asset_id is not None:
            await db.execute(
                update(MediaAsset).where(MediaAsset.id == job.asset_id).values(state="ready", duration_ms=duration_ms)
            )
        await db.commit()
    return True


async def fail(database: Database, job_id: str, holder: str, reason: str) -> bool:
    async with database.write_session() as db:
        ended = await _end(db, job_id, holder, FAILED, reason, clock.now())
        await db.commit()
    return ended


async def _end(
    db: AsyncSession, job_id: str, holder: str | None, state: str, reason: str | None, now: datetime
) -> bool:
    where = [MediaJob.id == job_id, MediaJob.state.in_(ACTIVE)]
    if holder is not None:
        where.append(MediaJob.holder == holder)
    job = await db.scalar(select(MediaJob).where(*where).with_for_update())
    if job is None:
        return False
    job.state, job.error, job.finished_at, job.lease_until, job.eta_seconds = state, reason, now, None, None
    if job.asset_id is not None and state == FAILED and job.kind == TRANSCODE:
        await db.execute(update(MediaAsset).where(MediaAsset.id == job.asset_id).values(state="failed"))
    return True


async def cancel(db: AsyncSession, job_id: str) -> tuple[JobView, str | None]:
    """Cancel a queued or running job (its runner notices at its next progress and stops). An
    upload's asset, which never played, goes with it; a recording's stays. The job, and the asset
    removed if any (the caller removes its files and the job's source)."""
    job = await db.get(MediaJob, job_id, with_for_update=True)
    if job is None:
        raise NotFound("No job has this id", code=JOB_NOT_FOUND)
    if job.state not in ACTIVE:
        raise Conflict(f"The job is {job.state} already", code=JOB_FINISHED)
    await _end(db, job_id, None, CANCELLED, None, clock.now())
    removed = job.asset_id if job.kind == TRANSCODE else None
    if removed is not None:
        job.asset_id = None
        await db.execute(delete(MediaAsset).where(MediaAsset.id == removed))
    await db.flush()
    return JobView.of(job), removed


def queue_previews(db: AsyncSession, asset: MediaAsset) -> MediaJob:
    """A job making `asset`'s poster and thumbnails (a live recording that just became the
    archive), in the caller's transaction."""
    job = MediaJob(
        id=new_id(),
        kind=PREVIEWS,
        asset_id=asset.id,
        event_id=asset.event_id,
        title=asset.title,
        state=QUEUED,
        percent=0.0,
        attempts=0,
    )
    db.add(job)
    return job


async def get(db: AsyncSession, job_id: str) -> JobView:
    job = await db.get(MediaJob, job_id)
    if job is None:
        raise NotFound("No job has this id", code=JOB_NOT_FOUND)
    return JobView.of(job)


async def listed(db: AsyncSession, *, state: str | None = None, limit: int = 50) -> list[JobView]:
    """Newest first."""
    query = select(MediaJob).order_by(MediaJob.created.desc(), MediaJob.id.desc()).limit(limit)
    if state is not None:
        query = query.where(MediaJob.state == state)
    return [JobView.of(job) for job in await db.scalars(query)]


async def is_active(database: Database, job_id: str) -> bool:
    async with database.session() as db:
        state = await db.scalar(select(MediaJob.state).where(MediaJob.id == job_id))
    return state in ACTIVE
