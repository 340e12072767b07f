"""Subscriptions: subscribing with a new or the stored card, the viewer's contracts, canceling."""

from ... import clock
from ...models import Contract
from ...realtime.announcements import announce_purchase_status
from ...services.access import Viewer
from ...services.commerce import checkout, contracts, products, settlement
from ...services.commerce.products import ProductView
from ...services.paging import PageQuery
from ..http.background import ok_then
from ..http.context import bind_viewer, settings, signed_in, state, viewer_region
from ..http.database import db_session
from ..http.envelope import ok, page_of
from ..http.payments import mail_of, pay_once, payment_provider
from ..presenters import commerce as present


async def _find(user_id: str, contract_id: str) -> Contract:
    async with db_session() as db:
        return await contracts.get(db, user_id, contract_id)


def _shown(contract: Contract, view: ProductView, current: Viewer) -> dict:
    return present.contract(
        contract, present.product_view(view, current), gives_access=contract.gives_access(clock.now())
    )


async def _present(contract: Contract, *, refresh: bool = False) -> dict:
    current = await bind_viewer(refresh=refresh)
    async with db_session() as db:
        view = await products.get_view(db, contract.product_id)
    return _shown(contract, view, current)


async def _subscribe(operation: str, body: dict, source: checkout.PaymentSource):
    async def pay(user_id: str, key: str) -> checkout.Outcome:
        return await checkout.subscribe(
            state("database"),
            payment_provider(),
            user_id,
            product_id=body["subscription_id"],
            source=source,
            idempotency_key=key,
            region=viewer_region(),
            settings=settings(),
        )

    async def show(user_id: str, contract_id: str) -> dict:
        contract = await _find(user_id, contract_id)
        shown = await _present(contract, refresh=True)
        if contract.status == "active":
            # Paid at once: the viewer's other tabs and devices unlock now (a charge that needs
            # action is announced when it settles).
            async with db_session() as db:
                channel = (await products.get_view(db, contract.product_id)).product.event_id
            await announce_purchase_status(
                settlement.Announcement(user_id, contract.id, "success", contract.product_id, channel)
            )
        return shown

    return await pay_once(operation, body, pay, show)


async def subscription_checkout(body: dict):
    source = checkout.PaymentSource(token=body["card"]["token"], save_card=body.get("save_card", True))
    return await _subscribe("subscription_checkout", body, source)


async def subscribe_by_stored_cc(body: dict):
    return await _subscribe("subscribe_by_stored_cc", body, checkout.PaymentSource())


async def get_customer_contracts(
    active: bool | None = None, canceled: bool | None = None, page: int = 0, size: int = 10
):
    principal = await signed_in()
    current = await bind_viewer()
    async with db_session() as db:
        result = await contracts.list_page(
            db, principal.user_id, active=active, canceled=canceled, now=clock.now(), page=PageQuery(page, size)
        )
        bought = await products.views_of(db, {c.product_id for c in result.entries})
    return page_of(result, lambda c: _shown(c, bought[c.product_id], current))


async def get_customer_subscription_by_id(id_: str):
    principal = await signed_in()
    contract = await _find(principal.user_id, id_)
    if contract.payment_status == "in progress":
        database = state("database")
        settled = await settlement.settle_contract(database, payment_provider(), id_, settings())
        await announce_purchase_status(settled, database=database)
        contract = await _find(principal.user_id, id_)
        shown = await _present(contract, refresh=True)  # settling may have changed what they hold
        return ok_then(shown, mail_of(settled))
    return ok(await _present(contract))


async def cancel_contract(body: dict):
    principal = await signed_in()
    contract = await checkout.cancel(state("database"), principal.user_id, body["id"])
    return ok(await _present(contract, refresh=True))
