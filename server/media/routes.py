"""HTTP route for stream media: /media/s/<token>/live/<sample>.m3u8 and /media/s/<token>/vod/...
(the layout: server.media.urls).

Every playlist and segment request is checked (server.media.signing): the token's signature
and expiry, that the path lies within the token's stream, and for a token issued to a viewer,
that the request bears that viewer's access token. Refusals are 403 in the error envelope.

Live playlists (server.media.live) list the last `live_rewind_seconds` of the sample's endless
timeline, cut at the event's kickoff, which the token carries (`start`, set when the event
answer signed the URL): no database on this path. The live master (`live/<sample>.m3u8`) lists
one live playlist per rendition (`vod/<sample>/<rendition>/live.m3u8`); all answer 409
`stream_not_started` with Retry-After before kickoff. The hot path is a dictionary hit for the
token (verified once per process), arithmetic for the window and a playlist rendered once per
segment period and rendition.

Caching. Everything here is addressed by a URL holding its token, so a shared cache keyed by
URL (a CDN) serves an answer only to holders of that URL. That is enough for tokens issued to
anyone (free events: `public`). A token issued to a viewer also needs that viewer's bearer,
which a shared cache cannot check: those answers are `private` (the viewer's browser only).
Lifetimes: live playlists, masters included, 1 s (they change every segment, ~2 s); VOD
playlists and segments never change, so up to an hour, never past the token's expiry. Refusals
are `no-store`.
"""

import math
import mimetypes
import re
from collections import OrderedDict
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import orjson
from starlette.responses import FileResponse
from starlette.types import Receive, Scope, Send

from .. import clock
from ..auth.tokens import verify_access_token
from ..settings import Settings
from .credentials import viewer_token
from .live import LiveStream
from .playlists import load_stream
from .signing import StreamDenied, StreamGrant, covers, verify
from .urls import LIVE_VARIANT

SAMPLE_NAME = re.compile(r"^[a-z0-9-]{1,40}$")
PLAYLIST_TYPE = "application/vnd.apple.mpegurl"
# The types hls.js and browsers expect, whatever the platform's mimetypes table says.
MEDIA_TYPES = {".m3u8": PLAYLIST_TYPE, ".ts": "video/mp2t", ".m4s": "video/mp4", ".mp4": "video/mp4"}

# A live playlist moves every segment: a cache may keep it for less than one.
LIVE_MAX_AGE = 1
# VOD playlists and segments never change; capped by what the token has left.
SEGMENT_MAX_AGE = 3600
NOT_STARTED = "stream_not_started"
# Verified tokens kept per process (a viewer polls with the same one for its whole life).
GRANT_CACHE_ENTRIES = 8192


def _scope(grant: StreamGrant) -> str:
    """`public` when the token alone entitles (anyone's), `private` when a bearer must match."""
    return "public" if grant.user_id is None else "private"


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")


async def _send(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes, head: bool) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else body})


