"""Scripted viewers for the QoE tests: the beacons the webapp's player sends (POST /api/qoe/beacons,
openapi.yaml QoeBeacon), for views whose figures are known, so a test reads back exactly what it
played. Each view's beacons go in a batch of their own, as a player's first batch after the view
ended would; the server stamps them with its clock, so they fall in any period that ends now.

the_evening() is seven plays by six viewers (the first plays twice):
- four reach their first frame after 800, 1000, 1200 and 3000 ms and play 30 s each at
  2800 kbit/s, the second stalling `stall_ms` on the way (p50 1000 ms, p95 3000 ms);
- one fails to start for a technical reason, one by design (no entitlement), one is left before
  its first frame.
"""

import uuid
from dataclasses import dataclass

import httpx

PLAYER = {"asset": None, "rendition": "720p", "player": "hls.js", "playerVersion": "1.7.0"}
AT = "2026-11-30T19:00:00.000Z"  # the browser's clock: the server counts beacons by its own
WATCHED_MS = 30_000
BITRATE_KBPS = 2800


@dataclass(frozen=True)
class View:
    viewer: str  # the browser's anonymous id: the viewer's session
    beacons: list[dict]


def _beacon(view: str, event: str, kind: str, **fields) -> dict:
    return {"view": view, "type": kind, "event": event, **PLAYER, "at": AT, **fields}


def played(event: str, viewer: str, startup_ms: int, stall_ms: int = 0) -> View:
    """A view that reaches its first frame and plays WATCHED_MS, stalling `stall_ms` (and is still on)."""
    view = f"v-{uuid.uuid4().hex[:16]}"
    beacons = [
        _beacon(view, event, "start"),
        _beacon(view, event, "startup", ms=startup_ms, bitrateKbps=BITRATE_KBPS),
        _beacon(view, event, "watched", ms=WATCHED_MS // 2, bitrateKbps=BITRATE_KBPS),
    ]
    if stall_ms:
        beacons.append(_beacon(view, event, "rebuffer", ms=stall_ms))
    beacons.append(_beacon(view, event, "watched", ms=WATCHED_MS // 2, bitrateKbps=BITRATE_KBPS))
    return View(viewer, beacons)


def failed(event: str, viewer: str, *, business: bool) -> View:
    """A view that ends in a fatal error before its first frame."""
    view = f"v-{uuid.uuid4().hex[:16]}"
    code = "no_entitlement" if business else "manifestLoadError"
    return View(
        viewer,
        [
            _beacon(view, event, "start"),
            _beacon(view, event, "error", code=code, fatal=True, business=business),
            _beacon(view, event, "exit", ms=0, beforeStart=True),
        ],
    )


def left(event: str, viewer: str) -> View:
    """A view left before its first frame, without an error."""
    view = f"v-{uuid.uuid4().hex[:16]}"
    return View(viewer, [_beacon(view, event, "start"), _beacon(view, event, "exit", ms=0, beforeStart=True)])


def the_evening(event: str, stall_ms: int = 0) -> list[View]:
    viewers = [f"viewer-{uuid.uuid4().hex[:12]}" for _ in range(6)]
    return [
        played(event, viewers[0], 800),
        played(event, viewers[0], 1000, stall_ms),
        played(event, viewers[1], 1200),
        played(event, viewers[2], 3000),
        failed(event, viewers[3], business=False),
        failed(event, viewers[4], business=True),
        left(event, viewers[5]),
    ]


def send(url: str, views: list[View]) -> None:
    for view in views:
        answer = httpx.post(
            f"{url}/api/qoe/beacons", json={"anonymousId": view.viewer, "beacons": view.beacons}, timeout=30
        )
        assert answer.status_code == 202, answer.text


# What the_evening() reads back as (the rebuffering ratio depends on the stall).
PLAYS, UNIQUE_VIEWERS = 7, 6
TECHNICAL, BUSINESS, EXITS = 1, 1, 1
STARTUP_P50, STARTUP_P95 = 1000, 3000
WATCHED_SECONDS = 4 * WATCHED_MS / 1000
CONCURRENT = 4  # the views still playing: the others sent their exit


def rebuffering_ratio(stall_ms: int) -> float:
    return stall_ms / (stall_ms + 4 * WATCHED_MS)
