"""What a viewer may do about one event: whether they may watch it, and what would unlock it."""

from ... import clock
from ...services import access
from ...services import events as events_service
from ...services.commerce import products
from ..http.context import bind_viewer
from ..http.database import db_session
from ..http.envelope import ok
from ..presenters import commerce as present


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
            "products": [present.product_view(v, current) for v in on_sale],
        }
    )
