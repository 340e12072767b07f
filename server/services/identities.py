"""Main categories, sub-categories (leagues) and teams."""

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, false, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from ..errors import NotFound
from ..models import Identity, IdentityParent, Team, TeamIdentity
from .paging import Page, PageQuery, paginate


@dataclass(frozen=True)
class IdentityFilters:
    media_type: str = "identity"
    parent_id: str | None = None
    archived: bool | None = None


@dataclass
class IdentityView:
    """An identity or a team with its parents (id -> position) and their records."""

    item: Identity | Team
    parent_positions: dict[str, int] = field(default_factory=dict)
    parents: list[Identity] = field(default_factory=list)

    @property
    def is_team(self) -> bool:
        return isinstance(self.item, Team)


async def _identity_views(db: AsyncSession, items: list[Identity]) -> list[IdentityView]:
    if not items:
        return []
    links = (
        (await db.execute(select(IdentityParent).where(IdentityParent.child_id.in_([i.id for i in items]))))
        .scalars()
        .all()
    )
    parents = await _identities_by_id(db, {link.parent_id for link in links})
    views = {i.id: IdentityView(i) for i in items}
    for link in links:
        views[link.child_id].parent_positions[link.parent_id] = link.position
        if link.parent_id in parents:
            views[link.child_id].parents.append(parents[link.parent_id])
    return list(views.values())


async def _team_views(db: AsyncSession, teams: list[Team]) -> list[IdentityView]:
    if not teams:
        return []
    links = (
        (await db.execute(select(TeamIdentity).where(TeamIdentity.team_id.in_([t.id for t in teams])))).scalars().all()
    )
    parents = await _identities_by_id(db, {link.identity_id for link in links})
    views = {t.id: IdentityView(t) for t in teams}
    for link in links:
        parent = parents.get(link.identity_id)
        if parent is not None:
            views[link.team_id].parent_positions[parent.id] = parent.order
            views[link.team_id].parents.append(parent)
    return list(views.values())


async def _identities_by_id(db: AsyncSession, ids: set[str]) -> dict[str, Identity]:
    if not ids:
        return {}
    return {i.id: i for i in await db.scalars(select(Identity).where(Identity.id.in_(ids)))}


async def views_by_id(db: AsyncSession, identity_ids: set[str], team_ids: set[str]) -> dict[str, IdentityView]:
    """Views of these identities and teams keyed by id (a few queries for the whole set, never one per
    id); unknown ids are left out."""
    identities = list((await _identities_by_id(db, identity_ids)).values())
    teams = list(await db.scalars(select(Team).where(Team.id.in_(team_ids)))) if team_ids else []
    views = await _identity_views(db, identities) + await _team_views(db, teams)
    return {view.item.id: view for view in views}


async def list_identities(
    db: AsyncSession, filters: IdentityFilters, sort: str, descending: bool, page: PageQuery
) -> Page[IdentityView]:
    if filters.media_type == "team":
        return await _list_teams(db, filters, sort, descending, page)
    stmt = select(Identity).where(Identity.media_type == filters.media_type)
    if filters.archived is not None:
        stmt = stmt.where(Identity.archived == filters.archived)
    if filters.parent_id:
        stmt = stmt.where(
            Identity.id.in_(select(IdentityParent.child_id).where(IdentityParent.parent_id == filters.parent_id))
        )
    if sort.startswith("media_parent_order."):
        # Children the parent does not list sort last (NULL position).
        placement = aliased(IdentityParent)
        stmt = stmt.outerjoin(
            placement, (placement.child_id == Identity.id) & (placement.parent_id == sort.split(".", 1)[1])
        )
        column: ColumnElement[Any] = func.coalesce(placement.position, 1_000_000)
    else:
        column = {
            "order": Identity.order,
            "title": Identity.title,
            "added": Identity.created,
            "created": Identity.created,
        }[sort].expression
    stmt = stmt.order_by(column.desc() if descending else column.asc(), Identity.title, Identity.id)
    result = await paginate(db, stmt, page)
    result.entries = await _identity_views(db, result.entries)
    return result


async def _list_teams(
    db: AsyncSession, filters: IdentityFilters, sort: str, descending: bool, page: PageQuery
) -> Page[IdentityView]:
    stmt = select(Team)
    if filters.parent_id:
        stmt = stmt.where(
            Team.id.in_(select(TeamIdentity.team_id).where(TeamIdentity.identity_id == filters.parent_id))
        )
    if filters.archived:  # teams are never archived
        stmt = stmt.where(false())
    column = Team.created if sort in ("added", "created") else Team.name
    stmt = stmt.order_by(column.desc() if descending else column.asc(), Team.id)
    result = await paginate(db, stmt, page)
    result.entries = await _team_views(db, result.entries)
    return result


async def get_identity(db: AsyncSession, ident: str) -> IdentityView:
    identity = await db.get(Identity, ident)
    if identity is not None:
        return (await _identity_views(db, [identity]))[0]
    team = await db.get(Team, ident)
    if team is not None:
        return (await _team_views(db, [team]))[0]
    raise NotFound("Identity not found", code="identity_not_found")
