"""Handlers of the `meta` tag: health and the public configuration the webapp starts with."""
