"""A viewer's subscription contracts: one by id, and their list (by whether they give access
now, and whether they were canceled)."""

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ...errors import NotFound
from ...models import Contract
from ..paging import Page, PageQuery, paginate


class ContractNotFound(NotFound):
    code = "contract_not_found"


async def get(db: AsyncSession, user_id: str, contract_id: str) -> Contract:
    """The viewer's contract; someone else's contract is as good as none."""
    contract = await db.scalar(select(Contract).where(Contract.id == contract_id, Contract.user_id == user_id))
    if contract is None:
        raise ContractNotFound("Subscription not found")
    return contract


async def list_page(
    db: AsyncSession,
    user_id: str,
    *,
    active: bool | None,
    canceled: bool | None,
    now: datetime,
    page: PageQuery,
) -> Page[Contract]:
    """The viewer's contracts, newest first. `active`: only those that give access at `now` (or
    only those that do not); `canceled`: only canceled ones (or only those still renewing)."""
    statement = select(Contract).where(Contract.user_id == user_id)
    if active is not None:
        gives_access = Contract.gives_access(now)
        statement = statement.where(gives_access if active else ~gives_access)
    if canceled is not None:
        statement = statement.where(Contract.canceled_at.is_not(None) if canceled else Contract.canceled_at.is_(None))
    statement = statement.order_by(Contract.created.desc(), Contract.id.desc())
    return await paginate(db, statement, page)
