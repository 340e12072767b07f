"""A strict reader of HLS media playlists for tests (the RFC 8216 rules a player relies on)."""

import math
import re
from dataclasses import dataclass, field
from datetime import datetime

PDT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
_ONCE = (
    "EXT-X-VERSION",
    "EXT-X-TARGETDURATION",
    "EXT-X-MEDIA-SEQUENCE",
    "EXT-X-DISCONTINUITY-SEQUENCE",
    "EXT-X-PLAYLIST-TYPE",
)


@dataclass
class MediaSegment:
    sequence: int  # its media sequence number
    discontinuity: int  # its discontinuity sequence number
    duration: float
    uri: str
    discontinuity_before: bool = False
    date: datetime | None = None  # its EXT-X-PROGRAM-DATE-TIME, when it has one


@dataclass
class MediaPlaylist:
    tags: dict[str, str]
    segments: list[MediaSegment] = field(default_factory=list)
    ended: bool = False

    @property
    def target_duration(self) -> int:
        return int(self.tags["EXT-X-TARGETDURATION"])

    @property
    def media_sequence(self) -> int:
        return int(self.tags.get("EXT-X-MEDIA-SEQUENCE", "0"))

    @property
    def duration(self) -> float:
        return sum(s.duration for s in self.segments)

    @property
    def uris(self) -> list[str]:
        return [s.uri for s in self.segments]


def read_media_playlist(text: str) -> MediaPlaylist:
    """Parse and check a media playlist; AssertionError says what a player would trip on."""
    lines = text.split("\n")
    assert lines[0] == "#EXTM3U", "a playlist begins with #EXTM3U"
    assert text.endswith("\n"), "the last line ends"
    playlist = MediaPlaylist(tags={})
    pending: dict = {}
    sequence: int | None = None
    discontinuity = 0  # read with the media sequence, at the first segment
    for line in lines[1:]:
        if not line:
            continue
        assert line == line.strip(), f"stray whitespace in {line!r}"
        if line.startswith("#"):
            name, _, value = line[1:].partition(":")
            if name in _ONCE:
                assert name not in playlist.tags, f"{name} twice"
                assert not playlist.segments and not pending, f"{name} after the first segment"
                playlist.tags[name] = value
            elif name == "EXTINF":
                duration = float(value.split(",", 1)[0])
                assert duration > 0
                pending["duration"] = duration
            elif name == "EXT-X-DISCONTINUITY":
                assert "discontinuity_before" not in pending, "two discontinuities for one segment"
                pending["discontinuity_before"] = True
            elif name == "EXT-X-PROGRAM-DATE-TIME":
                assert PDT.match(value), f"program date-time {value!r} is not ISO 8601 with ms in UTC"
                pending["date"] = datetime.fromisoformat(value.replace("Z", "+00:00"))
            elif name == "EXT-X-ENDLIST":
                playlist.ended = True
            else:
                assert name.startswith("EXT"), f"unknown line {line!r}"
            continue
        assert "duration" in pending, f"segment {line!r} has no #EXTINF"
        assert not playlist.ended, "a segment after #EXT-X-ENDLIST"
        if sequence is None:
            assert "EXT-X-TARGETDURATION" in playlist.tags, "EXT-X-TARGETDURATION is required"
            sequence = int(playlist.tags.get("EXT-X-MEDIA-SEQUENCE", "0"))
            discontinuity = int(playlist.tags.get("EXT-X-DISCONTINUITY-SEQUENCE", "0"))
            assert sequence >= 0 and discontinuity >= 0
        if pending.get("discontinuity_before"):
            discontinuity += 1
        playlist.segments.append(MediaSegment(sequence, discontinuity, uri=line, **pending))
        sequence += 1
        pending = {}
    assert not pending, "tags after the last segment"
    assert playlist.segments, "no segments"
    for segment in playlist.segments:  # RFC 8216 4.3.3.1: rounded EXTINF <= target duration
        assert math.floor(segment.duration + 0.5) <= playlist.target_duration
    if "EXT-X-PLAYLIST-TYPE" in playlist.tags:
        assert playlist.tags["EXT-X-PLAYLIST-TYPE"] in ("VOD", "EVENT")
    return playlist


# --- master playlists ---------------------------------------------------------------------------------

_MEDIA_TAGS = (
    "EXTINF",
    "EXT-X-TARGETDURATION",
    "EXT-X-MEDIA-SEQUENCE",
    "EXT-X-DISCONTINUITY-SEQUENCE",
    "EXT-X-PLAYLIST-TYPE",
    "EXT-X-ENDLIST",
    "EXT-X-DISCONTINUITY",
    "EXT-X-PROGRAM-DATE-TIME",
    "EXT-X-BYTERANGE",
)
_ATTRIBUTE = re.compile(r'([A-Z0-9-]+)=("[^"\n]*"|[^",\n]*)(?:,|$)')


def attribute_list(text: str) -> dict[str, str]:
    """RFC 8216 4.2: NAME=value pairs, quoted strings kept without their quotes; no name twice."""
    attributes: dict[str, str] = {}
    at = 0
    while at < len(text):
        found = _ATTRIBUTE.match(text, at)
        assert found, f"malformed attribute list at {text[at:]!r}"
        name, value = found.groups()
        assert name not in attributes, f"{name} twice"
        attributes[name] = value[1:-1] if value.startswith('"') else value
        at = found.end()
    return attributes


@dataclass
class VariantStream:
    attributes: dict[str, str]
    uri: str

    @property
    def bandwidth(self) -> int:
        return int(self.attributes["BANDWIDTH"])

    @property
    def resolution(self) -> tuple[int, int]:
        width, height = self.attributes["RESOLUTION"].split("x")
        return int(width), int(height)


@dataclass
class MasterPlaylist:
    tags: dict[str, str]
    variants: list[VariantStream]

    @property
    def uris(self) -> list[str]:
        return [v.uri for v in self.variants]


def is_master(text: str) -> bool:
    return "#EXT-X-STREAM-INF:" in text


def read_master_playlist(text: str) -> MasterPlaylist:
    """Parse and check a master playlist: every variant has its EXT-X-STREAM-INF with a BANDWIDTH,
    and no media playlist tag appears (RFC 8216 4.1: a playlist is one or the other)."""
    lines = text.split("\n")
    assert lines[0] == "#EXTM3U", "a playlist begins with #EXTM3U"
    assert text.endswith("\n"), "the last line ends"
    master = MasterPlaylist(tags={}, variants=[])
    pending: dict[str, str] | None = None
    for line in lines[1:]:
        if not line:
            continue
        assert line == line.strip(), f"stray whitespace in {line!r}"
        if line.startswith("#"):
            name, _, value = line[1:].partition(":")
            assert name not in _MEDIA_TAGS, f"{name} in a master playlist"
            if name == "EXT-X-STREAM-INF":
                assert pending is None, "two EXT-X-STREAM-INF for one URI"
                pending = attribute_list(value)
                assert int(pending["BANDWIDTH"]) > 0
            else:
                assert name.startswith("EXT"), f"unknown line {line!r}"
                assert name not in master.tags, f"{name} twice"
                master.tags[name] = value
            continue
        assert pending is not None, f"variant {line!r} has no EXT-X-STREAM-INF"
        master.variants.append(VariantStream(pending, line))
        pending = None
    assert pending is None, "EXT-X-STREAM-INF without a URI"
    assert master.variants, "no variants"
    return master
