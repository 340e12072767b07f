"""The signed-in viewer's own clips and highlights (server.services.user_clips): nobody else sees
them."""

from ... import clock
from ...services import user_clips
from ...services.events import Sort
from ...services.spoilers import SHOW
from ..http.context import bind_viewer, settings, signed_in
from ..http.database import db_session, db_write_session
from ..http.envelope import ok, page_of, page_query
from ..presenters.catalogue import event_presenter


async def list_user_clips(body: dict, spoilers: str = SHOW):
    principal = await signed_in()
    sort = Sort(body.get("sort", "added"), body.get("order", "desc") == "desc")
    async with db_session() as db:
        result = await user_clips.list_clips(
            db,
            principal.user_id,
            media_types=body.get("media_type") or (),
            parent_event_ids=body.get("event_id") or (),
            sort=sort,
            page=page_query(body),
        )
    return page_of(result, event_presenter(await bind_viewer(), spoilers=spoilers))


async def create_clip(body: dict):
    await signed_in()
    current = await bind_viewer()
    new = user_clips.NewClip(
        body["event_id"], body["title"], body["startTime"], body["endTime"], body.get("media_type", "user_clip")
    )
    async with db_write_session() as db:
        clip = await user_clips.create_clip(db, current, new, settings=settings(), now=clock.now())
        view = await user_clips.clip_view(db, clip)
    return ok(event_presenter(current)(view))


async def update_clip(id_: str, body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        clip = await user_clips.rename_clip(db, principal.user_id, id_, body["title"], now=clock.now())
        view = await user_clips.clip_view(db, clip)
    return ok(event_presenter(await bind_viewer())(view))


async def delete_clip(id_: str):
    principal = await signed_in()
    async with db_write_session() as db:
        await user_clips.delete_clip(db, principal.user_id, id_, settings=settings())
    return ok(None)
