"""Catalogue queries over events, highlights and clips."""

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import BindParameter, Select, and_, bindparam, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from ..db import session_rows
from ..errors import ApiError, NotFound
from ..models import Event, EventIdentity, Identity, Team
from .event_views import cache_for
from .paging import Page, PagedQuery, PageQuery, paged, paginate, paginate_prepared

CLIP_MEDIA_TYPES = ("highlight", "clip")
# Viewers' own clips and highlights (server.services.user_clips): the only rows with an owner.
USER_MEDIA_TYPES = ("user_clip", "user_highlight")
SORT_COLUMNS = {
    "event_date": Event.event_date,
    "added": Event.created,
    "created": Event.created,
    "updated": Event.updated,
    "title": Event.title,
    "order": Event.sort_order,
}


@dataclass(frozen=True)
class EventFilters:
    identity_ids: Sequence[str] = ()
    identity_type: str | None = None
    media_types: Sequence[str] = ()
    team_ids: Sequence[str] = ()
    external_ids: Sequence[str] = ()
    sport_types: Sequence[str] = ()
    date_from: datetime | None = None
    date_to: datetime | None = None
    statuses: Sequence[str] = ()
    parent_event_ids: Sequence[str] = ()
    highlight_kinds: Sequence[str] = ()
    # A viewer's own clips only; None: the catalogue only (no viewer's clips, whoever asks).
    owner_id: str | None = None


@dataclass(frozen=True)
class Sort:
    key: str = "event_date"
    descending: bool = True


@dataclass
class EventView:
    """An event with what its wire form needs: teams and the league/category it belongs to."""

    event: Event
    home: Team | None = None
    away: Team | None = None
    identities: list[Identity] = field(default_factory=list)
    # The viewer-independent part of its wire form, by presentation option, filled by the
    # presenter on first use: a view shared by many viewers' answers is presented once.
    wire: dict = field(default_factory=dict, compare=False, repr=False)


def parse_date_range(value: str | None) -> tuple[datetime | None, datetime | None]:
    """`from~to` in epoch ms, either side optional."""
    if not value:
        return None, None
    start, _, end = value.partition("~")

    def to_dt(ms: str) -> datetime | None:
        if not ms:
            return None
        try:
            return datetime.fromtimestamp(int(ms) / 1000, tz=UTC)
        except (OverflowError, ValueError, OSError):
            raise ApiError("event_date is out of range", code="validation_error") from None

    date_from, date_to = to_dt(start), to_dt(end)
    if date_from and date_to and date_from > date_to:
        raise ApiError("event_date: 'from' is after 'to'", code="validation_error")
    return date_from, date_to


def _may_hold_user_media(media_types: Sequence[str]) -> bool:
    return not media_types or not set(media_types).isdisjoint(USER_MEDIA_TYPES)


@dataclass(frozen=True)
class _FilterShape:
    """Which filters a list applies, whatever their values: the statement for each shape is
    built once (`_list_query`) and run with the values bound."""

    owner: bool
    public_only: bool
    identities: bool
    identity_type: bool
    media_types: bool
    teams: bool
    external_ids: bool
    sport_types: bool
    date_from: bool
    date_to: bool
    statuses: bool
    parents: bool
    highlight_kinds: bool


def _shape_of(f: EventFilters) -> _FilterShape:
    return _FilterShape(
        owner=f.owner_id is not None,
        public_only=f.owner_id is None and _may_hold_user_media(f.media_types),  # others' clips are in no list
        identities=bool(f.identity_ids),
        identity_type=bool(f.identity_ids) and bool(f.identity_type),
        media_types=bool(f.media_types),
        teams=bool(f.team_ids),
        external_ids=bool(f.external_ids),
        sport_types=bool(f.sport_types),
        date_from=f.date_from is not None,
        date_to=f.date_to is not None,
        statuses=bool(f.statuses),
        parents=bool(f.parent_event_ids),
        highlight_kinds=bool(f.highlight_kinds),
    )


def _values_of(f: EventFilters) -> dict:
    return {
        "owner_id": f.owner_id,
        "identity_ids": list(f.identity_ids),
        "identity_type": f.identity_type,
        "media_types": list(f.media_types),
        "team_ids": list(f.team_ids),
        "external_ids": list(f.external_ids),
        "sport_types": list(f.sport_types),
        "date_from": f.date_from,
        "date_to": f.date_to,
        "statuses": list(f.statuses),
        "parent_event_ids": list(f.parent_event_ids),
        "highlight_kinds": list(f.highlight_kinds),
    }


