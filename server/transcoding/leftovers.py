"""What uploads and transcoding leave behind, removed (the `media-sweep` job, one process of a
cluster at a time): uploads left unfinished past TOUCHLINE_UPLOAD_RETENTION_HOURS (row and bytes),
and files no row accounts for any more, once they have not changed for GRACE_SECONDS: an upload's
bytes without its row, a source whose job is over, a working directory whose job is not running
(a process that died mid-job; the job's next run starts afresh anyway)."""

from __future__ import annotations

import asyncio
import logging
import shutil
import time
from pathlib import Path

from sqlalchemy import select

from .. import clock
from ..db import Database
from ..media.sources.upload_files import UploadFiles
from ..models import MediaJob, Upload
from ..services import media_jobs, uploads
from ..settings import Settings
from .runner import WORK

log = logging.getLogger(__name__)

GRACE_SECONDS = 3600.0


def _entries(directory: Path, cutoff: float) -> list[Path]:
    """The entries of `directory` unchanged since `cutoff` (epoch seconds)."""
    try:
        return [path for path in directory.iterdir() if path.lstat().st_mtime < cutoff]
    except FileNotFoundError:
        return []


async def sweep_uploads(database: Database, settings: Settings, *, grace: float = GRACE_SECONDS) -> list[str]:
    """Remove expired uploads and unaccounted files; the names removed."""
    files = UploadFiles(settings.media_dir)
    removed: list[str] = []
    async with database.write_session() as db:
        expired = await uploads.expired(db, clock.now())
        for upload_id in expired:
            await uploads.forget(db, upload_id)
        await db.commit()
    for upload_id in expired:
        await asyncio.to_thread(files.remove_part, upload_id)
        removed.append(f"{upload_id}.part")

    cutoff = time.time() - grace
    old_files = await asyncio.to_thread(_entries, files.root, cutoff)
    old_work = await asyncio.to_thread(_entries, Path(settings.media_dir) / WORK, cutoff)
    async with database.session() as db:
        live_uploads = set(await db.scalars(select(Upload.id)))
        active_jobs = set(await db.scalars(select(MediaJob.id).where(MediaJob.state.in_(media_jobs.ACTIVE))))
        running_jobs = set(await db.scalars(select(MediaJob.id).where(MediaJob.state == media_jobs.RUNNING)))
    for path in old_files:
        name, _, suffix = path.name.partition(".")
        if (suffix == "part" and name not in live_uploads) or (suffix == "source" and name not in active_jobs):
            await asyncio.to_thread(path.unlink, True)
            removed.append(path.name)
    for path in old_work:
        if path.name not in running_jobs:
            await asyncio.to_thread(shutil.rmtree, path, True)
            removed.append(f"{WORK}/{path.name}")
    if removed:
        log.info("media sweep: %d upload and transcoding leftovers removed", len(removed))
    return removed
