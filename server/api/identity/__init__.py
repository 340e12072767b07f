"""Handlers of the `identity` tag: sports, leagues and teams."""
