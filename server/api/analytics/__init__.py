"""Handlers of the `analytics` tag: the webapp's identify and track events."""
