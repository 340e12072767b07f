"""Viewers with stored cards, contracts at their period end, and purchases and contracts whose
charge requires action, for the settlement and renewal tests; all written straight to the
database (as the purchase flows leave them).

`private_database` gives a module its own migrated database (of the same kind as the session's),
for tests that count what one renewal run did: a run looks at every contract of its database."""

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from server import clock
from server.db import Database
from server.migrate import upgrade
from server.models import Contract, PaymentCharge, Product, Purchase, StoredCard, User
from server.payments import CardDetails, CardToken, Charge, PaymentProvider, Refund, SandboxProvider, StoredCardRef
from server.services.commerce import grants
from server.tests.accounts import create_user
from server.tests.commerce import paid_event, product

GOOD_CARD = "4242424242424242"
DECLINED = "4000000000000002"
ACTION_THEN_SUCCESS = "4000000000003220"
ACTION_THEN_DECLINE = "4000000000003063"
ACTION_DELAY = timedelta(seconds=5)


def sandbox(database: Database) -> SandboxProvider:
    return SandboxProvider(database, action_delay=ACTION_DELAY)


class UnexpectedCalls:
    """A PaymentProvider whose every call fails the test; a fake overrides the calls it expects."""

    name = "sandbox"

    async def tokenize(self, card: CardDetails, *, owner_id: str) -> CardToken:
        raise AssertionError("unexpected provider call: tokenize")

    async def store_card(self, token: str, *, owner_id: str) -> StoredCardRef:
        raise AssertionError("unexpected provider call: store_card")

    async def charge(self, source: str, *, owner_id: str, amount_minor: int, currency: str, reference: str) -> Charge:
        raise AssertionError("unexpected provider call: charge")

    async def charge_status(self, charge_id: str) -> Charge:
        raise AssertionError("unexpected provider call: charge_status")

    async def refund(self, charge_id: str, *, amount_minor: int, reference: str) -> Refund:
        raise AssertionError("unexpected provider call: refund")


def card(number: str = GOOD_CARD) -> CardDetails:
    return CardDetails(number=number, exp_month=12, exp_year=clock.now().year + 3, cvc="123", holder="Ada Lovelace")


async def new_viewer(database: Database) -> str:
    """A viewer account written straight to the database; its id."""
    email = await create_user(database)
    async with database.session() as db:
        return (await db.execute(select(User.id).where(User.email == email))).scalar_one()


async def store_card(database: Database, provider: PaymentProvider, user_id: str, number: str = GOOD_CARD) -> str:
    """Save a test card as the viewer's stored card, as the stored-card operation does; its reference."""
    token = await provider.tokenize(card(number), owner_id=user_id)
    ref = await provider.store_card(token.token, owner_id=user_id)
    async with database.session() as db:
        db.add(
            StoredCard(
                user_id=user_id,
                provider=provider.name,
                reference=ref.reference,
                brand=ref.card.brand,
                last4=ref.card.last4,
                exp_month=ref.card.exp_month,
                exp_year=ref.card.exp_year,
                holder=ref.card.holder,
                added=clock.now(),
            )
        )
        await db.commit()
    return ref.reference


async def active_contract(database: Database, product: Product, user_id: str, **columns) -> Contract:
    """A contract whose first payment succeeded now (its period runs from now); `columns`
    override what grants.new_contract and activate_contract set."""
    now = clock.now()
    contract = grants.new_contract(product, user_id, now)
    grants.activate_contract(contract, product, now)
    for name, value in columns.items():
        setattr(contract, name, value)
    async with database.session() as db:
        db.add(contract)
        await db.commit()
    return contract


async def contract(database: Database, contract_id: str) -> Contract:
    async with database.session() as db:
        found = await db.get(Contract, contract_id)
    assert found is not None, f"no contract {contract_id}"
    return found


async def purchase(database: Database, purchase_id: str) -> Purchase:
    async with database.session() as db:
        found = await db.get(Purchase, purchase_id)
    assert found is not None, f"no purchase {purchase_id}"
    return found


async def charges_of(database: Database, user_id: str) -> int:
    async with database.session() as db:
        return (
            await db.execute(select(func.count()).select_from(PaymentCharge).where(PaymentCharge.owner_id == user_id))
        ).scalar_one()


