"""Playlists made over a sample's endless timeline: archived games and clips. No video
is ever copied: they list the sample's own segments under the names of the timeline.

Timeline. Positions on a sample's timeline are milliseconds; the sample loops: absolute segment
j plays file j mod N of the sample (N segments). A live stream plays the same timeline on the
wall clock, anchored as the live playlists are (server.media.delivery.live.ANCHOR), so a clip of a live
stream names the very segments its live playlist listed. An archived game is the timeline from 0
for the game's length: a game of two hours plays its 24 s sample 300 times over.

Made playlists (the URL layout: server.media.delivery.urls), each in a directory of its own:

    vod/<sample>/game-<seconds>/index.m3u8           master: the sample's own variants (the same
                                                     EXT-X-STREAM-INF attributes), each at
    vod/<sample>/game-<seconds>/<rendition>/index.m3u8
                                                     the rendition's game: the segments that cover
                                                     [0, seconds) of the timeline
    vod/<sample>/clip-<from>-<to>/index.m3u8         master with the clip's EXT-X-START, at
    vod/<sample>/clip-<from>-<to>/<rendition>/index.m3u8
                                                     the segments that cover [from, to) ms: the first
                                                     listed contains the start, the last the end,
                                                     and EXT-X-START points the player at the start
    vod/<sample>/keys-<ranges>/...                   a catch-up (issue 31 §2): the segments of each
                                                     range in turn, a discontinuity between them

Each media playlist is a VOD playlist (EXT-X-PLAYLIST-TYPE:VOD, EXT-X-ENDLIST) whose segment URIs
are `seg-<j>.ts`, segment j of the timeline, beside it; the media route serves it as the
rendition's file j mod N. Naming segments by their place on the timeline, not by their file, is
what lets a clip's directory serve its own segments and no others (server.media.delivery.routes).
Whenever the sample starts over (j mod N == 0, not the first listed) the segment carries
EXT-X-DISCONTINUITY: its timestamps jump back, as in the live playlists. The renditions are aligned
(server.media.playlists), so every rendition's playlist is the same text.

A token opens one made playlist's directory alone (server.media.delivery.edge_tokens): a game's its
game playlists and the segments of [0, seconds), a clip's its clip playlists and the segments of
its range; not another game length or clip of the same sample.

Bounds. A game lasts at most MAX_GAME_SECONDS (7 days: the contract's bound on an event's
duration; server.services.event_admin), a range at most MAX_RANGE_MS (an hour: more than any
highlight the seed makes; a viewer's own clip is at most 10 minutes, server.services.user_clips).
A playlist is rendered on its first request and written as a file with its gzip copy
(server.media.packaging.made_playlists): a 7-day game is about 10 MB of text, a 2-hour one 120 kB.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, pairwise
from pathlib import Path

from ..playlists import MASTER_PLAYLIST, Ladder, Segment, VodPlaylist, load_vod_playlist, parse_vod_playlist
from .urls import CLIP_NAME, GAME_NAME, KEYS_NAME, keys_ranges, segment_file

MAX_GAME_SECONDS = 7 * 24 * 3600
MAX_RANGE_MS = 60 * 60 * 1000


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


def range_playlist(vod: VodPlaylist, start_ms: int, end_ms: int, *, start_tag: bool = True) -> str:
    """The VOD media playlist of [start_ms, end_ms) of `vod`'s timeline: `seg-<j>.ts` URIs, a
    discontinuity wherever the sample starts over, and (`start_tag`) the range's EXT-X-START."""
    timeline = Timeline.of(vod)
    numbers = clip_segments(timeline, start_ms, end_ms)
    n = len(vod.segments)
    target = max(vod.target_duration, math.ceil(max(s.duration for s in vod.segments) - 1e-6))
    head = [
        "#EXTM3U\n#EXT-X-VERSION:3\n",
        f"#EXT-X-TARGETDURATION:{target}\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n",
    ]
    if start_tag:
        head.append(_start(timeline, numbers, start_ms) + "\n")
    extinf = [f"#EXTINF:{s.duration:.6f},\n" for s in vod.segments]
    out = head
    for j in numbers:
        if j % n == 0 and j != numbers[0]:
            out.append("#EXT-X-DISCONTINUITY\n")  # the sample starts over: timestamps jump back
        out.append(extinf[j % n])
        out.append(f"{segment_file(j)}\n")
    out.append("#EXT-X-ENDLIST\n")
    return "".join(out)


def clip_playlist(vod: VodPlaylist, start_ms: int, end_ms: int) -> str:
    """A rendition's clip playlist: [start_ms, end_ms) of the timeline, starting at start_ms."""
    return range_playlist(vod, start_ms, end_ms)


def game_playlist(vod: VodPlaylist, seconds: int) -> str:
    """A rendition's game playlist: the timeline from 0 for `seconds`, within one segment."""
    return range_playlist(vod, 0, seconds * 1000, start_tag=False)


