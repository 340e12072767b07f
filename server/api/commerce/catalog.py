"""What is on sale: subscriptions, bundles, and the products that unlock an event."""

from ... import clock
from ...services.commerce import products
from ...services.paging import PageQuery
from ..http.context import bind_viewer
from ..http.database import db_session
from ..http.envelope import ok, page_of
from ..presenters import commerce as present


async def get_subscriptions(type_: str = "svod|cvod", page: int = 0, size: int = 10):
    current = await bind_viewer()
    async with db_session() as db:
        result = await products.subscriptions_on_sale(db, type_.split("|"), clock.now(), PageQuery(page, size))
    return page_of(result, lambda view: present.product_view(view, current))


async def get_subscription_by_id(id_: str):
    current = await bind_viewer()
    async with db_session() as db:
        view = await products.get_view(db, id_, types=("svod", "cvod", "bundle"))
    return ok(present.product_view(view, current))


async def list_bundles(event_id: str | None = None, page: int = 0, size: int = 10):
    current = await bind_viewer()
    async with db_session() as db:
        result = await products.bundles_on_sale(db, clock.now(), PageQuery(page, size), event_id)
    return page_of(result, lambda view: present.product_view(view, current))
