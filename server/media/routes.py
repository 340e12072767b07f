"""HTTP route for simulated live playlists (/media/live/<sample>.m3u8)."""

import re
import time
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .live import VodPlaylist, live_playlist, load_vod_playlist
from .urls import live_segment_prefix

# Every live stream runs on one shared clock, so all viewers (and server processes) agree
# on what is "now" in the stream without keeping state.
EPOCH = 1_700_000_000.0
SAMPLE_NAME = re.compile(r"^[a-z0-9-]{1,40}$")


def live_playlist_route(media_root: Path):
    @lru_cache(maxsize=32)
    def sample(name: str) -> VodPlaylist | None:
        path = media_root / name / "index.m3u8"
        return load_vod_playlist(path) if path.is_file() else None

    async def endpoint(request: Request) -> Response:
        name = request.path_params["name"]
        vod = sample(name) if SAMPLE_NAME.match(name) else None
        if vod is None:
            return JSONResponse(
                {"error": True, "message": "Stream not found", "messageErrorCode": "stream_not_found"}, status_code=404
            )
        body = live_playlist(vod, time.time(), EPOCH, uri_prefix=live_segment_prefix(name))
        return Response(
            body,
            media_type="application/vnd.apple.mpegurl",
            headers={"Cache-Control": "no-cache"},  # players must see the window move
        )

    return endpoint
