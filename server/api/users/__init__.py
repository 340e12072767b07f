"""Handlers of the `user` tag, one module per area; server/api/user.py re-exports them."""
