"""Handlers of the `vod` tag: related videos."""
