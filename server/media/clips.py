"""Clip playlists: a clip plays its parent stream's own segments; no video is ever copied.

    /media/s/<token>/vod/<sample>/clip-<startMs>-<endMs>.m3u8

is a master playlist: the sample's own variants (the same EXT-X-STREAM-INF attributes), each
pointing at its rendition's clip, `<rendition>/clip-<startMs>-<endMs>.m3u8`, and the clip's
EXT-X-START. A rendition's clip,

    /media/s/<token>/vod/<sample>/<rendition>/clip-<startMs>-<endMs>.m3u8

is a VOD media playlist (EXT-X-ENDLIST) of the rendition's segments that cover [start, end) of
the stream's timeline, in milliseconds: the first listed segment contains the start, the last
one contains the end, and EXT-X-START points the player at the start within the first segment.
Its segment URIs are the rendition's own file names (`index5.ts`), which resolve to
/media/s/<token>/vod/<sample>/<rendition>/index5.ts: the parent's segments, under the same
token. The renditions are aligned (server.media.playlists), so every rendition's clip lists the
same segment numbers with the same durations. A clip's stored URL (server.media.urls.clip_url)
lies inside its stream's VOD directory, so a token for the stream opens its clips and a clip's
token opens its stream's segments, with no change to the token's scope
(server.media.signing.covers); the token is issued for the parent event (`evt`).

Timeline. Clip URLs name positions on the sample's own endless timeline (milliseconds; the
sample loops): absolute segment j plays file j mod N. For an archived stream that is the sample
itself, from 0 to its duration (server.services.user_clips keeps clips of such streams within
it). A live stream plays the same timeline on the wall clock, anchored as the live playlists are
(server.media.live.ANCHOR), so a clip of a live stream names the very segments its live
playlist listed. A range that crosses the end of the sample goes on at its start, after
EXT-X-DISCONTINUITY, as the live playlist does.

Every request is checked like any stream request (server.media.routes): the token's signature
and expiry, that the clip lies within the token's stream, and for a token issued to a viewer,
that the request bears that viewer's access token. Refusals are 403 in the error envelope.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from pathlib import Path

import orjson
from starlette.requests import Request
from starlette.responses import Response

from .. import clock
from .playlists import (
    MASTER_PLAYLIST,
    Ladder,
    Segment,
    VodPlaylist,
    load_stream,
    load_vod_playlist,
    parse_vod_playlist,
)
from .routes import SignedMedia
from .signing import StreamDenied
from .urls import clip_file

# The longest clip a playlist is made for (the API refuses longer ones: server.services.user_clips).
MAX_CLIP_MS = 10 * 60 * 1000
CLIP_PATH = "/s/{token}/vod/{stream:path}/clip-{start:int}-{end:int}.m3u8"
PLAYLIST_TYPE = "application/vnd.apple.mpegurl"
# A clip playlist never changes: cached like a VOD playlist (server.media.routes), at most this
# long and never past the token's expiry; `private` when the token is bound to a viewer.
MAX_AGE = 3600


@dataclass(frozen=True)
class Timeline:
    """A sample's segments on an integer millisecond timeline (no float drift over many loops)."""

    vod: VodPlaylist
    ends: tuple[int, ...]  # end of segment i, ms from the start of the sample

    @classmethod
    def of(cls, vod: VodPlaylist) -> Timeline:
        return cls(vod, tuple(accumulate(round(s.duration * 1000) for s in vod.segments)))

    @property
    def length_ms(self) -> int:
        return self.ends[-1]

    def segment_at(self, position_ms: int) -> int:
        """Absolute number j (across loops) of the segment playing at `position_ms` (>= 0)."""
        loops, rest = divmod(position_ms, self.length_ms)
        return loops * len(self.ends) + bisect_right(self.ends, rest)

    def starts_at(self, j: int) -> int:
        """Where absolute segment j begins (ms)."""
        loops, i = divmod(j, len(self.ends))
        return loops * self.length_ms + (self.ends[i - 1] if i else 0)

    def first_starting_at(self, position_ms: int) -> int:
        """The first segment that begins at or after `position_ms`."""
        j = self.segment_at(position_ms)
        return j if self.starts_at(j) == position_ms else j + 1

    def segment(self, j: int) -> Segment:
        return self.vod.segments[j % len(self.ends)]


def clip_segments(timeline: Timeline, start_ms: int, end_ms: int) -> range:
    """The absolute segment numbers covering [start_ms, end_ms): from the one containing the
    start to the one containing the end (its last millisecond)."""
    if not 0 <= start_ms < end_ms:
        raise ValueError("a clip ends after it starts, at a position >= 0")
    return range(timeline.segment_at(start_ms), timeline.segment_at(end_ms - 1) + 1)


