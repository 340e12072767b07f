"""A simulated live HLS stream: a clock-driven sliding window over a VOD sample, looping forever.

Pure functions, no I/O beyond `load_vod_playlist`: the caller passes the clock, so every
server process answers the same playlist for the same instant (no state to share) and tests
can move time freely.

Timeline. The stream is treated as having begun `window` segments before `started_at`, so a
viewer who tunes in at `started_at` already gets a full window and the playlist advances one
segment each time a segment's duration elapses. Absolute segment number j plays file
j mod N of the sample (N segments); whenever j mod N == 0 (j > 0) the sample wraps, and the
timestamps jump back, so that segment carries EXT-X-DISCONTINUITY.

    EXT-X-MEDIA-SEQUENCE           = j of the first listed segment
                                   = segments fully elapsed since started_at
    EXT-X-DISCONTINUITY-SEQUENCE   = wraps whose tag has already slid out of the window
    (so every segment's discontinuity number equals its loop count, as RFC 8216 6.2.2 wants)

URLs: see server.media.urls. The live playlist is served at /media/s/<token>/live/<sample>.m3u8
and its segment URIs are `../vod/<sample>/index<N>.ts` (pass `uri_prefix=live_segment_prefix(name)`),
which resolve under the same token (server.media.signing).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

# Float durations (2.000000) summed over many loops: treat "almost finished" as finished.
_EPSILON = 1e-6


@dataclass(frozen=True)
class Segment:
    uri: str
    duration: float


@dataclass(frozen=True)
class VodPlaylist:
    segments: tuple[Segment, ...]
    target_duration: int

    @property
    def duration(self) -> float:
        return sum(s.duration for s in self.segments)


def parse_vod_playlist(text: str) -> VodPlaylist:
    """Parse a media playlist (as ffmpeg writes for VOD). Raises ValueError if it is not one."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0] != "#EXTM3U":
        raise ValueError("not an HLS playlist: missing #EXTM3U")
    segments: list[Segment] = []
    target: int | None = None
    pending: float | None = None
    for line in lines[1:]:
        if line.startswith("#EXT-X-STREAM-INF"):
            raise ValueError("a master playlist, not a media playlist")
        if line.startswith("#EXT-X-TARGETDURATION:"):
            target = int(line.split(":", 1)[1])
        elif line.startswith("#EXTINF:"):
            pending = float(line.split(":", 1)[1].split(",", 1)[0])
        elif not line.startswith("#"):
            if pending is None:
                raise ValueError(f"segment {line!r} has no #EXTINF")
            segments.append(Segment(line, pending))
            pending = None
    if not segments:
        raise ValueError("playlist has no segments")
    if target is None:
        target = math.ceil(max(s.duration for s in segments))
    return VodPlaylist(tuple(segments), target)


def load_vod_playlist(path: Path) -> VodPlaylist:
    return parse_vod_playlist(Path(path).read_text())


def elapsed_segments(vod: VodPlaylist, now: float, started_at: float) -> int:
    """How many segments (across loops) have fully played between started_at and now."""
    elapsed = max(0.0, now - started_at)
    ends = list(accumulate(s.duration for s in vod.segments))
    loop_length = ends[-1]
    loops = int((elapsed + _EPSILON) // loop_length)
    rest = elapsed - loops * loop_length
    return loops * len(ends) + bisect_right(ends, rest + _EPSILON)


def live_playlist(
    vod: VodPlaylist | str,
    now: float,
    started_at: float,
    window: int = 6,
    *,
    uri_prefix: str = "",
    uri_query: str = "",
) -> str:
    """The live media playlist at epoch second `now` for a stream started at `started_at`.

    `vod` is a parsed playlist or its text. `uri_prefix` is put before each segment file name
    (e.g. "../vod/football/"); `uri_query` (without "?") is appended, for signed segment URLs.
    """
    if isinstance(vod, str):
        vod = parse_vod_playlist(vod)
    if window < 1:
        raise ValueError("window must be at least 1")
    n = len(vod.segments)
    first = elapsed_segments(vod, now, started_at)
    # Tags for wraps at j = n, 2n, ... before `first` have slid out of the window.
    discontinuity_sequence = (first - 1) // n if first > 0 else 0
    target = max(vod.target_duration, math.ceil(max(s.duration for s in vod.segments) - _EPSILON))
    out = [
        "#EXTM3U",
        "#EXT-X-VERSION:3",
        f"#EXT-X-TARGETDURATION:{target}",
        f"#EXT-X-MEDIA-SEQUENCE:{first}",
        f"#EXT-X-DISCONTINUITY-SEQUENCE:{discontinuity_sequence}",
    ]
    suffix = f"?{uri_query}" if uri_query else ""
    for j in range(first, first + window):
        segment = vod.segments[j % n]
        if j > 0 and j % n == 0:
            out.append("#EXT-X-DISCONTINUITY")
        out.append(f"#EXTINF:{segment.duration:.6f},")
        out.append(f"{uri_prefix}{segment.uri}{suffix}")
    # No EXT-X-ENDLIST: the stream never ends, players keep reloading.
    return "\n".join(out) + "\n"
