"""Pay-per-view: buying with a new or the stored card, and the viewer's purchases."""

from sqlalchemy import select

from ...errors import NotFound
from ...models import Purchase
from ...services.commerce import checkout, products, settlement
from ...services.paging import PageQuery, paginate
from .. import commerce_presenters as present
from ..context import bind_viewer, db_session, signed_in, state, viewer_region
from ..envelope import ok, page_of
from .common import pay_once, payment_provider, presented


class PurchaseNotFound(NotFound):
    code = "purchase_not_found"


async def _find(user_id: str, purchase_id: str) -> Purchase:
    async with db_session() as db:
        purchase = (
            await db.execute(select(Purchase).where(Purchase.id == purchase_id, Purchase.user_id == user_id))
        ).scalar_one_or_none()
    if purchase is None:  # someone else's purchase is as good as none
        raise PurchaseNotFound("Purchase not found")
    return purchase


async def _present(purchase: Purchase, *, refresh: bool = False) -> dict:
    current = await bind_viewer(refresh=refresh)
    async with db_session() as db:
        view = await products.get_view(db, purchase.product_id)
    return present.purchase(purchase, presented(view, current))


async def _buy(operation: str, body: dict, source: checkout.PaymentSource):
    async def pay(user_id: str, key: str) -> checkout.Outcome:
        return await checkout.buy_ppv(
            state("database"),
            payment_provider(),
            user_id,
            event_id=body["event_id"],
            product_id=body["product_id"],
            source=source,
            idempotency_key=key,
            region=viewer_region(),
        )

    async def show(user_id: str, purchase_id: str) -> dict:
        return await _present(await _find(user_id, purchase_id), refresh=True)

    return await pay_once(operation, body, pay, show)


async def purchase_ppv(body: dict):
    source = checkout.PaymentSource(token=body["card"]["token"], save_card=body.get("save_card", False))
    return await _buy("purchase_ppv", body, source)


async def purchase_ppv_by_stored_cc(body: dict):
    return await _buy("purchase_ppv_by_stored_cc", body, checkout.PaymentSource())


async def list_ppv_purchases(
    page: int = 0, size: int = 10, next_: bool = False, count: bool = False, status: str | None = None
):
    principal = await signed_in()
    current = await bind_viewer()
    statement = select(Purchase).where(Purchase.user_id == principal.user_id)
    if status:
        statement = statement.where(Purchase.status == status)
    statement = statement.order_by(Purchase.created.desc(), Purchase.id.desc())
    async with db_session() as db:
        result = await paginate(db, statement, PageQuery(page, size, next_, count))
        bought = await products.views_of(db, {p.product_id for p in result.entries})
    return page_of(result, lambda p: present.purchase(p, presented(bought[p.product_id], current)))


async def get_ppv_purchase(id_: str):
    principal = await signed_in()
    purchase = await _find(principal.user_id, id_)
    if purchase.status == "in progress":
        await settlement.settle_purchase(state("database"), payment_provider(), id_)
        purchase = await _find(principal.user_id, id_)
        return ok(await _present(purchase, refresh=True))  # settling may have changed what they hold
    return ok(await _present(purchase))