def _start(timeline: Timeline, numbers: range, start_ms: int) -> str:
    """Whole segments are listed; the player starts at the clip's own first moment."""
    offset = (start_ms - timeline.starts_at(numbers[0])) / 1000
    return f"#EXT-X-START:TIME-OFFSET={offset:.3f},PRECISE=YES"


def clip_playlist(vod: VodPlaylist, start_ms: int, end_ms: int) -> str:
    """The VOD media playlist of a clip over `vod` (segment URIs as in the sample's playlist)."""
    timeline = Timeline.of(vod)
    numbers = clip_segments(timeline, start_ms, end_ms)
    n = len(vod.segments)
    target = max(vod.target_duration, math.ceil(max(s.duration for s in vod.segments) - 1e-6))
    out = [
        "#EXTM3U",
        "#EXT-X-VERSION:3",
        f"#EXT-X-TARGETDURATION:{target}",
        "#EXT-X-MEDIA-SEQUENCE:0",
        "#EXT-X-PLAYLIST-TYPE:VOD",
        _start(timeline, numbers, start_ms),
    ]
    for j in numbers:
        if j != numbers[0] and j % n == 0:
            out.append("#EXT-X-DISCONTINUITY")  # the sample starts over: timestamps jump back
        segment = timeline.segment(j)
        out.append(f"#EXTINF:{segment.duration:.6f},")
        out.append(segment.uri)
    out.append("#EXT-X-ENDLIST")
    return "\n".join(out) + "\n"


def clip_master(ladder: Ladder, timeline: VodPlaylist, start_ms: int, end_ms: int) -> str:
    """The master playlist of a clip: the sample's variants, each at its rendition's clip
    playlist, with the clip's EXT-X-START (the same as in each rendition's: RFC 8216 4.3.5)."""
    numbers = clip_segments(Timeline.of(timeline), start_ms, end_ms)
    name = clip_file(start_ms, end_ms)
    start = _start(Timeline.of(timeline), numbers, start_ms)
    return ladder.render(lambda variant: f"{variant.rendition}/{name}", extra=(start,))


@lru_cache(maxsize=32)
def _load(path: Path) -> VodPlaylist | None:
    return load_vod_playlist(path) if path.is_file() else None


@lru_cache(maxsize=64)
def _load_media(path: Path) -> VodPlaylist | None:
    try:
        return parse_vod_playlist(path.read_text()) if path.is_file() else None
    except ValueError:
        return None  # a master: not one rendition


def _below(media_root: Path, stream: str) -> Path | None:
    root = Path(media_root).resolve()
    path = (root / stream / MASTER_PLAYLIST).resolve()
    return path if path.is_relative_to(root) else None


def load_sample(media_root: Path, stream: str) -> VodPlaylist | None:
    """The timeline of a stream (a directory under `media_root`): its playlist, or for a ladder
    its first rendition's (every rendition has the same segments). None if it has none."""
    path = _below(media_root, stream)
    return _load(path) if path is not None else None


def _error(status: int, message: str, code: str, head: bool) -> Response:
    body = orjson.dumps({"error": True, "message": message, "messageErrorCode": code})
    return Response(
        b"" if head else body,
        status_code=status,
        media_type="application/json",
        headers={"Cache-Control": "no-store", "Content-Length": str(len(body))},
    )


def clip_media_route(media: SignedMedia, media_root: Path) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint for CLIP_PATH (mounted under /media, before the other signed paths). Tokens
    and bearers are checked by the signed media route's own check (and its grant cache)."""

    async def endpoint(request: Request) -> Response:
        params = request.path_params
        stream, start_ms, end_ms = params["stream"], params["start"], params["end"]
        now = clock.timestamp()
        head = request.method == "HEAD"
        try:
            grant = media.check(request.scope, f"vod/{stream}/{clip_file(start_ms, end_ms)}", now)
        except StreamDenied as refusal:
            return _error(403, refusal.message, refusal.code, head)
        if not 0 <= start_ms < end_ms <= start_ms + MAX_CLIP_MS:
            return _error(404, "Clip not found", "not_found", head)
        # A sample (a master over its renditions) gets the clip's master; a rendition, its clip.
        ladder = load_stream(media_root, stream)
        if ladder is not None:
            body = clip_master(ladder.ladder, ladder.timeline, start_ms, end_ms).encode()
        else:
            path = _below(media_root, stream)
            vod = _load_media(path) if path is not None else None
            if vod is None:
                return _error(404, "Clip not found", "not_found", head)
            body = clip_playlist(vod, start_ms, end_ms).encode()
        scope = "public" if grant.user_id is None else "private"
        max_age = max(0, min(MAX_AGE, int(grant.expires_at - now)))
        return Response(
            b"" if head else body,
            media_type=PLAYLIST_TYPE,
            headers={"Cache-Control": f"{scope}, max-age={max_age}", "Content-Length": str(len(body))},
        )

    return endpoint
