"""Handlers for the `clip` tag: highlights and clips of events (public), and the signed-in
viewer's own clips and highlights (server.services.user_clips), which nobody else sees."""

from .. import clock
from ..services import events as events_service
from ..services import user_clips
from ..services.events import CLIP_MEDIA_TYPES, EventFilters, Sort
from .context import bind_viewer, db_session, db_write_session, settings, signed_in, viewer
from .envelope import ok, page_of, page_query
from .presenters import event_presenter
from .cache import cached_for_anonymous

CLIP_LOOKUP_TYPES = ("highlight", "clip", "user_clip", "user_highlight")


@cached_for_anonymous
async def list_clips(body: dict):
    filters = EventFilters(
        media_types=body.get("media_type") or CLIP_MEDIA_TYPES,
        parent_event_ids=body.get("event_id") or (),
        highlight_kinds=body.get("type") or (),
    )
    sort = Sort(body.get("sort", "event_date"), body.get("order", "desc") == "desc")
    async with db_session() as session:
        result = await events_service.list_events(session, filters, sort, page_query(body))
    return page_of(result, event_presenter())


@cached_for_anonymous
async def get_clip_by_id(id_: str, id_type: str = "_id", media_type: str | None = None):
    media_types = (media_type,) if media_type else CLIP_LOOKUP_TYPES
    async with db_session() as session:
        # A user clip or highlight answers only to its owner (anonymous viewers own none).
        view = await events_service.get_event(
            session, id_, id_type=id_type, media_types=media_types, owner_id=viewer().user_id
        )
    return ok(event_presenter()(view))


async def list_user_clips(body: dict):
    principal = await signed_in()
    sort = Sort(body.get("sort", "added"), body.get("order", "desc") == "desc")
    async with db_session() as session:
        result = await user_clips.list_clips(
            session,
            principal.user_id,
            media_types=body.get("media_type") or (),
            parent_event_ids=body.get("event_id") or (),
            sort=sort,
            page=page_query(body),
        )
    return page_of(result, event_presenter(await bind_viewer()))


async def create_clip(body: dict):
    await signed_in()
    current = await bind_viewer()
    new = user_clips.NewClip(
        body["event_id"], body["title"], body["startTime"], body["endTime"], body.get("media_type", "user_clip")
    )
    async with db_write_session() as session:
        clip = await user_clips.create_clip(session, current, new, settings=settings(), now=clock.now())
        view = await user_clips.clip_view(session, clip)
    return ok(event_presenter(current)(view))


async def update_clip(id_: str, body: dict):
    principal = await signed_in()
    async with db_write_session() as session:
        clip = await user_clips.rename_clip(session, principal.user_id, id_, body["title"], now=clock.now())
        view = await user_clips.clip_view(session, clip)
    return ok(event_presenter(await bind_viewer())(view))


async def delete_clip(id_: str):
    principal = await signed_in()
    async with db_write_session() as session:
        await user_clips.delete_clip(session, principal.user_id, id_)
    return ok(None)
