"""Staff operations on events: create and edit one, start it, finish it, switch its stream.

The rules (status machine, what going live and finishing set, the room messages) are in
server/services/event_admin.py. Each write empties this process's anonymous catalogue cache, so
lists and pages show the new state at once here (other processes within their cache's TTL).

The answer is the event as the staff member would see it as a viewer, except its stream URLs:
staff get the stored URLs they set (`/media/live/<sample>.m3u8`...), which serve nothing by
themselves; viewers get URLs signed for them from the catalogue operations.
"""

import logging

from ...ingest import live_inputs
from ...realtime.announcements import announce_catalogue_changed, announce_change
from ...services import event_admin
from ...services.events import EventFilters, EventView, Sort, list_events
from ...services.events import get_event as find_event
from ...services.paging import PageQuery
from ..http.audit import note_target
from ..http.context import settings, staff
from ..http.database import database, db_session, db_write_session
from ..http.envelope import ok, page_of
from ..presenters.staff_events import present_for_staff, staff_presenter

log = logging.getLogger(__name__)


async def list_admin_events(status: str | None = None, sport_type: str | None = None, page: int = 0, size: int = 10):
    await staff()
    filters = EventFilters(
        media_types=("event",), statuses=(status,) if status else (), sport_types=(sport_type,) if sport_type else ()
    )
    present = await staff_presenter()
    async with db_session() as db:
        result = await list_events(db, filters, Sort(), PageQuery(page, size))
    return page_of(result, present)


async def get_admin_event(id_: str):
    await staff()
    async with db_session() as db:
        view = await find_event(db, id_, media_types=("event",))
    return ok(await present_for_staff(view))


async def _changed(view: EventView, change: event_admin.Change) -> dict:
    await announce_catalogue_changed()
    await announce_change(change)
    return ok(await present_for_staff(view))


async def create_event(body: dict):
    principal = await staff()
    async with db_write_session() as db:
        view = await event_admin.create(
            db, body, media=event_admin.Media.of(settings()), allow_private_urls=settings().allow_private_stream_urls
        )
    note_target(view.event.id)
    await announce_catalogue_changed()
    log.info(
        "staff %s created event %s (%s, %s)",
        principal.user_id,
        view.event.id,
        view.event.external_id,
        view.event.status,
    )
    return ok(await present_for_staff(view))


async def update_event(id_: str, body: dict):
    principal = await staff()
    async with db_write_session() as db:
        view, change = await event_admin.update(
            db,
            id_,
            body,
            media=event_admin.Media.of(settings()),
            allow_private_urls=settings().allow_private_stream_urls,
        )
    log.info("staff %s changed event %s: %s", principal.user_id, id_, sorted(body))
    return await _changed(view, change)


async def go_live(id_: str):
    principal = await staff()
    async with db_write_session() as db:
        view, change = await event_admin.go_live(db, id_, media=event_admin.Media.of(settings()))
    log.info("staff %s started event %s", principal.user_id, id_)
    return await _changed(view, change)


async def finish_event(id_: str):
    principal = await staff()
    # The feed's transcoder, in whichever process runs it, stops first: the archive is closed complete.
    restore = await live_inputs.stop_for_finish(database(), id_, live_inputs.current())
    try:
        async with db_write_session() as db:
            view, change = await event_admin.finish(db, id_, media=event_admin.Media.of(settings()))
    except BaseException:
        if restore is not None:
            await restore()
        raise
    log.info("staff %s finished event %s", principal.user_id, id_)
    return await _changed(view, change)


async def set_stream_url(id_: str, body: dict):
    principal = await staff()
    async with db_write_session() as db:
        view, change = await event_admin.set_stream(
            db,
            id_,
            body["url"],
            media=event_admin.Media.of(settings()),
            allow_private_urls=settings().allow_private_stream_urls,
        )
    log.info("staff %s switched the stream of event %s to %s", principal.user_id, id_, body["url"])
    return await _changed(view, change)


async def list_event_assets(id_: str):
    await staff()
    async with db_session() as db:
        view = await find_event(db, id_, media_types=("event",))
        assets = await event_admin.assets_of(db, view.event.id)
    return ok({"assets": [asset.wire() for asset in assets]})
