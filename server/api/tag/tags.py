"""Handlers for the `tag` tag: tags on moments of a video (server/services/tags.py has the rules).

Requests send times in seconds; the tags stored and answered carry milliseconds."""

from ...media.assets.store import store_of
from ...realtime.announcements import announce_tags_change
from ...services import tags
from ...services.paging import PageQuery
from ...services.spoilers import SHOW, Spoilers
from ..http.context import settings, signed_in
from ..http.database import db_session, db_write_session
from ..http.envelope import ok, page_of
from ..presenters.tag import tag as present

TAG_LIST_SIZE = 999  # the client loads a video's tags at once (spec section 9)


def _columns(body: dict) -> dict:
    """The tag columns a save or update request sets (times converted to milliseconds)."""
    values = {}
    for field, column in (("startTime", "start_ms"), ("endTime", "end_ms")):
        if field in body:
            values[column] = tags.to_ms(body[field])
    for column, field in tags.WIRE_NAMES.items():
        if column not in values and field in body:
            values[column] = body[field]
    return values


def _media_root():
    return store_of(settings()).root


async def list_tags(body: dict, spoilers: str = SHOW):
    principal = await signed_in()
    query = PageQuery(
        body.get("page", 0), body.get("size", TAG_LIST_SIZE), bool(body.get("next")), bool(body.get("count"))
    )
    async with db_session() as db:
        result = await tags.list_tags(db, principal.user_id, body["targetId"], bool(body.get("global", False)), query)
    mode = Spoilers.asked(spoilers)
    return page_of(result, lambda item: present(item, mode))


async def save_tag(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        saved = await tags.save_tag(
            db,
            principal.user_id,
            body["targetId"],
            _columns(body),
            media_root=_media_root(),
            limit=tags.save_limit(settings()),
        )
    if saved.is_global:
        await announce_tags_change(saved.target_id, [saved.id], "saved")
    return ok(present(saved))


async def update_tag(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        updated = await tags.update_tag(db, principal.user_id, body["_id"], _columns(body), media_root=_media_root())
    if updated.is_global:
        await announce_tags_change(updated.target_id, [updated.id], "saved")
    return ok(present(updated))


async def remove_tags(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        shared = await tags.global_targets(db, body["ids"])
        removed = await tags.remove_tags(db, principal.user_id, body["ids"])
    for target_id, tag_ids in shared.items():
        await announce_tags_change(target_id, [i for i in tag_ids if i in removed], "removed")
    return ok({"removed": len(removed), "ids": removed})
