"""Handlers for the `tag` tag: tags on moments of a video.

The media and viewer content work implements these; until then they answer 501.
"""

PENDING = frozenset(
    {
        "list_tags",
        "save_tag",
        "update_tag",
        "remove_tags",
    }
)
