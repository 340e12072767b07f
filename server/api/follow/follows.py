"""Handlers for the `follow` tag: followed main categories, sub-categories (leagues) and teams.

Only ever the signed-in viewer's own follows: the user id comes from the session."""

from ...services import follows
from ...services.paging import PageQuery
from ..http.context import signed_in
from ..http.database import db_session, db_write_session
from ..http.envelope import ok, page_of
from ..presenters.catalogue import followed


async def list_follows(page: int = 0, size: int = 150, version: int = 2, types: list | None = None):
    # `version` has one value (2, entries carry the item); the contract refuses any other.
    principal = await signed_in()
    async with db_session() as db:
        result = await follows.list_follows(db, principal.user_id, types or (), PageQuery(page, size))
    return page_of(result, followed)


async def save_follow(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        view = await follows.save_follow(db, principal.user_id, body["type"], body["reference_id"])
    return ok(followed(view))


async def remove_follow(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        await follows.remove_follow(db, principal.user_id, body["id"])
    return ok(None)
