"""Delivery: what viewers get of the media — signed addresses and tokens, playlists rendered per
request (live windows, clips, recordings), the media routes, and ads."""
