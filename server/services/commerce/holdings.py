"""What one viewer holds now: the products their purchases and contracts give, expanded into the
events, leagues and channels those unlock. Loaded once per request (three small indexed queries)
and handed to `server.services.access.decide` for every event of the answer."""

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from ...models import BundleItem, Contract, Product, Purchase
from ...models.commerce import contract_gives_access
from ...single_flight import SingleFlight


@dataclass(frozen=True)
class Holdings:
    product_ids: frozenset[str] = frozenset()  # held now, bundles and their items included
    event_ids: frozenset[str] = frozenset()  # pay-per-view events (purchases, codes, bundles)
    subscription_items: frozenset[str] = frozenset()  # identity items an svod covers
    subscription_everything: bool = False  # an svod without identity items covers every event
    channel_event_ids: frozenset[str] = frozenset()  # channels of held cvod products
    channel_items: frozenset[str] = frozenset()  # identity items those channels carry
    pending_product_ids: frozenset[str] = frozenset()  # purchases or contracts still processing
    canceled_product_ids: frozenset[str] = frozenset()  # held, canceled, running to period end
    contract_ends: dict[str, datetime] = field(default_factory=dict)  # product id -> period end

    def holds(self, product_id: str) -> bool:
        return product_id in self.product_ids


EMPTY = Holdings()


def _purchases_now(user_id: str, now: datetime) -> Select[tuple[str, str]]:
    return select(Purchase.product_id, Purchase.status).where(
        Purchase.user_id == user_id,
        or_(
            Purchase.status.in_(("init", "in progress")),
            and_(
                Purchase.status == "success",
                or_(Purchase.valid_from.is_(None), Purchase.valid_from <= now),
                or_(Purchase.valid_until.is_(None), Purchase.valid_until > now),
            ),
        ),
    )


def _contracts_now(
    user_id: str, now: datetime
) -> Select[tuple[str, str, datetime | None, datetime | None, datetime | None, str]]:
    return select(
        Contract.product_id,
        Contract.status,
        Contract.period_end,
        Contract.grace_until,
        Contract.canceled_at,
        Contract.payment_status,
    ).where(Contract.user_id == user_id, Contract.status.in_(("processing", "active", "past_due")))


async def load(db: AsyncSession, user_id: str, now: datetime) -> Holdings:
    held: set[str] = set()
    pending: set[str] = set()
    canceled: set[str] = set()
    ends: dict[str, datetime] = {}
    for product_id, status in (await db.execute(_purchases_now(user_id, now))).all():
        (held if status == "success" else pending).add(product_id)
    contracts = (await db.execute(_contracts_now(user_id, now))).all()
    for product_id, status, period_end, grace_until, canceled_at, payment_status in contracts:
        if status == "processing":
            pending.add(product_id)
        elif contract_gives_access(status, period_end, grace_until, payment_status, now):
            held.add(product_id)
            if period_end is not None:
                ends[product_id] = period_end
            if canceled_at is not None:
                canceled.add(product_id)
    if not held:
        return Holdings(pending_product_ids=frozenset(pending)) if pending else EMPTY

    # Bundles give their items (one level: a bundle does not contain bundles).
    items = (await db.execute(select(BundleItem.product_id).where(BundleItem.bundle_id.in_(held)))).scalars().all()
    held.update(items)
    products = (
        await db.execute(
            select(Product.id, Product.type, Product.event_id, Product.identity_items).where(Product.id.in_(held))
        )
    ).all()

    events: set[str] = set()
    sub_items: set[str] = set()
    channels: set[str] = set()
    channel_items: set[str] = set()
    everything = False
    for _id, kind, event_id, identity_items in products:
        if kind == "ppv" and event_id:
            events.add(event_id)
        elif kind == "svod":
            if identity_items:
                sub_items.update(identity_items)
            else:
                everything = True
        elif kind == "cvod":
            if event_id:
                channels.add(event_id)
            channel_items.update(identity_items or ())
    return Holdings(
        product_ids=frozenset(held),
        event_ids=frozenset(events),
        subscription_items=frozenset(sub_items),
        subscription_everything=everything,
        channel_event_ids=frozenset(channels),
        channel_items=frozenset(channel_items),
        pending_product_ids=frozenset(pending),
        canceled_product_ids=frozenset(canceled),
        contract_ends=ends,
    )


class HoldingsCache:
    """What each viewer holds, kept for a moment so a page's calls (and a viewer's next page) do
    not query it again. Entries age with `server.clock`. This process forgets a viewer's entry when
    it changes what they hold (`forget`); another process may answer from its copy for at most
    `ttl` seconds, which only delays access after a purchase made there (access ends by the
    period ends kept inside, not by the cache)."""

    def __init__(self, ttl_seconds: float, max_entries: int = 100_000):
        from cachetools import TTLCache

        from ... import clock

        self.enabled = ttl_seconds > 0
        # A viewer's page fires several calls at once: one load answers them all.
        self.loading: SingleFlight[Holdings] = SingleFlight()
        self._entries: TTLCache[str, Holdings] = TTLCache(
            maxsize=max_entries, ttl=ttl_seconds or 1, timer=clock.timestamp
        )

    def get(self, user_id: str) -> Holdings | None:
        return self._entries.get(user_id) if self.enabled else None

    def put(self, user_id: str, held: Holdings) -> None:
        if self.enabled:
            self._entries[user_id] = held

    def forget(self, user_id: str) -> None:
        self._entries.pop(user_id, None)
