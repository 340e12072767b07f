"""The viewer's watchlist: events, highlights and clips kept to watch later (the session's `selected`)."""

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import Conflict, NotFound
from ..models import Event, WatchlistItem
from .account_lock import lock_account
from .events import EventView, load_views
from .paging import Page, PageQuery, paginate

WATCHLIST_LIMIT = 500

# Most recently added first; the event id breaks ties so pages never overlap.
_NEWEST_FIRST = (WatchlistItem.created.desc(), WatchlistItem.event_id.desc())


async def watchlist_ids(db: AsyncSession, user_id: str) -> list[str]:
    rows = await db.scalars(
        select(WatchlistItem.event_id).where(WatchlistItem.user_id == user_id).order_by(*_NEWEST_FIRST)
    )
    return list(rows)


async def watchlist_page(db: AsyncSession, user_id: str, query: PageQuery) -> Page[EventView]:
    stmt = (
        select(Event)
        .join(WatchlistItem, WatchlistItem.event_id == Event.id)
        .where(WatchlistItem.user_id == user_id)
        .order_by(*_NEWEST_FIRST)
    )
    result = await paginate(db, stmt, query)
    result.entries = await load_views(db, result.entries)
    return result


async def add_to_watchlist(db: AsyncSession, user_id: str, event_id: str) -> list[str]:
    """Adds the item (a no-op when it is there already) and commits; answers the ids after the change.

    `db` comes from `Database.write_session()`: the account lock makes the limit hold when
    several requests add at once."""
    event = await db.get(Event, event_id)
    if event is None or event.owner_id not in (None, user_id):  # another viewer's clip: as if absent
        raise NotFound("Event not found", code="event_not_found")
    await lock_account(db, user_id)
    present = await db.scalar(
        select(WatchlistItem.event_id).where(WatchlistItem.user_id == user_id, WatchlistItem.event_id == event_id)
    )
    if present is None:
        size = await db.scalar(select(func.count()).select_from(WatchlistItem).where(WatchlistItem.user_id == user_id))
        if (size or 0) >= WATCHLIST_LIMIT:
            raise Conflict(f"Your watchlist is full ({WATCHLIST_LIMIT} items)", code="watchlist_full")
        db.add(WatchlistItem(user_id=user_id, event_id=event_id, created=clock.now()))
        try:
            await db.flush()
        except IntegrityError:  # the event was deleted after the check above
            raise NotFound("Event not found", code="event_not_found") from None
    ids = await watchlist_ids(db, user_id)
    await db.commit()
    return ids


async def remove_from_watchlist(db: AsyncSession, user_id: str, event_id: str) -> list[str]:
    """Removes the item if it is there and commits; answers the ids after the change."""
    await db.execute(delete(WatchlistItem).where(WatchlistItem.user_id == user_id, WatchlistItem.event_id == event_id))
    ids = await watchlist_ids(db, user_id)
    await db.commit()
    return ids
