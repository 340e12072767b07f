"""A simulated live HLS stream: a VOD sample looped forever on the wall clock, with a rewind window.

Pure computation, no I/O beyond `load_vod_playlist`: the caller passes the clock, so every
server process answers the same playlist for the same instant (no state to share) and tests
can move time freely.

Timeline. Every sample plays on one timeline that began at the Unix epoch (`ANCHOR`): absolute
segment j plays file j mod N of the sample (N segments) from `start_of(j)` to `start_of(j + 1)`.
A stream's segment numbers are therefore the same for every event, viewer, process and reload;
an event only decides where its window may begin (its kickoff). Whenever j mod N == 0 the sample
wraps and its timestamps jump back, so that segment carries EXT-X-DISCONTINUITY (unless it is
the first listed: a playlist does not begin with one).

The playlist at instant `now` lists the segments that have finished (the live edge is the end
of the last one) and began at most `rewind_seconds` before the live edge, and never a segment
that began before the stream's kickoff:

    EXT-X-MEDIA-SEQUENCE           = j of the first listed segment
    EXT-X-DISCONTINUITY-SEQUENCE   = wraps up to the first listed segment: the loop it plays
                                     in (so every segment's discontinuity number is its loop
                                     count, as RFC 8216 6.2.2 wants, whatever the window)
    EXT-X-PROGRAM-DATE-TIME        = the wall-clock start of the first segment and of every
                                     segment after a discontinuity, so players can show (and
                                     seek to) real times

A stream whose kickoff is ahead, or so recent that no segment has finished since, has no
playlist yet (`LiveSample.window` answers None).

Renditions. A sample is a ladder of aligned renditions (server.media.playlists): the same
segment durations in each, so one instant gives every rendition the same window, and the live
playlists of all renditions carry the same media sequence, discontinuity sequence and program
date-times: players switch renditions at any segment and keep their timeline (`LiveStream`).

URLs: see server.media.delivery.urls. The live master is served at
/media/live/<asset>/from-<start>/index.m3u8 and lists the sample's variants as
`<rendition>/live.m3u8` beside it; each of those is a rendition's live playlist, whose segment URIs
are the rendition's files beside it, `index<N>.ts`, all in the stream's directory, which one token
opens (server.media.delivery.edge_tokens).
"""

from __future__ import annotations

import gzip
import math
from bisect import bisect_left, bisect_right
from itertools import accumulate

# Playlist parsing lives in server.media.playlists; these names stay importable from here.
from ..playlists import Segment as Segment
from ..playlists import Stream, program_date_time
from ..playlists import VodPlaylist as VodPlaylist
from ..playlists import load_vod_playlist as load_vod_playlist
from ..playlists import parse_vod_playlist as parse_vod_playlist
from .urls import live_variant_uri

# Float durations (2.000000) summed over many loops: treat "almost finished" as finished.
_EPSILON = 1e-6
# Epoch second at which segment 0 of every simulated stream began.
ANCHOR = 0.0
DEFAULT_REWIND_SECONDS = 1800
# Rendered playlists kept per sample: one per window position in use (events of one sample that
# kicked off less than a rewind window ago each have their own first segment).
_RENDERED_ENTRIES = 64


