"""Staff: every product, on sale or not (to pick one for access codes)."""

from ...services.commerce import products
from ...services.paging import PageQuery
from ..http.context import staff
from ..http.database import db_session
from ..http.envelope import page_of
from ..presenters import commerce as present


async def list_products(type_: str | None = None, event_id: str | None = None, page: int = 0, size: int = 10):
    await staff()
    async with db_session() as db:
        result = await products.all_products(db, PageQuery(page, size), type_=type_, event_id=event_id)
    return page_of(result, lambda view: present.product_view(view, None))
