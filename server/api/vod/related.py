"""Handlers for the `vod` tag."""

from ...services import events as events_service
from ...services.paging import PageQuery
from ...services.spoilers import SHOW
from ..http.cache import shared_with_overlay
from ..http.database import db_read_session
from ..presenters.catalogue import events_page


@shared_with_overlay(events_page)
async def get_related_videos(id_: str, page: int = 0, size: int = 10, spoilers: str = SHOW):
    async with db_read_session() as db:
        return await events_service.related_videos(db, id_, PageQuery(page, size))
