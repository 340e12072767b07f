"""Checks that need a running server: the contract runner (`make contract`)."""
