"""Handlers of the `admin` tag: staff operations (staff tokens only)."""