def _filtered(stmt: Select, shape: _FilterShape) -> Select:
    def among(name: str) -> BindParameter:
        return bindparam(name, expanding=True)

    if shape.owner:
        stmt = stmt.where(Event.owner_id == bindparam("owner_id"))
    elif shape.public_only:
        stmt = stmt.where(Event.owner_id.is_(None))
    if shape.identities:
        linked = select(EventIdentity.event_id).where(EventIdentity.identity_id.in_(among("identity_ids")))
        if shape.identity_type:
            linked = linked.where(EventIdentity.identity_type == bindparam("identity_type"))
        stmt = stmt.where(Event.id.in_(linked))
    if shape.media_types:
        stmt = stmt.where(Event.media_type.in_(among("media_types")))
    if shape.teams:
        teams = among("team_ids")
        stmt = stmt.where(or_(Event.home_team_id.in_(teams), Event.away_team_id.in_(teams)))
    if shape.external_ids:
        stmt = stmt.where(Event.external_id.in_(among("external_ids")))
    if shape.sport_types:
        stmt = stmt.where(Event.sport_type.in_(among("sport_types")))
    if shape.date_from:
        stmt = stmt.where(Event.event_date >= bindparam("date_from"))
    if shape.date_to:
        stmt = stmt.where(Event.event_date <= bindparam("date_to"))
    if shape.statuses:
        stmt = stmt.where(Event.status.in_(among("statuses")))
    if shape.parents:
        stmt = stmt.where(Event.parent_event_id.in_(among("parent_event_ids")))
    if shape.highlight_kinds:
        stmt = stmt.where(Event.highlight_kind.in_(among("highlight_kinds")))
    return stmt


@functools.cache
def _list_query(shape: _FilterShape, sort: Sort) -> PagedQuery:
    return paged(_sorted(_filtered(select(Event.id, Event.updated), shape), sort))


def _sorted(stmt: Select, sort: Sort) -> Select:
    column = SORT_COLUMNS[sort.key]
    # The id tie-breaker keeps pages stable when many rows share a date.
    if sort.descending:
        return stmt.order_by(column.desc(), Event.id.desc())
    return stmt.order_by(column.asc(), Event.id.asc())


async def load_views(db: AsyncSession, events: Sequence[Event]) -> list[EventView]:
    """Attach teams and identities with two queries for the whole page, never one per row."""
    if not events:
        return []
    team_ids = {tid for e in events for tid in (e.home_team_id, e.away_team_id) if tid}
    teams: dict[str, Team] = {}
    if team_ids:
        teams = {t.id: t for t in (await db.scalars(select(Team).where(Team.id.in_(team_ids))))}
    links = (
        await db.execute(
            select(EventIdentity.event_id, Identity)
            .join(Identity, Identity.id == EventIdentity.identity_id)
            .where(EventIdentity.event_id.in_([e.id for e in events]))
            .order_by(Identity.media_type.desc())  # league (identity_item) before category
        )
    ).all()
    by_event: dict[str, list[Identity]] = {}
    for event_id, identity in links:
        by_event.setdefault(event_id, []).append(identity)
    return [
        EventView(e, teams.get(e.home_team_id or ""), teams.get(e.away_team_id or ""), by_event.get(e.id, []))
        for e in events
    ]


def _database_of(db: AsyncSession) -> str:
    bind = db.bind
    engine = bind.engine if isinstance(bind, AsyncConnection) else bind
    return str(engine.url) if engine is not None else ""


async def views_of(db: AsyncSession, stamps: Sequence[tuple[str, datetime]]) -> list[EventView]:
    """The views of events given as (id, updated) rows, in that order: built at that stamp
    before (server.services.event_views), else loaded now. An event gone meanwhile is left out."""
    cache = cache_for(_database_of(db))
    found: dict[str, EventView] = {}
    missing = []
    for event_id, updated in stamps:
        view = cache.get(event_id, updated)
        if view is None:
            missing.append(event_id)
        else:
            found[event_id] = view
    if missing:
        events = (await db.scalars(select(Event).where(Event.id.in_(missing)))).all()
        for view in await load_views(db, events):
            found[view.event.id] = view
            cache.put(view.event.id, view.event.updated, view)
    return [found[event_id] for event_id, _ in stamps if event_id in found]


async def list_events(db: AsyncSession, filters: EventFilters, sort: Sort, page: PageQuery) -> Page[EventView]:
    rows = await paginate_prepared(db, _list_query(_shape_of(filters), sort), _values_of(filters), page)
    return Page(await views_of(db, [(row.id, row.updated) for row in rows.entries]), page, rows.total, rows.next_exists)


