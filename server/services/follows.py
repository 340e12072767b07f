"""What a viewer follows: main categories (`identity`), sub-categories (`identity_item`) and teams."""

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import Conflict, NotFound
from ..models import Follow, Identity, Team, new_id
from .account_lock import lock_account
from .identities import IdentityView, views_by_id
from .paging import Page, PageQuery, paginate

FOLLOW_LIMIT = 500
FOLLOW_TYPES = ("team", "identity_item", "identity")

# A follow counts (and is listed) only while the catalogue still has its item, so every entry
# can carry the item and nobody is stuck at the limit with follows they cannot see.
_ITEM_EXISTS = or_(
    and_(Follow.type == "team", exists().where(Team.id == Follow.reference_id)),
    and_(
        Follow.type != "team",
        exists().where(Identity.id == Follow.reference_id, Identity.media_type == Follow.type),
    ),
)


@dataclass
class FollowView:
    follow: Follow
    item: IdentityView


async def _views(db: AsyncSession, follows: Sequence[Follow]) -> list[FollowView]:
    teams = {f.reference_id for f in follows if f.type == "team"}
    identities = {f.reference_id for f in follows if f.type != "team"}
    items = await views_by_id(db, identities, teams)
    return [FollowView(f, items[f.reference_id]) for f in follows if f.reference_id in items]


async def list_follows(db: AsyncSession, user_id: str, types: Sequence[str], query: PageQuery) -> Page[FollowView]:
    stmt = select(Follow).where(Follow.user_id == user_id, _ITEM_EXISTS)
    if types:
        stmt = stmt.where(Follow.type.in_(types))
    result = await paginate(db, stmt.order_by(Follow.created.desc(), Follow.id.desc()), query)
    result.entries = await _views(db, result.entries)
    return result


async def _item_exists(db: AsyncSession, follow_type: str, reference_id: str) -> bool:
    if follow_type == "team":
        return await db.get(Team, reference_id) is not None
    found = await db.scalar(select(Identity.id).where(Identity.id == reference_id, Identity.media_type == follow_type))
    return found is not None


async def save_follow(db: AsyncSession, user_id: str, follow_type: str, reference_id: str) -> FollowView:
    """Follows the item (following it again keeps the first follow) and commits.

    `db` comes from `Database.write_session()`: the account lock makes the limit hold when
    several requests follow at once."""
    if not await _item_exists(db, follow_type, reference_id):
        what = "Team" if follow_type == "team" else "Identity"
        raise NotFound(f"{what} not found", code="identity_not_found")
    await lock_account(db, user_id)
    follow = await db.scalar(
        select(Follow).where(Follow.user_id == user_id, Follow.type == follow_type, Follow.reference_id == reference_id)
    )
    if follow is None:
        count = await db.scalar(select(func.count()).select_from(Follow).where(Follow.user_id == user_id, _ITEM_EXISTS))
        if (count or 0) >= FOLLOW_LIMIT:
            raise Conflict(f"You follow too many items (at most {FOLLOW_LIMIT})", code="follow_limit_reached")
        follow = Follow(id=new_id(), user_id=user_id, type=follow_type, reference_id=reference_id, created=clock.now())
        db.add(follow)
        await db.flush()
    views = await _views(db, [follow])
    await db.commit()
    if not views:  # the item was deleted after the check above
        raise NotFound("Identity not found", code="identity_not_found")
    return views[0]


async def remove_follow(db: AsyncSession, user_id: str, reference_id: str) -> None:
    """Stops following the item, whatever its type; commits. Absent follows are fine."""
    await db.execute(delete(Follow).where(Follow.user_id == user_id, Follow.reference_id == reference_id))
    await db.commit()
