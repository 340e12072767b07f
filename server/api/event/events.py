"""Events: lists with filters, one event, and the live counts by sport (search: search.py)."""

from ...services import events as events_service
from ...services.events import EventFilters, Sort, parse_date_range
from ...services.spoilers import SHOW
from ..http.cache import cached_for_anonymous, shared_with_overlay
from ..http.database import db_read_session
from ..http.envelope import ok, page_query
from ..presenters.catalogue import events_page, one_event


@shared_with_overlay(events_page)
async def list_events(body: dict, spoilers: str = SHOW):
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
    async with db_read_session() as db:
        return await events_service.list_events(db, filters, sort, page_query(body))


@shared_with_overlay(one_event)
async def get_event_by_id(id_: str, id_type: str = "_id", media_type: str | None = None, spoilers: str = SHOW):
    async with db_read_session() as db:
        return await events_service.get_event(db, id_, id_type=id_type, media_types=(media_type,) if media_type else ())


@cached_for_anonymous
async def grouped_sport_count(status: list | None = None):
    async with db_read_session() as db:
        counts = await events_service.grouped_sport_count(db, status or ("live",))
    entries = [{"sportType": c.sport_type, "title": c.title, "count": c.count} for c in counts]
    return ok({"entries": entries, "totalCount": sum(c.count for c in counts)})
