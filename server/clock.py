"""The server's notion of "now". Services ask here instead of calling datetime.now(), so tests
(and a staff "what if" run) can move time forward without sleeping."""

from datetime import UTC, datetime, timedelta

_offset = timedelta(0)


def now() -> datetime:
    return datetime.now(UTC) + _offset


def timestamp() -> float:
    return now().timestamp()


def advance(delta: timedelta) -> None:
    """Move the clock forward (tests only)."""
    global _offset
    _offset += delta


def reset() -> None:
    global _offset
    _offset = timedelta(0)
