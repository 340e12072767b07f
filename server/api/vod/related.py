"""Handlers for the `vod` tag."""

from ...services import events as events_service
from ...services.paging import PageQuery
from ..http.cache import cached_for_anonymous
from ..http.database import db_session
from ..http.envelope import page_of
from ..presenters.catalogue import event_presenter


@cached_for_anonymous
async def get_related_videos(id_: str, page: int = 0, size: int = 10):
    async with db_session() as db:
        result = await events_service.related_videos(db, id_, PageQuery(page, size))
    return page_of(result, event_presenter())
