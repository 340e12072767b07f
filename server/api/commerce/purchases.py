"""Pay-per-view: buying with a new or the stored card, and the viewer's purchases."""

from ...models import Purchase
from ...realtime.announcements import announce_purchase_status
from ...services.commerce import checkout, products, purchases, settlement
from ...services.paging import PageQuery
from ..http.background import ok_then
from ..http.context import bind_viewer, settings, signed_in, state, viewer_region
from ..http.database import db_session
from ..http.envelope import ok, page_of
from ..http.payments import mail_of, pay_once, payment_provider
from ..presenters import commerce as present


async def _find(user_id: str, purchase_id: str) -> Purchase:
    async with db_session() as db:
        return await purchases.get(db, user_id, purchase_id)


async def _present(purchase: Purchase, *, refresh: bool = False) -> dict:
    current = await bind_viewer(refresh=refresh)
    async with db_session() as db:
        view = await products.get_view(db, purchase.product_id)
    return present.purchase(purchase, present.product_view(view, current))


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
            settings=settings(),
        )

    async def show(user_id: str, purchase_id: str) -> dict:
        purchase = await _find(user_id, purchase_id)
        shown = await _present(purchase, refresh=True)
        if purchase.status == "success":
            # Paid at once: the viewer's other tabs and devices unlock now (a charge that needs
            # action is announced when it settles).
            await announce_purchase_status(
                settlement.Announcement(user_id, purchase.id, "success", purchase.product_id, purchase.event_id)
            )
        return shown

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
    async with db_session() as db:
        result = await purchases.list_page(db, principal.user_id, status, PageQuery(page, size, next_, count))
        bought = await products.views_of(db, {p.product_id for p in result.entries})
    return page_of(result, lambda p: present.purchase(p, present.product_view(bought[p.product_id], current)))


async def get_ppv_purchase(id_: str):
    principal = await signed_in()
    purchase = await _find(principal.user_id, id_)
    if purchase.status == "in progress":
        database = state("database")
        settled = await settlement.settle_purchase(database, payment_provider(), id_, settings())
        await announce_purchase_status(settled, database=database)
        purchase = await _find(principal.user_id, id_)
        shown = await _present(purchase, refresh=True)  # settling may have changed what they hold
        return ok_then(shown, mail_of(settled))
    return ok(await _present(purchase))
