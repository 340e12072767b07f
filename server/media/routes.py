"""HTTP route for stream media: /media/s/<token>/live/<sample>.m3u8 and /media/s/<token>/vod/...

Every playlist and segment request is checked (server.media.signing): the token's signature
and expiry, that the path lies within the token's stream, and for a token issued to a viewer,
that the request bears that viewer's access token. Refusals are 403 in the error envelope.
"""

import mimetypes
import re
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from .. import clock
from ..auth.tokens import verify_access_token
from ..settings import Settings
from .live import VodPlaylist, live_playlist, load_vod_playlist
from .signing import StreamDenied, covers, verify
from .urls import live_segment_prefix

# Every live stream runs on one shared clock, so all viewers (and server processes) agree
# on what is "now" in the stream without keeping state.
EPOCH = 1_700_000_000.0
SAMPLE_NAME = re.compile(r"^[a-z0-9-]{1,40}$")
# The types hls.js and browsers expect, whatever the platform's mimetypes table says.
MEDIA_TYPES = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".m4s": "video/mp4", ".mp4": "video/mp4"}

# Playlists are never stored: a live one moves every segment, and any one is a grant that ends.
PLAYLIST_CACHE = "no-store"
# Segments never change, so the viewer's browser may keep them (seeking back replays from its
# cache) but no shared cache may: the answer was authorised for one viewer. The token in the path
# makes every cache key per viewer and per grant; the lifetime is capped by the token's own.
SEGMENT_MAX_AGE = 3600


def _error(status: int, message: str, code: str) -> JSONResponse:
    return JSONResponse({"error": True, "message": message, "messageErrorCode": code}, status_code=status,
                        headers={"Cache-Control": "no-store"})


def _bearer(request: Request) -> str | None:
    scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def signed_media_route(settings: Settings, media_root: Path):
    root = media_root.resolve()

    @lru_cache(maxsize=32)
    def sample(name: str) -> VodPlaylist | None:
        path = root / name / "index.m3u8"
        return load_vod_playlist(path) if path.is_file() else None

    def check(request: Request, media_path: str) -> int:
        """Seconds the token has left when this request may have `media_path`; else raises."""
        now = clock.timestamp()
        grant = verify(request.path_params["token"], secret=settings.secret_key, now=now)
        if not covers(grant.stream, media_path):
            raise StreamDenied("This stream link is for another stream")
        if grant.user_id is not None:
            bearer = _bearer(request)
            claims = verify_access_token(bearer, secret=settings.secret_key) if bearer else None
            if claims is None or claims.user_id != grant.user_id:
                raise StreamDenied("This stream link is for another viewer: sign in as its viewer to play it")
        return max(0, int(grant.expires_at - now))

    def live(name: str) -> Response:
        vod = sample(name) if SAMPLE_NAME.match(name) else None
        if vod is None:
            return _error(404, "Stream not found", "stream_not_found")
        # Served at .../<token>/live/<name>.m3u8: `../vod/<name>/` resolves under the same token.
        body = live_playlist(vod, clock.timestamp(), EPOCH, uri_prefix=live_segment_prefix(name))
        return Response(body, media_type="application/vnd.apple.mpegurl", headers={"Cache-Control": PLAYLIST_CACHE})

    def vod_file(relative: str, remaining: int) -> Response:
        path = (root / relative).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            return _error(404, "Not found", "not_found")
        media_type = MEDIA_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".m3u8":
            cache = PLAYLIST_CACHE
        else:
            cache = f"private, max-age={min(SEGMENT_MAX_AGE, remaining)}"
        # FileResponse answers HEAD, Range (206, multipart for several ranges, 416) and If-Range.
        return FileResponse(path, media_type=media_type, headers={"Cache-Control": cache})

    async def endpoint(request: Request) -> Response:
        media_path = request.path_params["path"]
        try:
            remaining = check(request, media_path)
        except StreamDenied as refusal:
            return _error(403, refusal.message, refusal.code)
        kind, _, rest = media_path.partition("/")
        if kind == "live":
            return live(rest[:-len(".m3u8")])
        return vod_file(rest, remaining)

    return endpoint

