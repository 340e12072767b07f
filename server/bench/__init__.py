"""Load benchmark harness: `python -m server.bench` (see __main__ for options)."""
