"""Handlers of the `tag` tag: timeline tags on moments of a video."""
