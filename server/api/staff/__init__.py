"""Handlers of the `admin` tag (staff only), one module per area; server/api/admin.py re-exports them."""
