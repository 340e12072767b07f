"""Handlers for the `oauth2` tag: token refresh and federated sign-on.

The accounts and sessions work implements these; until then they answer 501.
"""

PENDING = frozenset(
    {
        "exchange_token",
        "list_providers",
        "ifa_callback",
    }
)
