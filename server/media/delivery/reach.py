"""What a stream token opens: the stored playlist it was issued for, that playlist in each of the
sample's renditions, and the segments they list. Nothing beside it: not the same sample's live
stream for a VOD token (or the reverse), not another game length or clip range on the sample,
not another event's playlist there (server.media.delivery.signing puts the stored path in the token).

    issued for (stored, no /media/)     opens (as stored paths: edge_routes maps the edge layout's onto them)
    live/<s>.m3u8                       itself; vod/<s>/<r>/live.m3u8; the files of <r> that are
                                        no playlist (the segments the live playlists list)
    vod/<s>/game-<seconds>.m3u8         itself; vod/<s>/<r>/<the same name>; vod/<s>/<r>/seg-<j>.ts
    vod/<s>/clip-<from>-<to>.m3u8       for j among the segments of its range only (the caller
    vod/<s>/keys-<ranges>.m3u8          (a catch-up: of its ranges)
                                        checks j against the timeline: `Place.segment`)
    vod/<s>/<name>.m3u8 (a file)        itself; vod/<s>/<r>/<name>.m3u8; the files of <r> that are
                                        no playlist (or of <s> itself, a sample of one rendition)

`<r>` is one directory (a rendition); the caller checks that it is one of the sample's when it
serves a file as it is (`Place.file`), and that a file beside the stream's own playlist lies in a
stream of one rendition (a ladder's directory holds no segments). Every path part is checked: no
`.`, `..` or empty parts.

Seek previews (issue 29 §5, server.media.packaging.previews) lie at the asset's root, beside its
master (`Place.preview`):

    vod/<s>/index.m3u8                  also vod/<s>/thumbnails.vtt, vod/<s>/thumbs-<nnn>.jpg (the
                                        sprite sheets) and vod/<s>/poster.jpg
    vod/<s>/clip-<from>-<to>.m3u8       also vod/<s>/thumbnails.vtt, made for its range, and the
                                        sheets its cues name (the caller makes and checks them)

    live/<s>.m3u8                       also vod/<s>/thumbnails.vtt and vod/<s>/thumbs-<n>.jpg: a live
                                        recording's pictures of its rewind window, while it records

A game's token (a sample looped for its length: samples have no previews) opens none, and no
token opens another file at the root: not `recording.json`, not another playlist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..packaging.previews import POSTER, SHEET_TEMPLATE, THUMBNAILS_VTT
from ..playlists import MASTER_PLAYLIST
from .clips import Made, is_made_name, made
from .urls import LIVE_VARIANT, SEGMENT_NAME

# One path part of a stream path: no empty, `.` or `..` parts, nothing to escape.
# Up to 240 characters: a catch-up's name holds its ranges (server.media.delivery.urls.KEYS_NAME).
PART = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,239}$")
PLAYLIST_SUFFIX = ".m3u8"
# The sprite sheets' names (previews.SHEET_TEMPLATE, `thumbs-%03d.jpg`: three digits, more past 999).
_SHEET_HEAD, _, _SHEET_TAIL = SHEET_TEMPLATE.partition("%03d")
SHEET_NAME = re.compile(f"{re.escape(_SHEET_HEAD)}[0-9]{{3,6}}{re.escape(_SHEET_TAIL)}")


def is_sheet(name: str) -> bool:
    return SHEET_NAME.fullmatch(name) is not None


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
    # A seek preview at the asset's root (thumbnails.vtt, a sprite sheet, the poster): for a clip's
    # token the caller makes the VTT of its range and checks that its cues name the sheet.
    preview: bool = False


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
        if self.made is None or not self.made.clip or self.made.ranges:  # a catch-up has no previews
            return None
        return (self.made.start_ms, self.made.end_ms)

    def opens_preview(self, name: str) -> bool:
        """Whether `name`, at the asset's root, is a seek preview this token opens: every one for
        a whole asset's master; thumbnails.vtt and the sprite sheets for a clip (the caller
        narrows the sheets to its range's); none for anything else."""
        if not self.live and not self.made_shape and self.name == MASTER_PLAYLIST:
            return name in (THUMBNAILS_VTT, POSTER) or is_sheet(name)
        if self.live:  # a live recording's pictures of its rewind window (packaging.live_previews)
            return name == THUMBNAILS_VTT or is_sheet(name)
        if self.clip is not None:
            return name == THUMBNAILS_VTT or is_sheet(name)
        return False

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
        if not rendition and self.opens_preview(name):
            return Place("", preview=True)
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
        # A file of the sample (what the live or stored playlists list), never a made name; a
        # live stream's are in its renditions alone.
        return Place(rendition, file=True) if segment is None and (rendition or not self.live) else None


def reach_of(issued: str) -> Reach | None:
    """What a token for the stored media path `issued` opens; None when it names no stream."""
    stream = stream_of(issued)
    if stream is None:
        return None
    if issued.startswith("live/"):
        return Reach(issued, stream, True, LIVE_VARIANT, False, None)
    name = issued.rpartition("/")[2]
    return Reach(issued, stream, False, name, is_made_name(name), made(name))
