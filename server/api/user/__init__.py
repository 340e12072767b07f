"""Handlers of the `user` tag: sign-up, sign-in, devices, profile, password, account and watchlist."""
