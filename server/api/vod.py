"""Handlers for the `vod` tag."""

from ..services import events as events_service
from ..services.paging import PageQuery
from .context import db_session
from .envelope import page_of
from .presenters import event_presenter
from .cache import cached_for_anonymous


@cached_for_anonymous
async def get_related_videos(id_: str, page: int = 0, size: int = 10):
    async with db_session() as session:
        result = await events_service.related_videos(session, id_, PageQuery(page, size))
    return page_of(result, event_presenter())
