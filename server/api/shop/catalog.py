"""What is on sale: subscriptions, bundles, and the products that unlock an event."""

from ... import clock
from ...services import access
from ...services import events as events_service
from ...services.commerce import products
from ...services.paging import PageQuery
from ..context import bind_viewer, db_session
from ..envelope import ok, page_of
from .common import presented


async def get_subscriptions(type_: str = "svod|cvod", page: int = 0, size: int = 10):
    current = await bind_viewer()
    async with db_session() as db:
        result = await products.subscriptions_on_sale(db, type_.split("|"), clock.now(), PageQuery(page, size))
    return page_of(result, lambda view: presented(view, current))


async def get_subscription_by_id(id_: str):
    current = await bind_viewer()
    async with db_session() as db:
        view = await products.get_view(db, id_, types=("svod", "cvod", "bundle"))
    return ok(presented(view, current))


async def list_bundles(event_id: str | None = None, page: int = 0, size: int = 10):
    current = await bind_viewer()
    async with db_session() as db:
        result = await products.bundles_on_sale(db, clock.now(), PageQuery(page, size), event_id)
    return page_of(result, lambda view: presented(view, current))


async def get_commerce_options(event_id: str):
    """The event's access for the viewer and the products on sale that would unlock it."""
    current = await bind_viewer()
    async with db_session() as db:
        view = await events_service.get_event(db, event_id)
        identity_ids = [i.id for i in view.identities]
        on_sale = await products.unlocking(db, view.event, identity_ids, clock.now())
    e = view.event
    decision = access.decide(
        current,
        event_id=e.parent_event_id or e.id,
        media_type=e.media_type,
        commerce_type=e.commerce_type,
        commerce_modes=e.commerce_modes or (),
        identity_ids=identity_ids,
        regions=e.regions,
        available_anywhere=e.available_in_region,
    )
    coverage = list(decision.coverage)
    if any(v.product.type == "bundle" for v in on_sale) and "bundle" not in coverage:
        coverage.append("bundle")
    return ok(
        {
            "eventId": e.id,
            "availableForUser": decision.available_for_user,
            "availableInUserRegion": decision.available_in_region,
            "commerceCoverage": coverage,
            "products": [presented(v, current) for v in on_sale],
        }
    )
