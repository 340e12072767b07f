"""API shapes of products, purchases, contracts and stored cards: the one place commerce rows
become wire names. Money leaves as `priceMinor` (authoritative) and `price` (display)."""

from collections.abc import Sequence

from ...models import Contract, Product, Purchase, StoredCard
from ...services.access import Viewer
from ...services.commerce.holdings import EMPTY, Holdings
from ...services.commerce.products import ProductView
from ...services.regions import in_region
from ..http.envelope import iso

NO_CURRENCY = "N/A"
# ISO 4217 currencies without minor units (the rest have two here).
ZERO_DECIMAL = frozenset({"JPY", "KRW", "ISK", "CLP", "VND", "XOF", "XAF", "UGX", "PYG", "RWF"})


def major(amount_minor: int, currency: str | None) -> float:
    return float(amount_minor) if currency in ZERO_DECIMAL else amount_minor / 100


def product_ref(product: Product) -> dict:
    return {"_id": product.id, "title": product.title, "type": product.type, "event_id": product.event_id}


def product(item: Product, viewer: Viewer | None = None, *, items: Sequence[Product] = ()) -> dict:
    """A product with the viewer's state (`viewer` None: anonymous, as in admin lists)."""
    held: Holdings = viewer.holdings if viewer is not None else EMPTY
    region = viewer.region if viewer is not None else None
    subscription = item.type in ("svod", "cvod")
    contract_end = held.contract_ends.get(item.id) if held.holds(item.id) else None
    body = {
        "_id": item.id,
        "title": item.title,
        "description": item.description,
        "descriptions": dict(item.descriptions or {}),
        "type": item.type,
        "event_id": item.event_id,
        "price": major(item.price_minor, item.currency),
        "priceMinor": item.price_minor,
        "currency": item.currency or NO_CURRENCY,
        "active": held.holds(item.id),
        "canceled": item.id in held.canceled_product_ids,
        "purchaseProcessing": item.id in held.pending_product_ids,
        "renewable": item.renewable,
        "availableInUserRegion": viewer is None or in_region(item.regions, True, region),
        "offerStartDate": iso(item.offer_start),
        # The UI shows contractEndDate for svod and cvod: the viewer's period end when they hold it,
        # else when the offer ends.
        "offerEndDate": None if subscription else iso(item.offer_end),
        "contractEndDate": iso(contract_end or item.offer_end) if subscription else iso(contract_end),
        "duration": item.duration,
        "durationUnits": item.duration_units,
        "allowedAccessIdentityItems": list(item.identity_items or ()),
        "updated": iso(item.updated),
    }
    if item.type == "bundle":
        body.update(
            originalProductId=None,
            startDate=iso(item.bundle_start),
            endDate=iso(item.bundle_end),
            autoRenew=item.auto_renew,
            items=[product_ref(p) for p in items],
        )
    return body


def product_view(view: ProductView, viewer: Viewer | None) -> dict:
    """A product with its bundle items, as `viewer` sees it."""
    return product(view.product, viewer, items=view.items)


def _card(row: Purchase | Contract) -> dict | None:
    if row.card_last4 is None:
        return None
    return {
        "brand": row.card_brand,
        "last4": row.card_last4,
        "expMonth": row.card_exp_month,
        "expYear": row.card_exp_year,
    }


def purchase(row: Purchase, original: dict) -> dict:
    """`original` is the presented product (`product(...)`)."""
    return {
        "_id": row.id,
        "title": original["title"],
        "description": original["description"],
        "type": row.type,
        "event_id": row.event_id,
        "status": row.status,
        "paymentAction": row.payment_action,
        "purchaseProcessing": row.status in ("init", "in progress"),
        "price": major(row.price_minor, row.currency),
        "priceMinor": row.price_minor,
        "currency": row.currency or NO_CURRENCY,
        "card": _card(row),
        "accessCode": row.access_code,
        "errorCode": row.error_code,
        "validUntil": iso(row.valid_until) if row.status == "success" else None,
        "added": iso(row.created),
        "updated": iso(row.updated),
        "originalProduct": original,
    }


def contract(row: Contract, original: dict, *, gives_access: bool) -> dict:
    return {
        "id": row.id,
        "platform": row.platform,
        "status": row.status,
        "paymentStatus": row.payment_status,
        "active": gives_access,
        "canceled": row.canceled_at is not None,
        "renewable": row.renewable,
        "autoRenew": row.auto_renew and row.canceled_at is None and row.status in ("active", "past_due"),
        "title": original["title"],
        "type": row.type,
        "price": major(row.price_minor, row.currency),
        "priceMinor": row.price_minor,
        "currency": row.currency or NO_CURRENCY,
        "startDate": iso(row.start_date),
        "contractEndDate": iso(row.period_end),
        "nextBillingDate": iso(row.period_end)
        if row.auto_renew and row.canceled_at is None and row.status in ("active", "past_due")
        else None,
        "canceledAt": iso(row.canceled_at),
        "card": _card(row),
        "originalProduct": original,
        "added": iso(row.created),
        "updated": iso(row.updated),
    }


def stored_card(row: StoredCard | None) -> dict | None:
    if row is None:
        return None
    return {
        "brand": row.brand,
        "last4": row.last4,
        "expMonth": row.exp_month,
        "expYear": row.exp_year,
        "holder": row.holder,
        "added": iso(row.added),
    }
