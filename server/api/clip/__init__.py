"""Handlers of the `clip` tag: highlights, clips and the viewer's own clips."""