class LiveSample:
    """One sample's live timeline, precomputed: segment tables, the rendered line of every
    segment and the playlists rendered lately (a window position changes once a segment)."""

    def __init__(self, vod: VodPlaylist, *, uri_prefix: str = "", uri_query: str = "", anchor: float = ANCHOR):
        self.vod = vod
        self.n = len(vod.segments)
        self.anchor = anchor
        durations = [s.duration for s in vod.segments]
        self.ends = tuple(accumulate(durations))  # end of segment i within a loop
        self.starts = (0.0, *self.ends[:-1])  # start of segment i within a loop
        self.loop_length = self.ends[-1]
        self.target_duration = max(vod.target_duration, math.ceil(max(durations) - _EPSILON))
        suffix = f"?{uri_query}" if uri_query else ""
        self._entries = tuple(f"#EXTINF:{s.duration:.6f},\n{uri_prefix}{s.uri}{suffix}\n" for s in vod.segments)
        # Version 3: decimal EXTINF durations. No EXT-X-PLAYLIST-TYPE: the window slides.
        self._header = f"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:{self.target_duration}\n"
        self._rendered: dict[tuple[int, int], bytes] = {}
        self._compressed: dict[tuple[int, int], bytes] = {}

    # --- the timeline -----------------------------------------------------------------------

    def start_of(self, j: int) -> float:
        """Epoch second at which absolute segment j begins (j = n: the end of segment n - 1)."""
        loops, i = divmod(j, self.n)
        return self.anchor + loops * self.loop_length + self.starts[i]

    def segments_done(self, now: float) -> int:
        """How many segments have finished by `now`: the live edge is the end of segment
        `segments_done(now) - 1`."""
        elapsed = now - self.anchor
        loops = math.floor((elapsed + _EPSILON) / self.loop_length)
        rest = elapsed - loops * self.loop_length
        return loops * self.n + bisect_right(self.ends, rest + _EPSILON)

    def first_starting_at(self, moment: float) -> int:
        """The first segment that begins at or after epoch second `moment`."""
        elapsed = moment - self.anchor
        loops = math.floor((elapsed - _EPSILON) / self.loop_length)
        rest = elapsed - loops * self.loop_length
        return loops * self.n + bisect_left(self.starts, rest - _EPSILON)

    def segment_at(self, moment: float) -> int:
        """The segment playing at epoch second `moment` (the one that contains it)."""
        return self.segments_done(moment)

    def window(
        self, now: float, *, rewind_seconds: float = DEFAULT_REWIND_SECONDS, kickoff: float | None = None
    ) -> tuple[int, int] | None:
        """The segments [first, end) the playlist lists at `now`, or None before the stream has
        a finished segment since `kickoff`. At least one segment, however short the rewind."""
        end = self.segments_done(now)
        first = max(0, min(self.first_starting_at(self.start_of(end) - rewind_seconds), end - 1))
        if kickoff is not None:
            first = max(first, self.first_starting_at(kickoff))
        return (first, end) if first < end else None

    def available_at(self, kickoff: float) -> float:
        """Epoch second at which a stream that kicks off at `kickoff` has its first segment."""
        return self.start_of(self.first_starting_at(kickoff) + 1)

    # --- the playlist -----------------------------------------------------------------------

    def render(self, first: int, end: int) -> str:
        """The media playlist listing absolute segments first .. end - 1."""
        if not 0 <= first < end:
            raise ValueError("a playlist lists at least one segment")
        n, entries = self.n, self._entries
        out = [
            self._header,
            f"#EXT-X-MEDIA-SEQUENCE:{first}\n",
            # Wraps before the first segment, its own included: the tag in front of a segment
            # leaves the playlist as soon as that segment is first (nothing is discontinuous
            # with what is not listed).
            f"#EXT-X-DISCONTINUITY-SEQUENCE:{first // n}\n",
        ]
        j = first
        while j < end:
            i = j % n
            if i == 0 and j != first:
                out.append("#EXT-X-DISCONTINUITY\n")
            if i == 0 or j == first:
                out.append(f"#EXT-X-PROGRAM-DATE-TIME:{program_date_time(self.start_of(j))}\n")
            stop = min(n, i + end - j)  # the rest of this loop, or of the window
            out.extend(entries[i:stop])
            j += stop - i
        # No EXT-X-ENDLIST: the stream never ends, players keep reloading.
        return "".join(out)

    def encoded(self, first: int, end: int, *, compressed: bool = False) -> bytes:
        """`render(first, end)` as UTF-8 (or gzip) bytes, rendered once per window position."""
        key = (first, end)
        cache = self._compressed if compressed else self._rendered
        body = cache.get(key)
        if body is None:
            if len(cache) >= _RENDERED_ENTRIES:
                # Positions behind the live edge are never asked for again (the clock only goes
                # forward); keep the newest edge's, which other kickoffs may still share.
                newest = max(e for _f, e in cache)
                for old in [k for k in cache if k[1] < newest]:
                    del cache[old]
                if len(cache) >= _RENDERED_ENTRIES:
                    cache.clear()
            plain = self._rendered.get(key) or self.render(first, end).encode()
            body = gzip.compress(plain, compresslevel=6, mtime=0) if compressed else plain
            cache[key] = body
        return body


class LiveStream:
    """A sample's live ladder: a LiveSample per rendition (segment URIs as in the rendition's own
    playlist: served beside it) and the live master listing them. Every rendition has the same
    segment durations (server.media.playlists.read_stream checks it), so `window` is theirs all."""

    def __init__(self, stream: Stream, name: str, *, anchor: float = ANCHOR):
        self.name = name
        self.renditions = {r.name: LiveSample(r.playlist, anchor=anchor) for r in stream.renditions}
        self.timeline = self.renditions[stream.renditions[0].name]
        self.master = stream.ladder.render(lambda variant: live_variant_uri(variant.rendition)).encode()
        self.master_compressed = gzip.compress(self.master, compresslevel=6, mtime=0)

    def window(
        self, now: float, *, rewind_seconds: float = DEFAULT_REWIND_SECONDS, kickoff: float | None = None
    ) -> tuple[int, int] | None:
        """The window every rendition lists at `now` (LiveSample.window)."""
        return self.timeline.window(now, rewind_seconds=rewind_seconds, kickoff=kickoff)

    def available_at(self, kickoff: float) -> float:
        return self.timeline.available_at(kickoff)

    def master_playlist(self, *, compressed: bool = False) -> bytes:
        return self.master_compressed if compressed else self.master


def live_playlist(
    vod: VodPlaylist | str,
    now: float,
    kickoff: float | None = None,
    *,
    rewind_seconds: float = DEFAULT_REWIND_SECONDS,
    uri_prefix: str = "",
    uri_query: str = "",
    anchor: float = ANCHOR,
) -> str | None:
    """The live media playlist at epoch second `now` of a stream that kicked off at `kickoff`
    (None: long ago), or None when it has no finished segment yet.

    `vod` is a parsed playlist or its text. `uri_prefix` is put before each segment file name
    (e.g. "../vod/football/"); `uri_query` (without "?") is appended to each segment URI.
    Servers keep a LiveSample per sample instead (precomputed tables, rendered once a segment).
    """
    if isinstance(vod, str):
        vod = parse_vod_playlist(vod)
    sample = LiveSample(vod, uri_prefix=uri_prefix, uri_query=uri_query, anchor=anchor)
    span = sample.window(now, rewind_seconds=rewind_seconds, kickoff=kickoff)
    return sample.render(*span) if span else None
