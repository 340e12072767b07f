"""Players' beacons for tests and the benchmark: as the webapp sends them, or as stored rows."""

import itertools

from server.models import QoeBeacon, new_id

_views = itertools.count(1)


def new_view(prefix: str = "view") -> str:
    return f"{prefix}-{next(_views):08d}"


def beacon(view: str, kind: str, event: str, **extra) -> dict:
    """One beacon of the contract's QoeBeacon shape."""
    return {
        "view": view,
        "type": kind,
        "event": event,
        "asset": None,
        "rendition": "720p",
        "player": "hls.js",
        "playerVersion": "1.7.4",
        "at": "2026-11-30T19:00:00.000Z",
        **extra,
    }


def row(event_id: str, view: str, kind: str, received_ms: int, session: str = "anon-session", **values) -> QoeBeacon:
    """A stored beacon, received at `received_ms` (epoch milliseconds)."""
    from datetime import UTC, datetime

    return QoeBeacon(
        id=new_id(),
        event_id=event_id,
        view=view,
        viewer_session=session,
        kind=kind,
        asset=None,
        rendition="720p",
        player="hls.js",
        player_version="1.7.4",
        occurred=datetime.fromtimestamp(received_ms / 1000, UTC),
        received_ms=received_ms,
        **values,
    )
