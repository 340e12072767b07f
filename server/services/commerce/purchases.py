"""A viewer's pay-per-view purchases: one by id, and their list."""

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ...errors import NotFound
from ...models import Purchase
from ..paging import Page, PageQuery, paginate


class PurchaseNotFound(NotFound):
    code = "purchase_not_found"


async def get(db: AsyncSession, user_id: str, purchase_id: str) -> Purchase:
    """The viewer's purchase; someone else's purchase is as good as none."""
    purchase = await db.scalar(select(Purchase).where(Purchase.id == purchase_id, Purchase.user_id == user_id))
    if purchase is None:
        raise PurchaseNotFound("Purchase not found")
    return purchase


async def list_page(db: AsyncSession, user_id: str, status: str | None, page: PageQuery) -> Page[Purchase]:
    """The viewer's purchases, newest first, optionally of one status."""
    statement = select(Purchase).where(Purchase.user_id == user_id)
    if status:
        statement = statement.where(Purchase.status == status)
    statement = statement.order_by(Purchase.created.desc(), Purchase.id.desc())
    return await paginate(db, statement, page)