@functools.cache
def _stamp_by(id_type: str, by_media_type: bool, may_be_user_media: bool, for_owner: bool) -> Select:
    """The query for one event's (id, updated) by `id_type`, built once per shape: an event page
    asks it on every request its answer is not cached."""
    column = {"_id": Event.id, "event_id": Event.external_id, "reference_id": Event.reference_id}[id_type]
    stmt = select(Event.id, Event.updated).where(column == bindparam("ident"))
    if by_media_type:
        stmt = stmt.where(Event.media_type.in_(bindparam("media_types", expanding=True)))
    if may_be_user_media:
        public = Event.owner_id.is_(None)
        stmt = stmt.where(or_(public, Event.owner_id == bindparam("owner_id")) if for_owner else public)
    return stmt.limit(1)


async def get_event(
    db: AsyncSession,
    ident: str,
    *,
    id_type: str = "_id",
    media_types: Sequence[str] = (),
    owner_id: str | None = None,
) -> EventView:
    """One event, highlight or clip; a viewer's own clip only for that viewer (`owner_id`)."""
    stmt = _stamp_by(id_type, bool(media_types), _may_hold_user_media(media_types), owner_id is not None)
    params = {"ident": ident, "media_types": list(media_types), "owner_id": owner_id}
    found = next(iter(await session_rows(db, stmt, params)), None)
    views = await views_of(db, [(found.id, found.updated)]) if found is not None else []
    if not views:
        raise NotFound("Event not found", code="event_not_found")
    return views[0]


async def related_videos(db: AsyncSession, ident: str, page: PageQuery) -> Page[EventView]:
    """Archived games and highlights sharing a team, else the league, with the given item."""
    item = await db.get(Event, ident)
    if item is None:
        raise NotFound("Event not found", code="event_not_found")
    anchor = await db.get(Event, item.parent_event_id) if item.parent_event_id else item
    anchor = anchor or item
    team_ids = [t for t in (anchor.home_team_id, anchor.away_team_id) if t]
    leagues = select(EventIdentity.identity_id).where(
        EventIdentity.event_id == anchor.id, EventIdentity.identity_type == "identity_item"
    )
    same_league = Event.id.in_(select(EventIdentity.event_id).where(EventIdentity.identity_id.in_(leagues)))
    same_teams = or_(Event.home_team_id.in_(team_ids), Event.away_team_id.in_(team_ids)) if team_ids else None
    parents = select(Event.id).where(same_teams if same_teams is not None else same_league)
    related = or_(
        and_(Event.media_type == "event", same_teams if same_teams is not None else same_league),
        and_(Event.media_type.in_(CLIP_MEDIA_TYPES), Event.parent_event_id.in_(parents)),
    )
    stmt = (
        select(Event)
        .where(related, Event.id != item.id, Event.status.in_(("archived", "vod")))
        .order_by(Event.event_date.desc(), Event.id.desc())
    )
    result = await paginate(db, stmt, PageQuery(page.page, page.size, next=True, count=page.count))
    result.entries = await load_views(db, result.entries)
    return result


@dataclass(frozen=True)
class SportCount:
    sport_type: str
    title: str
    count: int


async def grouped_sport_count(db: AsyncSession, statuses: Sequence[str]) -> list[SportCount]:
    rows = (
        await db.execute(
            select(Event.sport_type, func.count())
            .where(Event.media_type == "event", Event.status.in_(statuses), Event.sport_type.is_not(None))
            .group_by(Event.sport_type)
        )
    ).all()
    sports = select(Identity.sport_type, Identity.title).where(Identity.media_type == "identity")
    titles: dict[str | None, str] = dict((await db.execute(sports)).tuples().all())
    counts = [SportCount(sport, titles.get(sport) or sport.replace("-", " ").title(), n) for sport, n in rows]
    return sorted(counts, key=lambda c: (-c.count, c.title))


PROGRAMME_BEFORE = timedelta(hours=6)
PROGRAMME_AFTER = timedelta(hours=24)


def programme_window(now: datetime, start: datetime | None, end: datetime | None) -> tuple[datetime, datetime]:
    """The EPG window: 6 h back to 24 h ahead of now; a side given alone keeps that 30 h span."""
    span = PROGRAMME_BEFORE + PROGRAMME_AFTER
    if start is not None and end is not None:
        return start, end
    if start is not None:
        return start, start + span
    if end is not None:
        return end - span, end
    return now - PROGRAMME_BEFORE, now + PROGRAMME_AFTER
