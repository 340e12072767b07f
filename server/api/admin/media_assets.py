"""The media library's assets as staff see them (issue 29 §3, §4): list and show (support);
publish as an archive or a highlight, cut a highlight, delete (admin). The rules are in
server/services/media_library.py and media_publishing.py; each write is audited, empties the
catalogue caches and tells the rooms of the events whose stream changed."""

import asyncio
import logging

from ... import clock
from ...media.assets.store import store_of
from ...media.delivery.stills import Stills
from ...media.sources.upload_files import UploadFiles
from ...realtime.announcements import announce_catalogue_changed, announce_change
from ...services import media_library, media_publishing
from ...transcoding import runner
from ..http.audit import note_detail, note_target
from ..http.context import settings, staff
from ..http.database import db_session, db_write_session
from ..http.envelope import ok
from ..presenters.staff_events import present_for_staff
from .media_jobs import present as present_job

log = logging.getLogger(__name__)


def library() -> media_publishing.Library:
    config = settings()
    return media_publishing.Library(store_of(config), Stills(config.media_dir))


async def list_media_assets(event: str | None = None, kind: str | None = None, limit: int = 50):
    await staff()
    async with db_session() as db:
        assets = await media_library.listed(db, event_id=event, kinds=(kind,) if kind else (), limit=limit)
    return ok({"assets": [asset.wire() for asset in assets]})


async def get_media_asset(id_: str):
    await staff()
    async with db_session() as db:
        detail = await media_library.detail(db, id_)
    body = detail.asset.wire() | {"playedBy": detail.played_by}
    if detail.job is not None:
        body["job"] = present_job(detail.job)
    return ok({"asset": body})


async def attach_media_asset(id_: str, body: dict):
    principal = await staff()
    note_target(id_)
    async with db_write_session() as db:
        published = await media_publishing.attach(db, id_, body, library=library(), now=clock.now())
        await db.commit()
    note_detail({"event": published.view.event.id, "as": body["as"]})
    await announce_catalogue_changed()
    if published.change is not None:
        await announce_change(published.change)
    log.info("staff %s published asset %s as %s of %s", principal.user_id, id_, body["as"], published.view.event.id)
    return ok(await present_for_staff(published.view))


async def cut_media_asset(id_: str, body: dict):
    principal = await staff()
    note_target(id_)
    async with db_write_session() as db:
        published = await media_publishing.cut(db, id_, body, library=library(), now=clock.now())
        await db.commit()
    kind = body.get("as", "highlight")
    note_detail({"event": published.view.event.id, "as": kind})
    await announce_catalogue_changed()
    log.info("staff %s cut %s of asset %s as %s", principal.user_id, kind, id_, published.view.event.id)
    return ok(await present_for_staff(published.view)), 201


async def delete_media_asset(id_: str, force: bool = False):
    principal = await staff()
    note_target(id_)
    async with db_write_session() as db:
        deleted = await media_library.delete_asset(db, id_, force=force)
        await db.commit()
    config = settings()
    store, stills, uploads = store_of(config), Stills(config.media_dir), UploadFiles(config.media_dir)
    for asset_id in deleted.assets:
        await asyncio.to_thread(store.remove, asset_id)
        stills.remove(asset_id)
    for job_id in deleted.cancelled_jobs:
        await asyncio.to_thread(uploads.remove_source, job_id)
    if deleted.cancelled_jobs and (transcoding := runner.current()) is not None:
        transcoding.wake()
    detached = [change.event.id for change in deleted.changes]
    note_detail({"deleted": deleted.assets, "detached": detached})
    if detached:
        await announce_catalogue_changed()
        for change in deleted.changes:
            await announce_change(change)
    log.info("staff %s deleted asset %s (%s), taken off %s", principal.user_id, id_, deleted.assets, detached)
    return ok({"deleted": deleted.assets, "detached": detached})
