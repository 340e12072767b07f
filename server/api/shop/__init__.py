"""Handlers of the viewer's commerce calls (the `commerce` tag re-exports them)."""
