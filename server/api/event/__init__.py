"""Handlers of the `event` tag: events (live, upcoming, archived, channels), their stats,
programme, commerce options and search."""
