"""Products: what is on sale, and which products unlock an event."""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from ...errors import Conflict, NotFound
from ...models import BundleItem, Event, EventIdentity, Product
from ..paging import Page, PageQuery, paginate
from ..regions import in_region


class ProductNotFound(NotFound):
    code = "product_not_found"


@dataclass(frozen=True)
class ProductView:
    product: Product
    items: tuple[Product, ...] = ()  # a bundle's contents


def _on_sale(now: datetime) -> ColumnElement[bool]:
    return and_(
        Product.on_sale.is_(True),
        or_(Product.offer_start.is_(None), Product.offer_start <= now),
        or_(Product.offer_end.is_(None), Product.offer_end > now),
    )


def is_on_sale(product: Product, now: datetime) -> bool:
    return bool(
        product.on_sale
        and (product.offer_start is None or product.offer_start <= now)
        and (product.offer_end is None or product.offer_end > now)
    )


async def with_items(db: AsyncSession, products: Sequence[Product]) -> list[ProductView]:
    bundles = [p.id for p in products if p.type == "bundle"]
    contents: dict[str, list[Product]] = defaultdict(list)
    if bundles:
        rows = await db.execute(
            select(BundleItem.bundle_id, Product)
            .join(Product, Product.id == BundleItem.product_id)
            .where(BundleItem.bundle_id.in_(bundles))
            .order_by(BundleItem.bundle_id, BundleItem.position)
        )
        for bundle_id, item in rows.all():
            contents[bundle_id].append(item)
    return [ProductView(p, tuple(contents.get(p.id, ()))) for p in products]


async def get_product(db: AsyncSession, product_id: str) -> Product:
    product = await db.get(Product, product_id)
    if product is None:
        raise ProductNotFound("Product not found")
    return product


async def get_view(db: AsyncSession, product_id: str, *, types: Iterable[str] | None = None) -> ProductView:
    product = await get_product(db, product_id)
    if types is not None and product.type not in tuple(types):
        raise ProductNotFound("Product not found")
    return (await with_items(db, [product]))[0]


async def _page(db: AsyncSession, statement: Select[tuple[Product]], query: PageQuery, order: Sequence[Any]) -> Page:
    page = await paginate(db, statement.order_by(*order), query)
    page.entries = await with_items(db, page.entries)
    return page


async def subscriptions_on_sale(db: AsyncSession, types: Iterable[str], now: datetime, query: PageQuery) -> Page:
    """svod and cvod products, and renewable bundles when the types allow subscriptions, cheapest first."""
    kinds = tuple(types)
    wanted: ColumnElement[bool] = Product.type.in_(kinds)
    if "svod" in kinds:
        wanted = or_(wanted, and_(Product.type == "bundle", Product.renewable.is_(True)))
    statement = select(Product).where(wanted, _on_sale(now))
    return await _page(db, statement, query, (Product.price_minor, Product.title, Product.id))


async def bundles_on_sale(db: AsyncSession, now: datetime, query: PageQuery, event_id: str | None = None) -> Page:
    statement = select(Product).where(
        Product.type == "bundle", _on_sale(now), or_(Product.bundle_end.is_(None), Product.bundle_end > now)
    )
    if event_id:
        containing = (
            select(BundleItem.bundle_id)
            .join(Product, Product.id == BundleItem.product_id)
            .where(Product.event_id == event_id)
        )
        statement = statement.where(Product.id.in_(containing))
    return await _page(db, statement, query, (Product.bundle_end.is_(None), Product.bundle_end, Product.id))


async def all_products(
    db: AsyncSession, query: PageQuery, *, type_: str | None = None, event_id: str | None = None
) -> Page:
    statement = select(Product)
    if type_:
        statement = statement.where(Product.type == type_)
    if event_id:
        statement = statement.where(Product.event_id == event_id)
    return await _page(db, statement, query, (Product.created.desc(), Product.id))


async def event_identity_ids(db: AsyncSession, event_id: str) -> list[str]:
    rows = await db.execute(select(EventIdentity.identity_id).where(EventIdentity.event_id == event_id))
    return list(rows.scalars().all())


async def unlocking(db: AsyncSession, event: Event, identity_ids: Sequence[str], now: datetime) -> list[ProductView]:
    """Products on sale that unlock `event`, cheapest first: its pay-per-view, subscriptions
    covering its identity items (or everything), channel subscriptions of it or its leagues, and
    bundles containing its pay-per-view."""
    modes = set(event.commerce_modes or ())
    ppv_kind = event.commerce_type in ("commerce_ppv_media", "commerce_transactional_media") or "ppv" in modes
    sub_kind = event.commerce_type == "commerce_subscription-basic_media" or "svod" in modes
    channel_kind = "cvod" in modes
    if event.commerce_type in ("commerce_free_media", "commerce_members_media"):
        return []
    candidates = []
    if ppv_kind:
        candidates.append(and_(Product.type == "ppv", Product.event_id == event.id))
        containing = (
            select(BundleItem.bundle_id)
            .join(Product, Product.id == BundleItem.product_id)
            .where(Product.event_id == event.id, Product.type == "ppv")
        )
        candidates.append(
            and_(
                Product.type == "bundle",
                Product.id.in_(containing),
                or_(Product.bundle_end.is_(None), Product.bundle_end > now),
            )
        )
    if sub_kind or channel_kind:
        kinds = [k for k, on in (("svod", sub_kind), ("cvod", channel_kind)) if on]
        candidates.append(Product.type.in_(kinds))
    if not candidates:
        return []
    rows = (
        (
            await db.execute(
                select(Product)
                .where(or_(*candidates), _on_sale(now))
                .order_by(Product.price_minor, Product.title, Product.id)
            )
        )
        .scalars()
        .all()
    )
    identities = set(identity_ids)
    chosen = []
    for product in rows:
        if product.type == "svod" and product.identity_items and not identities & set(product.identity_items):
            continue
        if (
            product.type == "cvod"
            and product.event_id != event.id
            and not identities & set(product.identity_items or ())
        ):
            continue
        chosen.append(product)
    return await with_items(db, chosen)


def require_on_sale(product: Product, now: datetime, region: str | None) -> None:
    """409 `product_not_available` when it cannot be bought now, or not in the viewer's region."""
    if not is_on_sale(product, now) or (
        product.type == "bundle" and product.bundle_end is not None and product.bundle_end <= now
    ):
        raise Conflict("This product is not on sale", code="product_not_available")
    if not in_region(product.regions, True, region):
        raise Conflict("This product is not on sale in your region", code="product_not_available")


async def views_of(db: AsyncSession, product_ids: Iterable[str]) -> dict[str, ProductView]:
    """Products by id with their bundle items (for lists of purchases and contracts)."""
    ids = list(product_ids)
    if not ids:
        return {}
    rows = (await db.execute(select(Product).where(Product.id.in_(ids)))).scalars().all()
    return {view.product.id: view for view in await with_items(db, rows)}
