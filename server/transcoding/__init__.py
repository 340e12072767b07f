"""The transcoding queue's runner: every server process takes part (server.transcoding.runner)."""
