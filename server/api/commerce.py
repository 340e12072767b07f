"""Handlers for the `commerce` tag: products, subscriptions, pay-per-view, access codes, cards
(implemented in server/api/shop/)."""

from .shop.cards import delete_stored_card, get_stored_card, tokenize_card, update_stored_card  # noqa: F401
from .shop.catalog import get_subscription_by_id, get_subscriptions, list_bundles  # noqa: F401
from .shop.codes import redeem_access_code  # noqa: F401
from .shop.contracts import (  # noqa: F401
    cancel_contract,
    get_customer_contracts,
    get_customer_subscription_by_id,
    subscribe_by_stored_cc,
    subscription_checkout,
)
from .shop.purchases import (  # noqa: F401
    get_ppv_purchase,
    list_ppv_purchases,
    purchase_ppv,
    purchase_ppv_by_stored_cc,
)

PENDING: frozenset[str] = frozenset()
