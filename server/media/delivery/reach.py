"""What a stream token opens: the stored playlist it was issued for, that playlist in each of the
sample's renditions, and the segments they list. Nothing beside it: not the same sample's live
stream for a VOD token (or the reverse), not another game length or clip range on the sample,
not another event's playlist there (server.media.delivery.signing puts the stored path in the token).

    issued for (stored, no /media/)     opens, below /media/s/<token>/
    live/<s>.m3u8                       itself; vod/<s>/<r>/live.m3u8; the files of <r> that are
                                        no playlist (the segments the live playlists list)
    vod/<s>/game-<seconds>.m3u8         itself; vod/<s>/<r>/<the same name>; vod/<s>/<r>/seg-<j>.ts
    vod/<s>/clip-<from>-<to>.m3u8       for j among the segments of its range only (the caller
                                        checks j against the timeline: `Place.segment`)
    vod/<s>/<name>.m3u8 (a file)        itself; vod/<s>/<r>/<name>.m3u8; the files of <r> that are
                                        no playlist (or of <s> itself, a sample of one rendition)

`<r>` is one directory (a rendition); the caller checks that it is one of the sample's when it
serves a file as it is (`Place.file`). Every path part is checked: no `.`, `..` or empty parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .clips import Made, is_made_name, made
from .urls import LIVE_VARIANT, SEGMENT_NAME

# One path part of a stream path: no empty, `.` or `..` parts, nothing to escape.
PART = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$")
PLAYLIST_SUFFIX = ".m3u8"


def parts_ok(parts: list[str]) -> bool:
    return bool(parts) and all(PART.match(p) for p in parts)


def stream_of(media_path: str) -> str | None:
    """The stream a stored media path (without `/media/`) belongs to, or None if it names none:
    `vod/a/b/index.m3u8` -> `a/b`; `live/football.m3u8` -> `football`."""
    kind, _, rest = media_path.partition("/")
    if kind == "live":
        name = rest[: -len(PLAYLIST_SUFFIX)] if rest.endswith(PLAYLIST_SUFFIX) else ""
        return name if parts_ok([name]) else None
    if kind == "vod":
        parts = rest.split("/")
        return "/".join(parts[:-1]) if len(parts) >= 2 and parts_ok(parts) else None
    return None


@dataclass(frozen=True)
class Place:
    """Where a request lies within what a token opens."""

    rendition: str  # its rendition's directory; "" for the stream's own directory
    segment: int | None = None  # seg-<j> of a game or clip: j must be among its range's segments
    file: bool = False  # a file of the sample served as it is (a segment, a rendition's playlist)
    # A file named by a game's or clip's token: only a recording's segment within its range (the
    # caller checks it against the recording: server.media.recordings).
    ranged: bool = False


@dataclass(frozen=True)
class Reach:
    """What a token issued for the stored path `issued` opens."""

    issued: str
    stream: str  # the sample's directory below the media root
    live: bool
    name: str  # the playlist's name in each rendition's directory
    made_shape: bool  # a game or clip name (made per request), whether or not within bounds
    made: Made | None  # ...and its range of the timeline when it is within bounds

    @property
    def clip(self) -> tuple[int, int] | None:
        """A clip's or highlight's [from, to) ms; None for anything else."""
        return (self.made.start_ms, self.made.end_ms) if self.made is not None and self.made.clip else None

    def place(self, requested: str) -> Place | None:
        """Where `requested` (`live/...` or `vod/...`, no `/media/`) lies, or None: not opened."""
        if requested == self.issued:
            return Place("", file=not (self.live or self.made_shape))
        below = requested.removeprefix(f"vod/{self.stream}/")
        if below == requested or not parts_ok(below.split("/")):
            return None
        rendition, _, name = below.rpartition("/")
        if "/" in rendition:
            return None
        if name == self.name:
            # The playlist in a rendition's directory (the stream's own is `issued`, handled above).
            return Place(rendition, file=not (self.live or self.made_shape)) if rendition else None
        if name.endswith(PLAYLIST_SUFFIX):
            return None  # any other playlist: another game, clip, the live stream, the sample's VOD
        segment = SEGMENT_NAME.fullmatch(name)
        if self.made_shape:
            # Only the segments of its range: the caller checks j, or the recording's file.
            if not self.made:
                return None
            if segment is not None:
                return Place(rendition, segment=int(segment[1]))
            return Place(rendition, ranged=True) if rendition else None
        # A file of the sample (what the live or stored playlists list), never a made name.
        return Place(rendition, file=True) if segment is None else None


def reach_of(issued: str) -> Reach | None:
    """What a token for the stored media path `issued` opens; None when it names no stream."""
    stream = stream_of(issued)
    if stream is None:
        return None
    if issued.startswith("live/"):
        return Reach(issued, stream, True, LIVE_VARIANT, False, None)
    name = issued.rpartition("/")[2]
    return Reach(issued, stream, False, name, is_made_name(name), made(name))
