"""Highlights and clips of events, public to everyone who may see the event (the viewer's own
clips are in user_clips.py)."""

from ...errors import NotFound
from ...services import events as events_service
from ...services.events import CLIP_MEDIA_TYPES, EventFilters, Sort
from ...services.spoilers import SHOW
from ..http.cache import cached_for_anonymous, shared_with_overlay
from ..http.context import viewer
from ..http.database import db_read_session
from ..http.envelope import page_query
from ..presenters.catalogue import events_page, one_event

CLIP_LOOKUP_TYPES = ("highlight", "clip", "user_clip", "user_highlight")


@shared_with_overlay(events_page)
async def list_clips(body: dict, spoilers: str = SHOW):
    filters = EventFilters(
        media_types=body.get("media_type") or CLIP_MEDIA_TYPES,
        parent_event_ids=body.get("event_id") or (),
        highlight_kinds=body.get("type") or (),
    )
    sort = Sort(body.get("sort", "event_date"), body.get("order", "desc") == "desc")
    async with db_read_session() as db:
        return await events_service.list_events(db, filters, sort, page_query(body))


@cached_for_anonymous
async def get_clip_by_id(id_: str, id_type: str = "_id", media_type: str | None = None, spoilers: str = SHOW):
    media_types = (media_type,) if media_type else CLIP_LOOKUP_TYPES
    async with db_read_session() as db:
        # A user clip or highlight answers only to its owner (anonymous viewers own none); to
        # anyone else it is not found, exactly like an id nobody has.
        try:
            view = await events_service.get_event(
                db, id_, id_type=id_type, media_types=media_types, owner_id=viewer().user_id
            )
        except NotFound:
            raise NotFound("Clip not found", code="clip_not_found") from None
    return one_event(view, spoilers)