def clip_master(ladder: Ladder, timeline: VodPlaylist, start_ms: int, end_ms: int) -> str:
    """The master playlist of a clip: the sample's variants, each at its rendition's clip
    playlist (`<rendition>/index.m3u8` in the clip's directory), with the clip's EXT-X-START (the
    same as in each rendition's: RFC 8216 4.3.5)."""
    numbers = clip_segments(Timeline.of(timeline), start_ms, end_ms)
    start = _start(Timeline.of(timeline), numbers, start_ms)
    return ladder.render(lambda variant: f"{variant.rendition}/{MASTER_PLAYLIST}", extra=(start,))


def game_master(ladder: Ladder) -> str:
    """The master playlist of a game: the sample's variants, each at its rendition's game
    (`<rendition>/index.m3u8` in the game's directory)."""
    return ladder.render(lambda variant: f"{variant.rendition}/{MASTER_PLAYLIST}")


def keys_playlist(vod: VodPlaylist, ranges: tuple[tuple[int, int], ...]) -> str:
    """A catch-up's media playlist: the segments of each range in turn, a discontinuity where one
    range's segments do not follow the last one's (or the sample starts over), the player started
    at the first range's start. Ranges sharing segments play them once."""
    timeline = Timeline.of(vod)
    n = len(vod.segments)
    target = max(vod.target_duration, math.ceil(max(s.duration for s in vod.segments) - 1e-6))
    first = clip_segments(timeline, *ranges[0])
    out = [
        "#EXTM3U\n#EXT-X-VERSION:3\n",
        f"#EXT-X-TARGETDURATION:{target}\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n",
        _start(timeline, first, ranges[0][0]) + "\n",
    ]
    extinf = [f"#EXTINF:{s.duration:.6f},\n" for s in vod.segments]
    last: int | None = None
    for start_ms, end_ms in ranges:
        for j in clip_segments(timeline, start_ms, end_ms):
            if last is not None and j <= last:
                continue  # listed with the range before
            if last is not None and (j != last + 1 or j % n == 0):
                out.append("#EXT-X-DISCONTINUITY\n")  # another moment, or the sample starts over
            out.append(extinf[j % n])
            out.append(f"{segment_file(j)}\n")
            last = j
    out.append("#EXT-X-ENDLIST\n")
    return "".join(out)


@dataclass(frozen=True)
class Made:
    """A made playlist's name read: the range of the timeline it plays, and whether it is a clip
    (which starts at `start_ms` exactly) or a game (from 0). A catch-up plays several ranges
    (`ranges`, in order: `start_ms` is the first's start, `end_ms` the last's end) as a clip does."""

    start_ms: int
    end_ms: int
    clip: bool
    ranges: tuple[tuple[int, int], ...] = ()

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """The ranges it plays, in order."""
        return self.ranges or ((self.start_ms, self.end_ms),)

    def covers(self, timeline: Timeline, j: int) -> bool:
        """Whether segment j of the timeline is one it lists."""
        return any(j in clip_segments(timeline, start, end) for start, end in self.spans)

    def media_playlist(self, vod: VodPlaylist) -> str:
        if self.ranges:
            return keys_playlist(vod, self.ranges)
        return range_playlist(vod, self.start_ms, self.end_ms, start_tag=self.clip)

    def master(self, ladder: Ladder, timeline: VodPlaylist) -> str:
        if self.clip:
            return clip_master(ladder, timeline, self.start_ms, self.spans[0][1])
        return game_master(ladder)


def made(name: str) -> Made | None:
    """The made playlist a file name asks for (`clip-<from>-<to>.m3u8`, `game-<seconds>.m3u8`,
    `keys-<ranges>.m3u8`) within the bounds, else None (not one, or out of bounds: the route
    answers 404). A catch-up's ranges each lie within the range bounds, in time order, apart."""
    clip = CLIP_NAME.fullmatch(name)
    if clip is not None:
        start, end = int(clip[1]), int(clip[2])
        return Made(start, end, True) if 0 <= start < end <= start + MAX_RANGE_MS else None
    game = GAME_NAME.fullmatch(name)
    if game is not None:
        seconds = int(game[1])
        return Made(0, seconds * 1000, False) if 0 < seconds <= MAX_GAME_SECONDS else None
    ranges = keys_ranges(name)
    if ranges is not None:
        ordered = all(a_end <= b_start for (_, a_end), (b_start, _) in pairwise(ranges))
        bounded = all(0 <= start < end <= start + MAX_RANGE_MS for start, end in ranges)
        return Made(ranges[0][0], ranges[-1][1], True, tuple(ranges)) if ordered and bounded else None
    return None


def is_made_name(name: str) -> bool:
    """Whether `name` has the shape of a made playlist (whatever its bounds)."""
    return any(pattern.fullmatch(name) is not None for pattern in (CLIP_NAME, GAME_NAME, KEYS_NAME))


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


def load_media(media_root: Path, stream: str) -> VodPlaylist | None:
    """The media playlist of a stream directory that is one rendition (no master), else None."""
    path = _below(media_root, stream)
    return _load_media(path) if path is not None else None


@lru_cache(maxsize=64)
def timeline_of(media_root: Path, stream: str) -> Timeline | None:
    vod = load_sample(media_root, stream)
    return Timeline.of(vod) if vod is not None else None
