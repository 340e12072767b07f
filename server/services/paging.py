"""Offset paging with the envelope's optional extras (`nextExists`, `totalCount`)."""

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Row, Select, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..db import session_rows

T = TypeVar("T")


@dataclass(frozen=True)
class PageQuery:
    page: int = 0
    size: int = 10
    next: bool = False
    count: bool = False

    @property
    def offset(self) -> int:
        return self.page * self.size


@dataclass
class Page(Generic[T]):
    entries: list[T]
    query: PageQuery
    total: int | None = None
    next_exists: bool | None = None


@dataclass(frozen=True)
class PagedQuery:
    """A query built once for many pages (`paged`): its rows with `offset` and `limit` bound at
    each run, and its count."""

    rows: Select
    count: Select


def paged(stmt: Select) -> PagedQuery:
    rows = stmt.offset(bindparam("page_offset")).limit(bindparam("page_limit"))
    return PagedQuery(rows, select(func.count()).select_from(stmt.order_by(None).subquery()))


async def paginate_prepared(
    db: AsyncSession, query: PagedQuery, parameters: dict[str, Any], page: PageQuery
) -> Page[Row[Any]]:
    """`paginate` for a PagedQuery: Core rows, and no statement built per call."""
    extra = 1 if page.next else 0
    bounds = {"page_offset": page.offset, "page_limit": page.size + extra}
    rows = await session_rows(db, query.rows, {**parameters, **bounds})
    next_exists = None
    if page.next:
        next_exists = len(rows) > page.size
        rows = rows[: page.size]
    total = (await session_rows(db, query.count, parameters))[0][0] if page.count else None
    return Page(rows, page, total, next_exists)


async def paginate(db: AsyncSession, stmt: Select, query: PageQuery, *, scalars: bool = True) -> Page[Any]:
    """Run `stmt` for one page; fetch one extra row to learn whether a next page exists."""
    extra = 1 if query.next else 0
    result = await db.execute(stmt.offset(query.offset).limit(query.size + extra))
    rows = list(result.scalars() if scalars else result.all())
    next_exists = None
    if query.next:
        next_exists = len(rows) > query.size
        rows = rows[: query.size]
    total = None
    if query.count:
        counted = stmt.order_by(None).subquery()
        total = (await db.execute(select(func.count()).select_from(counted))).scalar_one()
    return Page(rows, query, total, next_exists)
