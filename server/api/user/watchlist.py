"""The signed-in viewer's watchlist (only ever their own: the id comes from the session)."""

from ...services import watchlist
from ...services.paging import PageQuery
from ...services.spoilers import SHOW
from ..http.context import bind_viewer, signed_in
from ..http.database import db_session, db_write_session
from ..http.envelope import ok, page_of
from ..presenters.catalogue import event_presenter


async def get_watchlist(page: int = 0, size: int = 10, next_: bool = False, count: bool = False, spoilers: str = SHOW):
    principal = await signed_in()
    async with db_session() as db:
        result = await watchlist.watchlist_page(db, principal.user_id, PageQuery(page, size, next_, count))
    return page_of(result, event_presenter(await bind_viewer(), spoilers=spoilers))


async def get_watchlist_ids():
    principal = await signed_in()
    async with db_session() as db:
        ids = await watchlist.watchlist_ids(db, principal.user_id)
    return ok({"selected": ids})


async def add_to_watchlist(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        ids = await watchlist.add_to_watchlist(db, principal.user_id, body["video_id"])
    return ok({"selected": ids})


async def remove_from_watchlist(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        ids = await watchlist.remove_from_watchlist(db, principal.user_id, body["video_id"])
    return ok({"selected": ids})
