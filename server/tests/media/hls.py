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
