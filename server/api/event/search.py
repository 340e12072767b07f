"""Search: events alone (`search_events`), and everything the search box promises (`search_all`)."""

from ...services import search as search_service
from ...services.paging import PageQuery
from ...services.spoilers import SHOW
from ..http.cache import shared_with_overlay
from ..http.database import db_read_session
from ..presenters.catalogue import events_page
from ..presenters.search import search_results


@shared_with_overlay(events_page)
async def search_events(q: str, page: int = 0, size: int = 10, status: list | None = None, spoilers: str = SHOW):
    async with db_read_session() as db:
        return await search_service.search_events(db, q, status or (), PageQuery(page, size, next=True))


@shared_with_overlay(search_results)
async def search_all(q: str, size: int = 5, spoilers: str = SHOW):
    async with db_read_session() as db:
        return await search_service.search_all(db, q, size, PageQuery(0, size, next=True))
