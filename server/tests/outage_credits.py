"""Live pay-per-view events, their buyers and their stream's failures, for the outage credit tests
(server/tests/services/test_outage_credit.py, server/tests/api/admin/test_outage_credit.py).

Buyers pay by card through the checkout with the sandbox provider, so every purchase has a real
charge to refund. An interrupted ingest is the event's live input recording in state
`interrupted`, as the feed leaves it when the encoder stays away (server.services.live_feeds)."""

import uuid
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update

from server import clock
from server.db import Database
from server.models import AuditEntry, Event, MediaAsset, OutboxMail, PaymentRefund, Product, User, new_id
from server.payments import PaymentProvider, Refund, SandboxProvider
from server.realtime.announcements import announce_purchase_credited
from server.services import outage_credit, qoe_beacons
from server.services.commerce import checkout
from server.settings import Settings
from server.tests.billing import new_viewer, sandbox, store_card
from server.tests.commerce import paid_event, product

CREDITED = "user-purchase-credited"


@dataclass(frozen=True)
class Buyer:
    user_id: str
    email: str
    purchase_id: str


async def live_ppv_event(database: Database, price_minor: int = 1499) -> tuple[Event, Product]:
    """A live event with its pay-per-view product (removed after the test, with its credit)."""
    event = await paid_event(database, status="live", when=clock.now() - timedelta(minutes=30))
    return event, await product(database, "ppv", event_id=event.id, price_minor=price_minor)


async def buyers(database: Database, event: Event, ppv: Product, count: int) -> list[Buyer]:
    """`count` new viewers who each bought the event by card, now."""
    provider = sandbox(database)
    bought = []
    for _ in range(count):
        user_id = await new_viewer(database)
        await store_card(database, provider, user_id)
        outcome = await checkout.buy_ppv(
            database,
            provider,
            user_id,
            event_id=event.id,
            product_id=ppv.id,
            source=checkout.PaymentSource(),
            idempotency_key=f"key-{uuid.uuid4()}",
            region=None,
        )
        assert outcome.status == 200 and outcome.failure is None
        async with database.session() as db:
            email = await db.scalar(select(User.email).where(User.id == user_id))
        assert email is not None
        bought.append(Buyer(user_id, email, outcome.record_id))
    return bought


async def interrupt(database: Database, event_id: str) -> str:
    """The event's live input is interrupted (the encoder stayed away past its grace); the asset."""
    now = clock.now()
    asset = MediaAsset(id=new_id(), kind="live", event_id=event_id, state="interrupted", created=now, updated=now)
    async with database.session() as db:
        db.add(asset)
        await db.commit()
    return asset.id


async def recover(database: Database, asset_id: str) -> None:
    """The encoder is back: its recording is on air again."""
    async with database.session() as db:
        await db.execute(update(MediaAsset).where(MediaAsset.id == asset_id).values(state="live"))
        await db.commit()


async def failing_starts(database: Database, settings: Settings, event_id: str, *, plays: int, failures: int) -> None:
    """`plays` views of the event began now, as players report them (POST /qoe/beacons), and
    `failures` of them ended in a fatal technical error before their first frame."""
    now = clock.now().isoformat()
    for n in range(plays):
        view = uuid.uuid4().hex
        ending: dict[str, object] = {"type": "error", "code": "manifestLoadError", "fatal": True, "business": False}
        started: dict[str, object] = {"type": "startup", "ms": 900}
        beacons: list[dict[str, object]] = [{"type": "start"}, ending if n < failures else started]
        batch = {
            "beacons": [
                {"event": event_id, "view": view, "player": "hls.js", "playerVersion": "1.5.0", "at": now, **beacon}
                for beacon in beacons
            ],
            "anonymousId": f"anon-{view[:12]}",
        }
        async with database.session() as db:
            await qoe_beacons.record(db, batch, settings=settings, viewer_session=None, address=f"198.51.100.{n + 1}")


async def set_status(database: Database, event_id: str, status: str) -> None:
    async with database.session() as db:
        await db.execute(update(Event).where(Event.id == event_id).values(status=status))
        await db.commit()


async def a_round(
    database: Database, settings: Settings, provider: PaymentProvider | None = None
) -> outage_credit.Round:
    """One round of the `outage-credit` job, telling buyers as the job does."""
    return await outage_credit.run_round(
        database, provider or sandbox(database), settings, announce=announce_purchase_credited
    )


def later(**delta) -> None:
    clock.advance(timedelta(**delta))


async def describe(database: Database, settings: Settings, event_id: str) -> outage_credit.Description:
    async with database.session() as db:
        return await outage_credit.describe(db, event_id, clock.now(), settings)


async def refunds_of(database: Database, purchase_id: str) -> list[PaymentRefund]:
    async with database.session() as db:
        return list(
            await db.scalars(
                select(PaymentRefund).where(PaymentRefund.reference == outage_credit.refund_reference(purchase_id))
            )
        )


async def credit_mails(database: Database, email: str) -> list[OutboxMail]:
    async with database.session() as db:
        return list(
            await db.scalars(
                select(OutboxMail)
                .where(OutboxMail.to_address == email, OutboxMail.kind == "outage_credit")
                .order_by(OutboxMail.created)
            )
        )


async def credit_entries(database: Database, purchase_id: str) -> list[AuditEntry]:
    async with database.session() as db:
        return list(
            await db.scalars(
                select(AuditEntry).where(
                    AuditEntry.action == outage_credit.AUDIT_ACTION, AuditEntry.target == purchase_id
                )
            )
        )


def credited_messages(socket, buyer: Buyer) -> list[dict]:
    """The user-purchase-credited messages the buyer's room got."""
    return [data for name, data, room in socket.sent if name == CREDITED and room == f"user:{buyer.user_id}"]


class ProcessDied(BaseException):
    """The process stopped here: nothing after it ran (not an error the round could catch)."""


class DyingSandbox(SandboxProvider):
    """The sandbox, in a process that dies right after its `dies_after`-th refund went through,
    before anything recorded it."""

    def __init__(self, database: Database, dies_after: int):
        super().__init__(database)
        self.dies_after = dies_after
        self.refunded = 0

    async def refund(self, charge_id: str, *, amount_minor: int, reference: str) -> Refund:
        refund = await super().refund(charge_id, amount_minor=amount_minor, reference=reference)
        self.refunded += 1
        if self.refunded == self.dies_after:
            raise ProcessDied
        return refund
