"""Handlers for the `follow` tag: followed leagues, categories and teams.

The accounts and sessions work implements these; until then they answer 501.
"""

PENDING = frozenset(
    {
        "list_follows",
        "save_follow",
        "remove_follow",
    }
)