async def _error(
    send: Send, status: int, message: str, code: str, head: bool = False, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    body = orjson.dumps({"error": True, "message": message, "messageErrorCode": code})
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store"), *extra]
    await _send(send, status, headers, body, head)


class SignedMedia:
    """The ASGI endpoint of `/s/{token}/{path:path}` (raw ASGI: no Request/Response objects on
    the live path)."""

    def __init__(self, settings: Settings, media_root: Path):
        self.secret = settings.secret_key
        self.rewind = settings.live_rewind_seconds
        self.root = media_root.resolve()
        self.grants: OrderedDict[str, StreamGrant] = OrderedDict()
        self.live_stream = lru_cache(maxsize=32)(self._load_live_stream)

    def _load_live_stream(self, name: str) -> LiveStream | None:
        if not SAMPLE_NAME.match(name):
            return None
        stream = load_stream(self.root, name)
        # The master is served at .../<token>/live/<name>.m3u8, each rendition's live playlist at
        # .../<token>/vod/<name>/<rendition>/live.m3u8, beside its segments: one token for all.
        return LiveStream(stream, name) if stream is not None else None

    def grant(self, token: str, now: float) -> StreamGrant:
        """The token's grant, verified once per process; raises StreamDenied."""
        grant = self.grants.get(token)
        if grant is not None and now < grant.expires_at:
            return grant
        # Unknown, or known and expired: verify() gives the refusal (and its envelope code).
        grant = verify(token, secret=self.secret, now=now)
        if len(self.grants) >= GRANT_CACHE_ENTRIES:
            self.grants.popitem(last=False)  # the oldest
        self.grants[token] = grant
        return grant

    def check(self, scope: Scope, media_path: str, now: float) -> StreamGrant:
        grant = self.grant(scope["path_params"]["token"], now)
        if not covers(grant.stream, media_path):
            raise StreamDenied("This stream link is for another stream")
        if grant.user_id is not None:
            token = viewer_token(scope)
            claims = verify_access_token(token, secret=self.secret) if token else None
            if claims is None or claims.user_id != grant.user_id:
                raise StreamDenied("This stream link is for another viewer: sign in as its viewer to play it")
        return grant

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        media_path = scope["path_params"]["path"]
        head = scope["method"] == "HEAD"
        now = clock.timestamp()
        try:
            grant = self.check(scope, media_path, now)
        except StreamDenied as refusal:
            await _error(send, 403, refusal.message, refusal.code, head)
            return
        kind, _, rest = media_path.partition("/")
        if kind == "live":  # the live master
            await self.live(scope, send, rest[: -len(".m3u8")], None, grant, now, head)
            return
        sample, _, below = rest.partition("/")
        rendition, _, name = below.partition("/")
        if name == LIVE_VARIANT:  # a rendition's live playlist
            await self.live(scope, send, sample, rendition, grant, now, head)
        else:
            await self.vod_file(scope, receive, send, rest, grant, now)

    async def live(
        self, scope: Scope, send: Send, name: str, rendition: str | None, grant: StreamGrant, now: float, head: bool
    ) -> None:
        """The live master (`rendition` None) or one rendition's live playlist of sample `name`."""
        stream = self.live_stream(name)
        sample = stream.renditions.get(rendition) if stream is not None and rendition is not None else None
        if stream is None or (rendition is not None and sample is None):
            await _error(send, 404, "Stream not found", "stream_not_found", head)
            return
        span = stream.window(now, rewind_seconds=self.rewind, kickoff=grant.starts_at)
        if span is None:
            kickoff = grant.starts_at if grant.starts_at is not None else now
            wait = max(1, math.ceil(stream.available_at(kickoff) - now))
            await _error(
                send,
                409,
                f"This stream has not started: it goes live at {_iso(kickoff)}",
                NOT_STARTED,
                head,
                ((b"retry-after", str(wait).encode()),),
            )
            return
        compressed = b"gzip" in _header(scope, b"accept-encoding").encode()
        if sample is None:
            body = stream.master_playlist(compressed=compressed)
        else:
            body = sample.encoded(*span, compressed=compressed)
        headers = [
            (b"content-type", PLAYLIST_TYPE.encode()),
            (b"cache-control", f"{_scope(grant)}, max-age={LIVE_MAX_AGE}".encode()),
            (b"vary", b"Accept-Encoding"),
        ]
        if compressed:
            headers.append((b"content-encoding", b"gzip"))
        await _send(send, 200, headers, body, head)

    async def vod_file(
        self, scope: Scope, receive: Receive, send: Send, relative: str, grant: StreamGrant, now: float
    ) -> None:
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            await _error(send, 404, "Not found", "not_found", scope["method"] == "HEAD")
            return
        media_type = MEDIA_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        max_age = max(0, min(SEGMENT_MAX_AGE, int(grant.expires_at - now)))
        # FileResponse answers HEAD, Range (206, multipart for several ranges, 416) and If-Range.
        response = FileResponse(
            path, media_type=media_type, headers={"Cache-Control": f"{_scope(grant)}, max-age={max_age}"}
        )
        await response(scope, receive, send)


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return ""


def signed_media_route(settings: Settings, media_root: Path) -> SignedMedia:
    """The endpoint server.web mounts at /media/s/{token}/{path:path}."""
    return SignedMedia(settings, media_root)
