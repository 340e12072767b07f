"""Subscriptions: subscribing with a new or the stored card, the viewer's contracts, canceling."""

from sqlalchemy import and_, or_, select

from ... import clock
from ...models import Contract
from ...services.commerce import checkout, products, settlement
from ...services.commerce.holdings import contract_gives_access
from ...services.paging import PageQuery, paginate
from .. import commerce_presenters as present
from ..context import bind_viewer, db_session, signed_in, state, viewer_region
from ..envelope import ok, page_of
from .common import pay_once, payment_provider, presented


async def _find(user_id: str, contract_id: str) -> Contract:
    async with db_session() as db:
        contract = (
            await db.execute(select(Contract).where(Contract.id == contract_id, Contract.user_id == user_id))
        ).scalar_one_or_none()
    if contract is None:  # someone else's contract is as good as none
        raise checkout.ContractNotFound("Subscription not found")
    return contract


def _shown(contract: Contract, view, current) -> dict:
    gives = contract_gives_access(
        contract.status, contract.period_end, contract.grace_until, clock.now(), contract.payment_status
    )
    return present.contract(contract, presented(view, current), gives_access=gives)


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
        )

    async def show(user_id: str, contract_id: str) -> dict:
        return await _present(await _find(user_id, contract_id), refresh=True)

    return await pay_once(operation, body, pay, show)


async def subscription_checkout(body: dict):
    source = checkout.PaymentSource(token=body["card"]["token"], save_card=body.get("save_card", True))
    return await _subscribe("subscription_checkout", body, source)


async def subscribe_by_stored_cc(body: dict):
    return await _subscribe("subscribe_by_stored_cc", body, checkout.PaymentSource())


def _gives_access_now(now):
    return or_(
        and_(
            Contract.status == "active",
            or_(Contract.period_end.is_(None), Contract.period_end > now, Contract.payment_status == "in progress"),
        ),
        and_(Contract.status == "past_due", Contract.grace_until > now),
    )


async def get_customer_contracts(
    active: bool | None = None, canceled: bool | None = None, page: int = 0, size: int = 10
):
    principal = await signed_in()
    current = await bind_viewer()
    now = clock.now()
    statement = select(Contract).where(Contract.user_id == principal.user_id)
    if active is not None:
        statement = statement.where(_gives_access_now(now) if active else ~_gives_access_now(now))
    if canceled is not None:
        statement = statement.where(Contract.canceled_at.is_not(None) if canceled else Contract.canceled_at.is_(None))
    statement = statement.order_by(Contract.created.desc(), Contract.id.desc())
    async with db_session() as db:
        result = await paginate(db, statement, PageQuery(page, size))
        bought = await products.views_of(db, {c.product_id for c in result.entries})
    return page_of(result, lambda c: _shown(c, bought[c.product_id], current))


async def get_customer_subscription_by_id(id_: str):
    principal = await signed_in()
    contract = await _find(principal.user_id, id_)
    if contract.payment_status == "in progress":
        await settlement.settle_contract(state("database"), payment_provider(), id_)
        contract = await _find(principal.user_id, id_)
        return ok(await _present(contract, refresh=True))  # settling may have changed what they hold
    return ok(await _present(contract))


async def cancel_contract(body: dict):
    principal = await signed_in()
    contract = await checkout.cancel(state("database"), principal.user_id, body["id"])
    return ok(await _present(contract, refresh=True))
