"""Fixed answers for snapshot tests and text captures: no server, no clock."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from cli.admin_client import AdminApiError, AdminClient
from cli.room_watch import RoomMessage
from cli.tui.api import AdminApi

MONITOR = {
    "generatedAt": "2026-11-24T18:00:00Z",
    "health": {"status": "ok", "database": "ok", "realtime": {"manager": "in_process", "status": "ok"}},
    "sockets": {"manager": "redis", "scope": "cluster", "connected": 12, "processes": 2},
    "liveEvents": [
        {
            "_id": "5f1c0a8e2b3d4c5e6f7a8b9c",
            "title": "Harbor City vs Riverside",
            "event_date": "2026-11-24T17:30:00Z",
            "sockets": 9,
        }
    ],
    "upcoming": [
        {
            "_id": "5e1c0a8e2b3d4c5e6f7a8b9b",
            "title": "Northgate vs Eastbay",
            "event_date": "2026-11-24T20:00:00Z",
            "sockets": 0,
        }
    ],
    "purchases": [
        {
            "_id": "3a1c",
            "userId": "9a1c0a8e2b3d",
            "product_id": "4a1c",
            "type": "ppv",
            "status": "paid",
            "price_minor": 999,
            "currency": "EUR",
            "added": "2026-11-24T17:55:00Z",
        }
    ],
    "redemptions": [
        {"code": "DERBY-7KQ4", "userId": "9a1c0a8e2b3d", "product_id": "4a1c", "redeemedAt": "2026-11-24T17:50:00Z"}
    ],
    "signIns": [
        {"sessionId": "1c1c", "userId": "9a1c0a8e2b3d", "provider": "credentials", "at": "2026-11-24T17:58:00Z"}
    ],
    "jobs": [
        {
            "name": "kickoff",
            "intervalSeconds": 30,
            "enabled": True,
            "lastRun": "2026-11-24T17:59:40Z",
            "lastOutcome": "ok",
        }
    ],
}
USER = {
    "userId": "9a1c0a8e2b3d4c5e6f7a8ba2",
    "email": "ada@example.com",
    "displayName": "Ada Lovelace",
    "role": "viewer",
    "added": "2026-01-02T10:00:00Z",
    "lastSignIn": "2026-11-24T17:58:00Z",
    "deleted": False,
}
DEVICES = [
    {
        "_id": "d1",
        "deviceId": "phone",
        "deviceName": "Ada's phone",
        "osName": "Android",
        "osVersion": "15",
        "added": "2026-11-20T21:12:00Z",
    }
]
SESSIONS = [
    {
        "_id": "s1",
        "deviceId": "phone",
        "deviceName": "Ada's phone",
        "provider": "credentials",
        "lastUsed": "2026-11-24T17:58:00Z",
    }
]


PRODUCTS: list[dict[str, Any]] = [
    {
        "_id": "4a1c0a8e2b3d4c5e6f7a8bb0",
        "title": "Harbor City vs Riverside",
        "description": "The derby, live and replay",
        "type": "ppv",
        "event_id": "5f1c0a8e2b3d4c5e6f7a8b9c",
        "price": 9.99,
        "priceMinor": 999,
        "currency": "EUR",
    },
    {
        "_id": "4a1c0a8e2b3d4c5e6f7a8bb1",
        "title": "Season pass 2026/27",
        "description": "Every league match",
        "type": "svod",
        "event_id": None,
        "price": 49.99,
        "priceMinor": 4999,
        "currency": "EUR",
    },
]
DERBY_BATCH = "1b1c0a8e2b3d4c5e6f7a8be1"


def _code(id_: str, code: str, product: int = 0, batch: str = DERBY_BATCH, **fields) -> dict:
    return {
        "_id": id_,
        "code": code,
        "batchId": batch,
        "product_id": PRODUCTS[product]["_id"],
        "event_id": PRODUCTS[product]["event_id"],
        "uses": 1,
        "redeemedCount": 0,
        "status": "active",
        "revoked": False,
        "expires_at": "2026-12-31T23:59:59Z",
        "added": "2026-11-10T12:00:00Z",
        "redemptions": [],
        **fields,
    }


ACCESS_CODES = [
    _code(
        "1a1c0a8e2b3d4c5e6f7a8be0",
        "DERBY-7KQ4-M2XP-9HTW",
        redeemedCount=1,
        status="used",
        redemptions=[{"userId": USER["userId"], "redeemedAt": "2026-11-24T17:50:00Z"}],
    ),
    _code("1a1c0a8e2b3d4c5e6f7a8be2", "DERBY-C3RZ-8VNA-4QJE"),
    _code("1a1c0a8e2b3d4c5e6f7a8be3", "DERBY-H6TD-2WKM-P8RY", status="revoked", revoked=True),
    _code(
        "1a1c0a8e2b3d4c5e6f7a8be4",
        "SEASON-9QFW-3MZA-7KXE",
        product=1,
        batch="1b1c0a8e2b3d4c5e6f7a8be5",
        uses=3,
        redeemedCount=1,
        expires_at=None,
        added="2026-11-02T09:00:00Z",
        redemptions=[{"userId": "9a1c0a8e2b3d4c5e6f7a8ba7", "redeemedAt": "2026-11-03T20:15:00Z"}],
    ),
    _code(
        "1a1c0a8e2b3d4c5e6f7a8be6",
        "PRESS-4XJW-K7ZN-2HQC",
        batch="1b1c0a8e2b3d4c5e6f7a8be7",
        status="expired",
        expires_at="2026-11-01T23:59:59Z",
        added="2026-10-20T08:30:00Z",
    ),
]
ISSUED_CODES = ["DERBY-Q8MX-4TZK-W3NP", "DERBY-V2HC-9RJF-6YDA", "DERBY-K5PB-7NQE-X4WT"]


# --- live control ---
LIVE_EVENTS: list[dict] = [
    {
        "_id": "5f1c0a8e2b3d4c5e6f7a8b9c",
        "title": "Harbor City vs Riverside",
        "status": "live",
        "event_date": "2026-11-24T17:30:00Z",
        "content": {"HLSStream": "/media/live/harbor-riverside/index.m3u8", "PanoStream": None},
    },
    {
        "_id": "5e1c0a8e2b3d4c5e6f7a8b9b",
        "title": "Northgate vs Eastbay",
        "status": "upcoming",
        "event_date": "2026-11-24T20:00:00Z",
        "content": {"HLSStream": "/media/live/northgate-eastbay/index.m3u8", "PanoStream": None},
    },
    {
        "_id": "5d1c0a8e2b3d4c5e6f7a8b9a",
        "title": "Westport vs Lakeside",
        "status": "archived",
        "event_date": "2026-11-21T18:00:00Z",
        "content": {"HLSStream": "/media/vod/westport-lakeside/index.m3u8", "PanoStream": None},
    },
]
ROOM_MESSAGES = [
    RoomMessage(
        "update-event",
        {"eventId": "5f1c0a8e2b3d4c5e6f7a8b9c", "status": "live"},
        "2026-11-24T17:30:02Z",
    ),
    RoomMessage(
        "event-url-change",
        {"eventId": "5f1c0a8e2b3d4c5e6f7a8b9c", "eventUrl": "/media/live/harbor-riverside/index.m3u8"},
        "2026-11-24T17:30:02Z",
    ),
]

# The picked live event's ingest, everything known (this process transcodes it).
INGEST_HEALTH: dict[str, Any] = {
    "event": "5f1c0a8e2b3d4c5e6f7a8b9c",
    "state": "live",
    "asset": "6a1f0c2e9b3d4e5f60718293",
    "publishing": True,
    "renditions": ["720p", "360p", "234p"],
    "video": {"codec": "h264", "width": 1280, "height": 720, "fps": 29.97},
    "audio": {"codec": "aac"},
    "bitrateKbps": 2834.4,
    "speed": 1.02,
    "behindRealTime": False,
    "droppedFrames": 0,
    "duplicatedFrames": 3,
    "lastSegmentAgeSeconds": 1.8,
    "restarts": 1,
    "reconnects": 2,
    "viewers": 9,
    "transcoderHere": True,
    "autostart": None,
    "dvrSeconds": 7200,
}
IDLE_INGEST: dict[str, Any] = {
    "state": "idle",
    "asset": None,
    "publishing": False,
    "renditions": [],
    "video": {"codec": None, "width": None, "height": None, "fps": None},
    "audio": {"codec": None},
    "bitrateKbps": None,
    "speed": None,
    "behindRealTime": False,
    "droppedFrames": None,
    "duplicatedFrames": None,
    "lastSegmentAgeSeconds": None,
    "restarts": None,
    "reconnects": None,
    "viewers": 0,
    "transcoderHere": False,
    "autostart": None,
    "dvrSeconds": 7200,
}
STREAM_KEYS: list[dict[str, Any]] = [
    {
        "_id": "7b1f0c2e9b3d4e5f60718294",
        "event": "5f1c0a8e2b3d4c5e6f7a8b9c",
        "hint": "9QzA",
        "srtPort": 9000,
        "publishing": True,
        "created": "2026-11-24T16:00:00Z",
        "createdBy": "8a1c0a8e2b3d4c5e6f7a8ba1",
        "revokedAt": None,
        "lastPublishedAt": "2026-11-24T17:25:00Z",
    },
    {
        "_id": "7b1f0c2e9b3d4e5f60718293",
        "event": "5f1c0a8e2b3d4c5e6f7a8b9c",
        "hint": "k3Lw",
        "srtPort": None,
        "publishing": False,
        "created": "2026-11-23T10:00:00Z",
        "createdBy": "8a1c0a8e2b3d4c5e6f7a8ba1",
        "revokedAt": "2026-11-24T16:00:00Z",
        "lastPublishedAt": None,
    },
]


# --- quality of experience: the live event's last 30 minutes, a point a minute ---
QOE_VIEWERS = [180, 196, 205, 214, 230, 238, 241, 250, 256, 251, 248, 256]
QOE_REBUFFERING = [0.004, 0.006, None, 0.008, 0.012, 0.031, 0.018, 0.009, 0.007, 0.008, 0.006, 0.008]
QOE_REPORT: dict[str, Any] = {
    "event": "5f1c0a8e2b3d4c5e6f7a8b9c",
    "status": "live",
    "ingest": "live",
    "since": "2026-11-24T17:30:00Z",
    "until": "2026-11-24T18:00:00Z",
    "plays": 412,
    "uniqueViewers": 380,
    "startFailures": {"technical": 6, "business": 21},
    "exitsBeforeVideoStart": 9,
    "startupMs": {"p50": 1180, "p95": 3420},
    "rebufferingRatio": 0.012,
    "averageBitrateKbps": 2840,
    "watchedSeconds": 183400,
    "rebufferSeconds": 2228,
    "concurrentViewers": 256,
    "alerts": {"rebuffering": False, "startFailures": False},
    "series": {
        "stepSeconds": 150,
        "points": [
            {"at": f"2026-11-24T17:{30 + 2 * i:02d}:30Z", "viewers": viewers, "rebufferingRatio": ratio}
            for i, (viewers, ratio) in enumerate(zip(QOE_VIEWERS, QOE_REBUFFERING, strict=True))
        ],
    },
}
OUTAGE_CREDIT: dict[str, Any] = {
    "event": "5f1c0a8e2b3d4c5e6f7a8b9c",
    "outageSeconds": 660,
    "thresholdSeconds": 600,
    "outages": [{"start": "2026-11-24T17:40:00Z", "end": "2026-11-24T17:51:00Z", "cause": "ingest"}],
    "credit": {
        "status": "scheduled",
        "kind": "refund",
        "reason": "automatic",
        "due": "2026-11-24T17:56:00Z",
        "cutoff": "2026-11-24T17:51:00Z",
        "buyers": 3,
        "credited": 0,
        "createdBy": None,
        "cancelledBy": None,
    },
}


# --- audit log ---
def _audit(id_: str, at: str, action: str, target: str | None, status: int = 200, **fields) -> dict:
    return {
        "_id": id_,
        "at": at,
        "actorType": "user",
        "actorId": "8a1c0a8e2b3d4c5e6f7a8ba1",
        "actor": "admin@touchline.test",
        "action": action,
        "method": "POST",
        "path": f"/api/admin/{action}",
        "target": target,
        "clientAddress": "203.0.113.7",
        "status": status,
        **fields,
    }


AUDIT_ENTRIES = [
    _audit(
        "2d1c0a8e2b3d4c5e6f7a8bf6",
        "2026-11-24T17:59:00Z",
        "resend_mail",
        "1d1c0a8e2b3d4c5e6f7a8be3",
        actorId="8a1c0a8e2b3d4c5e6f7a8ba3",
        actor="support@touchline.test",
        path="/api/admin/outbox/1d1c0a8e2b3d4c5e6f7a8be3/resend",
    ),
    _audit(
        "2d1c0a8e2b3d4c5e6f7a8bf5",
        "2026-11-24T17:30:00Z",
        "go_live",
        "5f1c0a8e2b3d4c5e6f7a8b9c",
        path="/api/admin/events/5f1c0a8e2b3d4c5e6f7a8b9c/go_live",
    ),
    _audit(
        "2d1c0a8e2b3d4c5e6f7a8bf4",
        "2026-11-24T12:05:00Z",
        "issue_access_codes",
        None,
        status=403,
        actorType="key",
        actorId="2c1c0a8e2b3d4c5e6f7a8bf1",
        actor="nightly-report (tlk_Q2xhc3Np)",
        path="/api/admin/access_codes",
    ),
    _audit(
        "2d1c0a8e2b3d4c5e6f7a8bf3",
        "2026-11-24T10:15:00Z",
        "issue_access_codes",
        "1b1c0a8e2b3d4c5e6f7a8be1",
        path="/api/admin/access_codes",
    ),
    _audit(
        "2d1c0a8e2b3d4c5e6f7a8bf2",
        "2026-11-24T09:00:00Z",
        "create_event",
        "5e1c0a8e2b3d4c5e6f7a8b9b",
        path="/api/admin/events",
    ),
]

# --- users: purchases, contracts, follows, mail ---
PURCHASES = [
    {
        "_id": "3b1c0a8e2b3d4c5e6f7a8bc1",
        "title": "Harbor City vs Riverside",
        "type": "ppv",
        "event_id": "5f1c0a8e2b3d4c5e6f7a8b9c",
        "status": "success",
        "price": 9.99,
        "priceMinor": 999,
        "currency": "EUR",
        "validUntil": "2026-12-01T20:00:00Z",
        "added": "2026-11-24T17:55:00Z",
    }
]
CONTRACTS = [
    {
        "id": "3a1c0a8e2b3d4c5e6f7a8bc0",
        "title": "Season pass 2026/27",
        "type": "svod",
        "status": "active",
        "active": True,
        "canceled": False,
        "autoRenew": True,
        "price": 49.99,
        "priceMinor": 4999,
        "currency": "EUR",
        "startDate": "2026-11-02T09:20:00Z",
        "contractEndDate": "2026-12-02T09:20:00Z",
    }
]
FOLLOWS = [
    {
        "_id": "2b1c0a8e2b3d4c5e6f7a8bd1",
        "reference_id": "7a1c0a8e2b3d4c5e6f7a8b9f",
        "type": "identity_item",
        "added": "2026-10-02T09:20:00Z",
        "item": {
            "_id": "7a1c0a8e2b3d4c5e6f7a8b9f",
            "title": "Northern Premier Division",
            "media_type": "identity_item",
        },
    },
    {
        "_id": "2b1c0a8e2b3d4c5e6f7a8bd2",
        "reference_id": "6a1c0a8e2b3d4c5e6f7a8b9d",
        "type": "team",
        "added": "2026-10-02T09:21:00Z",
        "item": {"_id": "6a1c0a8e2b3d4c5e6f7a8b9d", "title": "Harbor City Mariners", "media_type": "team"},
    },
]
MAIL = [
    {
        "_id": "1d1c0a8e2b3d4c5e6f7a8be4",
        "to": "ada@example.com",
        "subject": "Your Touchline receipt: Harbor City vs Riverside",
        "kind": "purchase_receipt",
        "text": "Thank you for your purchase.\n",
        "status": "kept",
        "added": "2026-11-24T17:55:00Z",
        "sentAt": None,
    },
    {
        "_id": "1d1c0a8e2b3d4c5e6f7a8be3",
        "to": "ada@example.com",
        "subject": "Reset your Touchline password",
        "kind": "password_reset",
        "text": "Someone asked to reset the password of your Touchline account.\n",
        "status": "kept",
        "added": "2026-11-24T17:40:00Z",
        "sentAt": None,
    },
]
RESENT_MAIL_ID = "1d1c0a8e2b3d4c5e6f7a8be5"


# --- the media library (issue 29 §4) ---
HIGHLIGHT_EVENT = {
    "_id": "5c1c0a8e2b3d4c5e6f7a8b99",
    "title": "Westport vs Lakeside: opening goal",
    "status": "archived",
    "event_date": "2026-11-21T18:00:00Z",
    "content": {"HLSStream": "/media/vod/6b1f0c2e9b3d4e5f60718205/index.m3u8", "PanoStream": None},
}
WESTPORT, NORTHGATE, HARBOR = LIVE_EVENTS[2]["_id"], LIVE_EVENTS[1]["_id"], LIVE_EVENTS[0]["_id"]
# Newest first, as GET /admin/media_assets lists them.
MEDIA_ASSETS: list[dict[str, Any]] = [
    {
        "_id": "6b1f0c2e9b3d4e5f60718202",
        "kind": "upload",
        "event": NORTHGATE,
        "state": "processing",
        "title": "Northgate press conference",
        "created": "2026-11-24T17:45:00Z",
    },
    {
        "_id": "6b1f0c2e9b3d4e5f60718201",
        "kind": "upload",
        "event": WESTPORT,
        "state": "processing",
        "title": "Westport vs Lakeside, full match",
        "durationMs": 5_400_000,
        "created": "2026-11-24T17:40:00Z",
    },
    {
        "_id": "6b1f0c2e9b3d4e5f60718203",
        "kind": "upload",
        "event": HARBOR,
        "state": "failed",
        "title": "Harbor City warm-up",
        "created": "2026-11-24T17:20:00Z",
    },
    {
        "_id": "6b1f0c2e9b3d4e5f60718205",
        "kind": "highlight",
        "event": HIGHLIGHT_EVENT["_id"],
        "state": "ready",
        "title": "Opening goal",
        "parent": "6b1f0c2e9b3d4e5f60718204",
        "range": {"start_ms": 12_000, "end_ms": 30_000},
        "created": "2026-11-22T10:00:00Z",
    },
    {
        "_id": "6b1f0c2e9b3d4e5f60718204",
        "kind": "recording",
        "event": WESTPORT,
        "state": "ready",
        "durationMs": 6_300_000,
        "created": "2026-11-21T18:00:00Z",
    },
]
# Newest first, as GET /admin/media_jobs lists them.
MEDIA_JOBS: list[dict[str, Any]] = [
    {
        "_id": "6c1f0c2e9b3d4e5f60718302",
        "kind": "transcode",
        "asset": "6b1f0c2e9b3d4e5f60718202",
        "event": NORTHGATE,
        "title": "Northgate press conference",
        "state": "queued",
        "percent": 0,
        "attempts": 0,
        "created": "2026-11-24T17:45:00Z",
    },
    {
        "_id": "6c1f0c2e9b3d4e5f60718301",
        "kind": "transcode",
        "asset": "6b1f0c2e9b3d4e5f60718201",
        "event": WESTPORT,
        "title": "Westport vs Lakeside, full match",
        "state": "running",
        "percent": 42.5,
        "etaSeconds": 80,
        "attempts": 1,
        "created": "2026-11-24T17:40:00Z",
        "startedAt": "2026-11-24T17:41:00Z",
    },
    {
        "_id": "6c1f0c2e9b3d4e5f60718303",
        "kind": "transcode",
        "asset": "6b1f0c2e9b3d4e5f60718203",
        "event": HARBOR,
        "title": "Harbor City warm-up",
        "state": "failed",
        "percent": 12,
        "error": "ffmpeg: moov atom not found (the file is cut short)",
        "attempts": 2,
        "created": "2026-11-24T17:20:00Z",
        "startedAt": "2026-11-24T17:21:00Z",
        "finishedAt": "2026-11-24T17:35:00Z",
    },
]
PLAYED_BY = {
    "6b1f0c2e9b3d4e5f60718204": [WESTPORT, HIGHLIGHT_EVENT["_id"]],
    "6b1f0c2e9b3d4e5f60718205": [HIGHLIGHT_EVENT["_id"]],
}


class FixedApi(AdminApi):
    def __init__(self, role: str = "admin"):
        super().__init__(AdminClient("http://touchline.test", None))
        self.role = role

    async def monitor(self, limit: int = 10) -> dict:
        return MONITOR

    async def find_users(self, query: str, size: int = 20) -> list[dict]:
        return [USER]

    async def user(self, user_id: str) -> dict:
        return {"user": USER, "profile": {}}

    async def devices(self, user_id: str) -> list[dict]:
        return DEVICES

    async def sessions(self, user_id: str) -> list[dict]:
        return SESSIONS

    # --- access codes ---

    async def products(self, page: int = 0, size: int = 100) -> dict:
        entries = PRODUCTS if page == 0 else []
        return {"entries": entries, "entryCount": len(entries), "itemsPerPage": size, "startIndex": page * size}

    async def access_codes(self, filters: dict[str, str], page: int = 0, size: int = 50) -> dict:
        return {"entries": ACCESS_CODES, "entryCount": len(ACCESS_CODES), "itemsPerPage": size, "nextExists": False}

    async def access_code(self, code_id: str) -> dict:
        return next(code for code in ACCESS_CODES if code["_id"] == code_id)

    async def issue_access_codes(self, body: dict) -> dict:
        codes = ISSUED_CODES[: body["count"]]
        return {
            "batchId": "1b1c0a8e2b3d4c5e6f7a8be9",
            "product_id": body["product_id"],
            "count": len(codes),
            "uses": body.get("uses", 1),
            "expires_at": body.get("expires_at"),
            "codes": codes,
        }

    async def revoke_access_code(self, code_id: str) -> dict:
        return {**await self.access_code(code_id), "status": "revoked", "revoked": True}

    # --- live control ---

    async def events(self, status: str | None = None, size: int = 100) -> list[dict]:
        return [e for e in LIVE_EVENTS if status in (None, e["status"])]

    async def event(self, event_id: str) -> dict:
        return next(e for e in LIVE_EVENTS if e["_id"] == event_id)

    async def set_stream(self, event_id: str, url: str) -> dict:
        event = await self.event(event_id)
        return {**event, "status": "live", "content": {**event["content"], "HLSStream": url}}

    async def emit(self, event: str, room: str, payload: dict) -> dict:
        return {"event": event, "room": room, "manager": "in_process"}

    async def ingest(self, event_id: str) -> dict:
        if event_id == INGEST_HEALTH["event"]:
            return INGEST_HEALTH
        return {"event": event_id, **IDLE_INGEST}

    async def stream_keys(self, event_id: str) -> list[dict]:
        return [k for k in STREAM_KEYS if k["event"] == event_id]

    @asynccontextmanager
    async def watch_room(self, room: str) -> AsyncIterator[AsyncIterator[RoomMessage]]:
        async def received() -> AsyncIterator[RoomMessage]:
            for message in ROOM_MESSAGES:
                yield message
            await asyncio.Event().wait()  # nothing more, until the watch stops

        yield received()

    # --- quality of experience: every live event's is QOE_REPORT, none with an alert ---

    async def qoe(self, event_id: str, since: str | None = None) -> dict:
        return {**QOE_REPORT, "event": event_id}

    async def outage_credit(self, event_id: str) -> dict:
        return {**OUTAGE_CREDIT, "event": event_id}

    @asynccontextmanager
    async def qoe_alerts(self, event_ids) -> AsyncIterator[AsyncIterator[RoomMessage]]:
        # No alert, and the watch ends at once: tests that settle on the workers finishing do.
        nothing: tuple[RoomMessage, ...] = ()

        async def received() -> AsyncIterator[RoomMessage]:
            for message in nothing:
                yield message

        yield received()

    # --- audit log ---

    async def audit(self, filters: dict[str, str], page: int = 0, size: int = 20) -> dict:
        matching = [e for e in AUDIT_ENTRIES if filters.get("action") in (None, e["action"])]
        entries = matching[page * size : (page + 1) * size]
        return {"entries": entries, "entryCount": len(entries), "itemsPerPage": size, "startIndex": page * size}

    # --- users: purchases, contracts, follows, mail ---

    async def purchases(self, user_id: str, size: int = 50) -> list[dict]:
        return PURCHASES

    async def contracts(self, user_id: str, size: int = 50) -> list[dict]:
        return CONTRACTS

    async def follows(self, user_id: str, size: int = 100) -> list[dict]:
        return FOLLOWS

    async def mail_to(self, email: str, size: int = 20) -> list[dict]:
        return MAIL

    async def resend_mail(self, mail_id: str) -> dict:
        original = next(m for m in MAIL if m["_id"] == mail_id)
        return {**original, "_id": RESENT_MAIL_ID, "added": "2026-11-24T18:00:00Z"}

    # --- the media library: empty here (MediaLibraryApi has one) ---

    async def media_assets(self, event: str | None = None, limit: int = 50) -> list[dict]:
        return []

    async def media_jobs(self, state: str | None = None, limit: int = 50) -> list[dict]:
        return []


class MediaLibraryApi(FixedApi):
    """Fixed answers with a media library: an upload transcoding, one queued, one failed, a
    recording and a highlight cut from it. It records the media calls (`calls`), the rooms each
    watch asked for (`watched`), and hands every watch what tell() sends, as the server's socket
    would."""

    def __init__(self, role: str = "admin"):
        super().__init__(role)
        self.assets = [dict(asset) for asset in MEDIA_ASSETS]
        self.jobs = [dict(job) for job in MEDIA_JOBS]
        self.calls: list[tuple[Any, ...]] = []
        self.watched: list[tuple[str, ...]] = []
        self._inboxes: list[asyncio.Queue[RoomMessage]] = []

    def tell(self, change: dict) -> None:
        """A `media-job-change`, to every watch open now."""
        for inbox in self._inboxes:
            inbox.put_nowait(RoomMessage("media-job-change", change, "2026-11-24T18:00:02Z"))

    @asynccontextmanager
    async def watch_rooms(self, rooms) -> AsyncIterator[AsyncIterator[RoomMessage]]:
        inbox: asyncio.Queue[RoomMessage] = asyncio.Queue()
        self.watched.append(tuple(rooms))
        self._inboxes.append(inbox)

        async def received() -> AsyncIterator[RoomMessage]:
            while True:
                yield await inbox.get()

        try:
            yield received()
        finally:
            self._inboxes.remove(inbox)

    async def event(self, event_id: str) -> dict:
        for event in [*LIVE_EVENTS, HIGHLIGHT_EVENT]:
            if event["_id"] == event_id:
                return event
        raise AdminApiError("Event not found", "event_not_found", 404)

    async def media_assets(self, event: str | None = None, limit: int = 50) -> list[dict]:
        self.calls.append(("media_assets",))
        return [a for a in self.assets if event in (None, a["event"])][:limit]

    async def media_jobs(self, state: str | None = None, limit: int = 50) -> list[dict]:
        self.calls.append(("media_jobs", state))
        return [j for j in self.jobs if state in (None, j["state"])][:limit]

    async def media_asset(self, asset_id: str) -> dict:
        self.calls.append(("media_asset", asset_id))
        asset = next((a for a in self.assets if a["_id"] == asset_id), None)
        if asset is None:
            raise AdminApiError("Media asset not found", "asset_not_found", 404)
        job = next((j for j in self.jobs if j.get("asset") == asset_id), None)
        return {**asset, "playedBy": PLAYED_BY.get(asset_id, [])} | ({"job": job} if job else {})

    async def delete_media_asset(self, asset_id: str, force: bool = False) -> dict:
        self.calls.append(("delete_media_asset", asset_id, force))
        played = PLAYED_BY.get(asset_id, [])
        if played and not force:
            names = ", ".join(played)
            raise AdminApiError(
                f"Events play this asset: {names} (delete with force to take it off them)", "asset_in_use", 409
            )
        self.assets = [a for a in self.assets if a["_id"] != asset_id]
        return {"deleted": [asset_id], "detached": played}

    async def attach_media_asset(self, asset_id: str, body: dict) -> dict:
        self.calls.append(("attach_media_asset", asset_id, body))
        asset = next(a for a in self.assets if a["_id"] == asset_id)
        if body["as"] == "archive":
            return {**await self.event(asset["event"]), "status": "archived"}
        return {**HIGHLIGHT_EVENT, "_id": "5c1c0a8e2b3d4c5e6f7a8b98", "title": body.get("title") or asset.get("title")}

    async def cut_media_asset(self, asset_id: str, body: dict) -> dict:
        self.calls.append(("cut_media_asset", asset_id, body))
        return {**HIGHLIGHT_EVENT, "_id": "5c1c0a8e2b3d4c5e6f7a8b97", "title": body["title"]}

    async def cancel_media_job(self, job_id: str) -> dict:
        self.calls.append(("cancel_media_job", job_id))
        job = next(j for j in self.jobs if j["_id"] == job_id)
        job.update(state="cancelled")
        return job
