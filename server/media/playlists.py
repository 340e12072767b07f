"""HLS playlists as the samples are written (scripts/sample_video.py): media playlists, master
playlists, and a sample's ladder of aligned renditions.

A sample directory holds a master playlist (`index.m3u8`) listing one variant per rendition,
each a VOD media playlist in its own directory (`360p/index.m3u8` + `360p/index<N>.ts`). The
renditions are aligned: the same number of segments with the same durations, each beginning with
a keyframe, so segment j of every rendition covers the same moment, and one timeline (the first
variant's) serves them all: live windows (server.media.delivery.live), clips (server.media.delivery.clips), the
length of a sample (server.services.tags).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

MASTER_PLAYLIST = "index.m3u8"  # a sample's master; also each rendition's media playlist, in its directory
STREAM_INF = "#EXT-X-STREAM-INF:"


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
    if any(s.duration <= 0 for s in segments):
        raise ValueError("a segment has no duration")
    if target is None:
        target = math.ceil(max(s.duration for s in segments))
    return VodPlaylist(tuple(segments), target)


@dataclass(frozen=True)
class Variant:
    """One EXT-X-STREAM-INF of a master playlist: its attribute list as written, and its URI."""

    attributes: str
    uri: str

    @property
    def rendition(self) -> str:
        """The directory of its media playlist (`360p/index.m3u8` -> `360p`), which names the
        rendition in every URL made for it."""
        return self.uri.rpartition("/")[0]

    def attribute(self, name: str) -> str | None:
        """One attribute's value (quotes removed), e.g. `BANDWIDTH` -> "412000"."""
        for key, value in _attribute_list(self.attributes):
            if key == name:
                return value
        return None


def _attribute_list(text: str) -> list[tuple[str, str]]:
    """RFC 8216 4.2 attribute lists: NAME=value pairs separated by commas outside quotes."""
    pairs: list[tuple[str, str]] = []
    rest = text
    while rest:
        name, _, rest = rest.partition("=")
        if rest.startswith('"'):
            value, _, rest = rest[1:].partition('"')
            rest = rest.removeprefix(",")
        else:
            value, _, rest = rest.partition(",")
        pairs.append((name.strip(), value))
    return pairs


@dataclass(frozen=True)
class Ladder:
    """A master playlist: its own tags (EXT-X-VERSION, EXT-X-INDEPENDENT-SEGMENTS...) and its
    variants in their order (players start with the first)."""

    tags: tuple[str, ...]
    variants: tuple[Variant, ...]

    def render(self, uri: Callable[[Variant], str], *, extra: tuple[str, ...] = ()) -> str:
        """The master again with each variant's URI replaced by `uri(variant)` and `extra` tag
        lines after its own (e.g. EXT-X-START for a clip)."""
        lines = ["#EXTM3U", *self.tags, *extra]
        for variant in self.variants:
            lines += [STREAM_INF + variant.attributes, uri(variant)]
        return "\n".join(lines) + "\n"


def is_master(text: str) -> bool:
    return STREAM_INF in text


def parse_master_playlist(text: str) -> Ladder:
    """Parse a master playlist whose variants are relative URIs. Raises ValueError otherwise."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0] != "#EXTM3U":
        raise ValueError("not an HLS playlist: missing #EXTM3U")
    tags: list[str] = []
    variants: list[Variant] = []
    pending: str | None = None
    for line in lines[1:]:
        if line.startswith(STREAM_INF):
            pending = line[len(STREAM_INF) :]
        elif line.startswith(("#EXTINF", "#EXT-X-TARGETDURATION")):
            raise ValueError("a media playlist, not a master playlist")
        elif line.startswith("#"):
            tags.append(line)
        else:
            if pending is None:
                raise ValueError(f"variant {line!r} has no #EXT-X-STREAM-INF")
            if "://" in line or line.startswith("/") or ".." in line.split("/"):
                raise ValueError(f"variant {line!r} is not a URI below the master")
            variants.append(Variant(pending, line))
            pending = None
    if not variants:
        raise ValueError("master playlist has no variants")
    if len({v.rendition for v in variants}) != len(variants):
        raise ValueError("two variants in one directory")
    return Ladder(tuple(tags), tuple(variants))


@dataclass(frozen=True)
class Rendition:
    """A variant and its media playlist."""

    variant: Variant
    playlist: VodPlaylist

    @property
    def name(self) -> str:
        return self.variant.rendition


@dataclass(frozen=True)
class Stream:
    """A sample directory: its master and each rendition's playlist, checked to be aligned."""

    ladder: Ladder
    renditions: tuple[Rendition, ...]

    @property
    def timeline(self) -> VodPlaylist:
        """The segments' durations every rendition shares (the first variant's playlist)."""
        return self.renditions[0].playlist

    def rendition(self, name: str) -> Rendition | None:
        return next((r for r in self.renditions if r.name == name), None)


def aligned(playlists: list[VodPlaylist]) -> bool:
    """The same number of segments with the same durations (segment j covers one moment in all)."""
    return len({tuple(s.duration for s in p.segments) for p in playlists}) <= 1


def read_stream(directory: Path) -> Stream:
    """The stream of a sample directory with a master playlist. Raises ValueError if its index
    is no master, a variant is missing or the renditions are not aligned; OSError if unreadable."""
    ladder = parse_master_playlist((directory / MASTER_PLAYLIST).read_text())
    renditions = tuple(
        Rendition(v, parse_vod_playlist((directory / v.uri).read_text())) for v in ladder.variants if v.rendition
    )
    if len(renditions) != len(ladder.variants):
        raise ValueError("a variant has no directory of its own")
    if not aligned([r.playlist for r in renditions]):
        raise ValueError(f"the renditions of {directory.name} are not aligned")
    return Stream(ladder, renditions)


@lru_cache(maxsize=64)
def _stream(directory: Path, mtime: float) -> Stream | None:
    try:
        return read_stream(directory)
    except (OSError, ValueError):
        return None


def load_stream(root: Path, name: str) -> Stream | None:
    """The stream of `root/<name>/` (name may have several parts: `cup/final`), or None when it
    is not a directory below `root` with a master playlist over aligned renditions. Cached per
    directory until its master changes."""
    base = Path(root).resolve()
    directory = (base / name).resolve()
    if not directory.is_relative_to(base) or directory == base:
        return None
    try:
        mtime = (directory / MASTER_PLAYLIST).stat().st_mtime
    except OSError:
        return None
    return _stream(directory, mtime)


def load_vod_playlist(path: Path) -> VodPlaylist:
    """The media playlist at `path`. For a master playlist, its first variant's playlist with
    segment URIs relative to the master (`360p/index0.ts`): the renditions are aligned, so that
    is every rendition's timeline. Raises ValueError (not a playlist) or OSError."""
    path = Path(path)
    text = path.read_text()
    if not is_master(text):
        return parse_vod_playlist(text)
    first = parse_master_playlist(text).variants[0]
    vod = parse_vod_playlist((path.parent / first.uri).read_text())
    prefix = f"{first.rendition}/" if first.rendition else ""
    return VodPlaylist(tuple(Segment(prefix + s.uri, s.duration) for s in vod.segments), vod.target_duration)


def program_date_time(timestamp: float) -> str:
    """ISO 8601 with milliseconds in UTC, as EXT-X-PROGRAM-DATE-TIME wants it."""
    moment = datetime.fromtimestamp(round(timestamp, 3), UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
