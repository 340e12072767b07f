"""What a finished job publishes (issue 29 §3, §5): an upload declared `as` an archive or a
highlight is attached so once its ladder is ready, and a recording's new poster becomes its
archive's still. Each in a transaction of its own after the job is done: if this fails, or the
process dies first, the asset stays ready and unpublished, and the job says why (`error`), so
staff publish it by hand (`touchline media attach`)."""

from __future__ import annotations

import logging

from sqlalchemy import update

from .. import clock
from ..db import Database
from ..errors import ApiError
from ..media.assets.store import store_of
from ..media.delivery.stills import Stills
from ..media.delivery.urls import MEDIA_PREFIX
from ..models import Event, MediaJob
from ..realtime.announcements import announce_catalogue_changed, announce_change
from ..services import media_publishing
from ..services.media_jobs import JobView
from ..settings import Settings

log = logging.getLogger(__name__)


def library(settings: Settings) -> media_publishing.Library:
    return media_publishing.Library(store_of(settings), Stills(settings.media_dir))


async def attach_as_declared(database: Database, settings: Settings, job: JobView) -> None:
    if job.attach_as is None or job.asset_id is None:
        return
    async with database.write_session() as db:
        try:
            published = await media_publishing.attach(
                db, job.asset_id, {"as": job.attach_as}, library=library(settings), now=clock.now()
            )
        except ApiError as refused:
            await db.rollback()
            reason = f"Transcoded, but not published as {job.attach_as}: {refused.message}"
            await db.execute(update(MediaJob).where(MediaJob.id == job.id).values(error=reason[:500]))
            await db.commit()
            log.warning("job %s: %s", job.id, reason)
            return
        await db.execute(
            update(MediaJob).where(MediaJob.id == job.id).values(attached_event_id=published.view.event.id)
        )
        await db.commit()
    await announce_catalogue_changed()
    if published.change is not None:
        await announce_change(published.change)
    log.info("job %s: asset %s published as %s of %s", job.id, job.asset_id, job.attach_as, published.view.event.id)


async def refresh_archive_poster(database: Database, settings: Settings, asset_id: str) -> None:
    """A recording's poster, just made, as the still of the events that play all of it."""
    still = Stills(settings.media_dir).publish(asset_id, store_of(settings).directory(asset_id))
    if still is None:
        return
    async with database.write_session() as db:
        await db.execute(
            update(Event)
            .where(Event.hls_stream.like(f"%{MEDIA_PREFIX}/vod/{asset_id}/index.m3u8"))
            .values(poster_h=still, updated=clock.now())
        )
        await db.commit()
    await announce_catalogue_changed()
