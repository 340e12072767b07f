"""Products and paid events for commerce tests, written straight to the database.

Every call makes new rows, so tests sharing the session database never see each other's."""

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete

from server import clock
from server.db import Database
from server.models import BundleItem, Event, EventIdentity, Product, new_id

from . import factories

# Events made by `paid_event`, removed after each test (server/tests/conftest.py) so catalogue
# tests sharing the session database keep counting only the catalogue's own events.
CREATED: list[tuple[Database, str]] = []


async def remove_created_events() -> None:
    while CREATED:
        database, event_id = CREATED.pop()
        async with database.session() as db:
            await db.execute(delete(Event).where(Event.id == event_id))
            await db.commit()


async def paid_event(
    database,
    *,
    commerce_type: str = "commerce_ppv_media",
    modes: Sequence[str] = ("ppv",),
    identity_ids: Sequence[str] = (),
    status: str = "upcoming",
    regions: Sequence[str] = (),
    when: datetime | None = None,
    hls_stream: str | None = "/media/vod/football/index.m3u8",
    **kw,
) -> Event:
    async with database.session() as db:
        event = factories.event(
            db,
            f"Paid match {new_id()[:6]}",
            status=status,
            when=when or clock.now() + timedelta(days=1),
            commerce_type=commerce_type,
            commerce_modes=list(modes),
            regions=list(regions),
            hls_stream=hls_stream,
            **kw,
        )
        for identity_id in identity_ids:
            db.add(EventIdentity(event_id=event.id, identity_id=identity_id, identity_type="identity_item"))
        await db.commit()
        CREATED.append((database, event.id))
        return event


async def product(
    database,
    type_: str = "ppv",
    *,
    event_id: str | None = None,
    price_minor: int = 999,
    currency: str | None = "EUR",
    title: str | None = None,
    renewable: bool | None = None,
    duration: int | None = None,
    duration_units: str | None = None,
    identity_items: Sequence[str] = (),
    regions: Sequence[str] = (),
    items: Sequence[str] = (),
    bundle_start: datetime | None = None,
    bundle_end: datetime | None = None,
    auto_renew: bool = False,
    on_sale: bool = True,
    offer_start: datetime | None = None,
    offer_end: datetime | None = None,
    description: str = "For tests",
    descriptions: dict[str, str] | None = None,
) -> Product:
    """A product; svod and cvod default to renewable monthly contracts."""
    now = clock.now()
    subscription = type_ in ("svod", "cvod")
    row = Product(
        id=new_id(),
        type=type_,
        title=title or f"{type_} product {new_id()[:6]}",
        description=description,
        descriptions=dict(descriptions or {}),
        event_id=event_id,
        price_minor=price_minor,
        currency=currency,
        on_sale=on_sale,
        offer_start=offer_start,
        offer_end=offer_end,
        renewable=subscription if renewable is None else renewable,
        duration=duration if duration is not None else (1 if subscription else None),
        duration_units=duration_units if duration_units is not None else ("months" if subscription else None),
        regions=list(regions),
        identity_items=list(identity_items),
        bundle_start=bundle_start,
        bundle_end=bundle_end,
        auto_renew=auto_renew,
        created=now,
        updated=now,
    )
    async with database.session() as db:
        db.add(row)
        await db.flush()
        for position, item in enumerate(items):
            db.add(BundleItem(bundle_id=row.id, product_id=item, position=position))
        await db.commit()
    return row


async def buy(database, user_id: str, event_id: str) -> Product:
    """A paid pay-per-view of `event_id` for `user_id`, recorded as the card checkout records one."""
    from server.services.commerce import grants

    ppv = await product(database, "ppv", event_id=event_id)
    now = clock.now()
    async with database.session() as db:
        purchase = grants.new_purchase(ppv, user_id, now, status="init", payment_action="creditCardPay")
        db.add(purchase)
        await grants.complete_purchase(db, purchase, ppv, now)
        await db.commit()
    return ppv
