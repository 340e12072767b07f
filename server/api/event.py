"""Handlers for the `event` tag."""

from datetime import datetime, timezone

from ..services import events as events_service
from ..services import programme as programme_service
from ..services import stats as stats_service
from ..services.events import EventFilters, Sort, parse_date_range
from ..services.paging import PageQuery
from .context import db_session
from .envelope import epoch_ms, ok, page_of, page_query
from .presenters import event_presenter
from .cache import cached_for_anonymous

from .shop.catalog import get_commerce_options  # noqa: F401


@cached_for_anonymous
async def list_events(body: dict):
    raw = body.get("filters") or {}
    date_from, date_to = parse_date_range(raw.get("event_date"))
    filters = EventFilters(
        identity_ids=raw.get("identities.id") or (),
        identity_type=raw.get("identities.type"),
        media_types=raw.get("media_type") or ("event",),
        team_ids=raw.get("search.teams.id") or (),
        external_ids=raw.get("event_id") or (),
        sport_types=raw.get("sportType") or (),
        date_from=date_from,
        date_to=date_to,
        statuses=raw.get("status") or (),
    )
    sort = Sort(body.get("sort", "event_date"), body.get("order", "desc") == "desc")
    async with db_session() as session:
        result = await events_service.list_events(session, filters, sort, page_query(body))
    return page_of(result, event_presenter())


@cached_for_anonymous
async def search_events(q: str, page: int = 0, size: int = 10, status: list | None = None):
    async with db_session() as session:
        result = await events_service.search_events(session, q, status or (), PageQuery(page, size, next=True))
    return page_of(result, event_presenter())


@cached_for_anonymous
async def get_event_by_id(id_: str, id_type: str = "_id", media_type: str | None = None):
    async with db_session() as session:
        view = await events_service.get_event(
            session, id_, id_type=id_type, media_types=(media_type,) if media_type else ()
        )
    return ok(event_presenter()(view))


@cached_for_anonymous
async def grouped_sport_count(status: list | None = None):
    async with db_session() as session:
        counts = await events_service.grouped_sport_count(session, status or ("live",))
    entries = [{"sportType": c.sport_type, "title": c.title, "count": c.count} for c in counts]
    return ok({"entries": entries, "totalCount": sum(c.count for c in counts)})


@cached_for_anonymous
async def get_event_stats(id_: str, score: bool = True, overview: bool = True):
    async with db_session() as session:
        vidswap = await stats_service.game_stats(session, id_, score=score, overview=overview)
    return ok({"vidswap": vidswap})


def _from_ms(ms: int | None) -> datetime | None:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc) if ms is not None else None


@cached_for_anonymous
async def get_channel_programme(id_: str, from_: int | None = None, to: int | None = None):
    start, end = events_service.programme_window(datetime.now(timezone.utc), _from_ms(from_), _from_ms(to))
    async with db_session() as session:
        guide = await programme_service.channel_programme(session, id_, start, end)
    entries = [
        {
            "_id": slot.id,
            "title": slot.title,
            "description": slot.description,
            "startTime": epoch_ms(slot.starts_at),
            "endTime": epoch_ms(slot.ends_at),
            "event_id": slot.related_event_id,
        }
        for slot in guide.slots
    ]
    return ok({"channel": {"_id": guide.channel.id, "title": guide.channel.title}, "entries": entries})
