"""Staff's uploads in progress (issue 29 §1), as rows: what was declared when the upload began
(its event, length, file name and title), who began it and until when it may stay unfinished.
The bytes are server.media.sources.upload_files'; the tus protocol is server/api/admin/uploads.py.

A complete, checked upload becomes, in one transaction, an asset of its event (`upload`,
`processing`) and a queued transcoding job (server.services.media_jobs); its row goes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import rows_changed
from ..errors import ApiError, NotFound
from ..media.assets.model import UPLOAD
from ..models import Event, MediaAsset, MediaJob, Upload, new_id

UPLOAD_NOT_FOUND = "upload_not_found"
TOO_LARGE = "upload_too_large"
EMPTY = "empty_file"
PROCESSING = "processing"


async def begin(
    db: AsyncSession,
    *,
    event_id: str,
    length: int,
    filename: str | None,
    title: str | None,
    created_by: str | None,
    attach_as: str | None = None,
    max_bytes: int,
    retention_hours: int,
) -> Upload:
    if length == 0:
        raise ApiError("The file is empty: there is nothing to upload", code=EMPTY, status=422)
    if length > max_bytes:
        raise ApiError(f"The file is larger than this server takes ({max_bytes} bytes)", code=TOO_LARGE, status=413)
    event = await db.get(Event, event_id)
    if event is None or event.media_type != "event":
        raise NotFound("Event not found", code="event_not_found")
    upload = Upload(
        id=new_id(),
        event_id=event.id,
        length=length,
        filename=filename,
        title=title,
        created_by=created_by,
        attach_as=attach_as,
        expires_at=clock.now() + timedelta(hours=retention_hours),
    )
    db.add(upload)
    await db.flush()
    return upload


async def find(db: AsyncSession, upload_id: str) -> Upload:
    upload = await db.get(Upload, upload_id)
    if upload is None or upload.expires_at <= clock.now():
        raise NotFound("No upload has this id (finished, cancelled or expired)", code=UPLOAD_NOT_FOUND)
    return upload


async def complete(db: AsyncSession, upload: Upload, *, job_id: str, duration_ms: int) -> MediaJob:
    """The checked upload as an asset being transcoded and its queued job (with id `job_id`, whose
    source file the caller has in place)."""
    asset = MediaAsset(
        id=new_id(),
        kind=UPLOAD,
        event_id=upload.event_id,
        state=PROCESSING,
        title=upload.title or upload.filename,
        duration_ms=duration_ms,
    )
    db.add(asset)
    await db.flush()
    job = MediaJob(
        id=job_id,
        kind="transcode",
        asset_id=asset.id,
        event_id=upload.event_id,
        title=asset.title,
        state="queued",
        percent=0.0,
        attempts=0,
        created_by=upload.created_by,
        attach_as=upload.attach_as,
    )
    db.add(job)
    if rows_changed(await db.execute(delete(Upload).where(Upload.id == upload.id))) != 1:
        raise NotFound("No upload has this id (finished, cancelled or expired)", code=UPLOAD_NOT_FOUND)
    await db.flush()
    return job


async def forget(db: AsyncSession, upload_id: str) -> bool:
    """Remove an upload's row (refused, terminated or expired); whether there was one."""
    return rows_changed(await db.execute(delete(Upload).where(Upload.id == upload_id))) == 1


async def expired(db: AsyncSession, now: datetime) -> list[str]:
    return list(await db.scalars(select(Upload.id).where(Upload.expires_at <= now)))
