"""Handlers for the `commerce` tag: products, subscriptions, pay-per-view, access codes, cards.

The commerce and entitlements work implements these; until then they answer 501.
"""

PENDING = frozenset(
    {
        "get_subscriptions",
        "get_subscription_by_id",
        "list_bundles",
        "get_customer_contracts",
        "get_customer_subscription_by_id",
        "cancel_contract",
        "subscribe_by_stored_cc",
        "subscription_checkout",
        "purchase_ppv",
        "purchase_ppv_by_stored_cc",
        "list_ppv_purchases",
        "get_ppv_purchase",
        "redeem_access_code",
        "tokenize_card",
        "get_stored_card",
        "update_stored_card",
        "delete_stored_card",
    }
)