async def renewal_charges(database: Database, contract_id: str) -> list[PaymentCharge]:
    async with database.session() as db:
        return list(
            (
                await db.execute(
                    select(PaymentCharge)
                    .where(PaymentCharge.reference.like(f"renewal:{contract_id}:%"))
                    .order_by(PaymentCharge.created)
                )
            ).scalars()
        )


class Told:
    """What settlement and renewal calls announced (they send nothing themselves), as the
    socket messages their callers send: `sent` holds (name, payload, room) like a
    SocketRecorder's, so `purchase_messages` reads either."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict, str]] = []

    def __call__(self, result):
        """Record what `result` announces (an Announcement, None, or a report carrying
        `announcements`) and return it unchanged, so calls can be wrapped in place."""
        found = getattr(result, "announcements", None)
        for message in found if found is not None else [result]:
            if message is not None and message.user_id is not None:
                payload = {"purchaseId": message.record_id, "status": message.status, "productId": message.product_id}
                if message.event_id is not None:
                    payload["eventId"] = message.event_id
                self.sent.append(("user-purchase-status", payload, f"user:{message.user_id}"))
        return result


def told_here() -> contextlib.AbstractContextManager[Told]:
    """`with told_here() as told:` collects what the calls wrapped in `told(...)` announce."""
    return contextlib.nullcontext(Told())


def purchase_messages(recorder, record_id: str) -> list[dict]:
    """The user-purchase-status payloads a SocketRecorder (or Told) saw for one purchase or contract."""
    return [
        data
        for name, data, _room in recorder.sent
        if name == "user-purchase-status" and data["purchaseId"] == record_id
    ]


async def _charge(provider, user_id: str, number: str, amount: int):
    token = await provider.tokenize(card(number), owner_id=user_id)
    return await provider.charge(
        token.token, owner_id=user_id, amount_minor=amount, currency="EUR", reference=f"{user_id}:{uuid.uuid4()}"
    )


async def pending_purchase(database, provider, number: str) -> tuple[Purchase, str]:
    """A pay-per-view purchase whose card charge requires action, as the purchase flow leaves it
    (the 202 answer); returns it and the event id."""
    event = await paid_event(database)
    ppv = await product(database, "ppv", event_id=event.id)
    user_id = await new_viewer(database)
    row = grants.new_purchase(ppv, user_id, clock.now(), status="init", payment_action="creditCardPay")
    async with database.session() as db:
        db.add(row)
        await db.commit()
    charge = await _charge(provider, user_id, number, ppv.price_minor)
    assert charge.pending
    async with database.session() as db:
        stored = await db.get(Purchase, row.id)
        stored.status, stored.charge_id = "in progress", charge.id
        await db.commit()
    return stored, event.id


async def pending_contract(database, provider, number: str, type_: str = "svod", event_id: str | None = None):
    """A subscription whose first charge requires action (status processing)."""
    # Off sale: the session database is shared, and an svod without identity items would be
    # offered with every event.
    plan = await product(database, type_, event_id=event_id, on_sale=False)
    user_id = await new_viewer(database)
    row = grants.new_contract(plan, user_id, clock.now())
    async with database.session() as db:
        db.add(row)
        await db.commit()
    charge = await _charge(provider, user_id, number, plan.price_minor)
    async with database.session() as db:
        stored = await db.get(Contract, row.id)
        stored.charge_id = charge.id
        await db.commit()
    return stored, plan


@contextlib.asynccontextmanager
async def database_at(url: str) -> AsyncIterator[Database]:
    """A Database on an existing database for the block: for tests that prepare data for servers
    running in other processes (the CLI's cluster tests)."""
    database = Database(url)
    try:
        yield database
    finally:
        await database.dispose()


@contextlib.asynccontextmanager
async def private_database(session_database_url: str, tmp_dir) -> AsyncIterator[Database]:
    """A fresh migrated database of the same kind as `session_database_url`, dropped afterwards."""
    from server.tests.conftest import _drop_postgres_database, _postgres_database

    name = None
    if session_database_url.startswith("sqlite"):
        url = f"sqlite+aiosqlite:///{tmp_dir / f'billing-{uuid.uuid4().hex[:8]}.db'}"
    else:
        name = _postgres_database()
        url = make_url(session_database_url).set(database=name).render_as_string(hide_password=False)
    await asyncio.to_thread(upgrade, url)  # alembic runs its own event loop
    database = Database(url)
    try:
        yield database
    finally:
        await database.dispose()
        if name is not None:
            _drop_postgres_database(name)
