"""Seek-preview thumbnails of a clip or highlight (issue 29 §5), made from its asset's own.

An asset's `thumbnails.vtt` (server.media.packaging.previews) has a cue per thumbnail on the
asset's timeline, its text a sprite sheet beside it with the thumbnail's place in it
(`thumbs-001.jpg#xywh=x,y,w,h`). A clip's playlists list the whole segments covering its range
[from, to) (server.media.delivery.clips for an upload's ladder, server.media.recordings for a
recording), so the player's time 0 is where the first of them begins, `origin`, at or before
`from`. The clip's thumbnails.vtt, served at the same place as the asset's under the clip's token:

- the asset's cues that overlap [from, to), and no other (players stretch the first and the last
  over the rest of the seek bar);
- each moved back by `origin` (one that began before `origin` begins at 0);
- their texts as they are: the sheets are named relative to the VTT, which lies beside them.

The clip's token opens the sheets those cues name and no other. The VTT is made once per process
and clip, again when the asset's file changes (a recording's previews come after it is finished;
until then it has none and the clip's answers 404, as the asset's do). The cues of a range past
the end of the asset's own video (a looped sample: samples have no thumbnails) are not made.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..packaging.previews import THUMBNAILS_VTT

VTT_TYPE = "text/vtt; charset=utf-8"
# `[hh:]mm:ss.mmm --> [hh:]mm:ss.mmm`, then optional cue settings.
_TIMING = re.compile(r"^((?:\d+:)?\d{1,2}:\d{2}\.\d{3})\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}\.\d{3})(?:\s.*)?$")
CACHE_ENTRIES = 1024


@dataclass(frozen=True)
class VttCue:
    start_ms: int
    end_ms: int
    text: str

    @property
    def sheet(self) -> str:
        """The file the cue's text names (without its `#xywh=` fragment)."""
        return self.text.partition("#")[0]


def _ms(stamp: str) -> int:
    *hours, minutes, seconds = stamp.split(":")
    whole, _, millis = seconds.partition(".")
    return ((int(hours[0]) if hours else 0) * 3600 + int(minutes) * 60 + int(whole)) * 1000 + int(millis)


def _stamp(ms: int) -> str:
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def parse_vtt(text: str) -> list[VttCue]:
    """The cues of a WebVTT file (identifiers and cue settings ignored); ValueError when it is none."""
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or not lines[0].lstrip("\ufeff").startswith("WEBVTT"):
        raise ValueError("not a WebVTT file")
    found: list[VttCue] = []
    i = 1
    while i < len(lines):
        timing = _TIMING.match(lines[i].strip())
        i += 1
        if timing is None:
            continue
        body: list[str] = []
        while i < len(lines) and lines[i].strip():
            body.append(lines[i].strip())
            i += 1
        found.append(VttCue(_ms(timing[1]), _ms(timing[2]), "\n".join(body)))
    return found


def render_vtt(cues: list[VttCue]) -> str:
    out = ["WEBVTT", ""]
    for cue in cues:
        out += [f"{_stamp(cue.start_ms)} --> {_stamp(cue.end_ms)}", cue.text, ""]
    return "\n".join(out)


def clip_cues(cues: list[VttCue], start_ms: int, end_ms: int, origin_ms: int) -> list[VttCue]:
    """The cues overlapping [start_ms, end_ms), on a timeline that begins at `origin_ms`."""
    return [
        VttCue(max(0, cue.start_ms - origin_ms), cue.end_ms - origin_ms, cue.text)
        for cue in cues
        if cue.start_ms < end_ms and cue.end_ms > start_ms
    ]


@dataclass(frozen=True)
class ClipThumbnails:
    body: bytes  # the clip's thumbnails.vtt
    sheets: frozenset[str]  # the sprite sheets its cues name


class Thumbnails:
    """The clips' thumbnails.vtt, per stream and range, made again when the asset's file changes
    (a stat per request tells; no database)."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self._cache: dict[tuple[str, int, int], tuple[tuple[int, int], ClipThumbnails]] = {}

    def clip(self, stream: str, start_ms: int, end_ms: int, origin: Callable[[], int | None]) -> ClipThumbnails | None:
        """The thumbnails of the clip [start_ms, end_ms) of `stream`, whose playlists begin at
        `origin()` on the asset's timeline; None when the asset has none (or no such range)."""
        path = (self.root / stream / THUMBNAILS_VTT).resolve()
        if not path.is_relative_to(self.root):
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_mtime_ns, stat.st_size)
        key = (stream, start_ms, end_ms)
        hit = self._cache.get(key)
        if hit is not None and hit[0] == version:
            return hit[1]
        try:
            cues = parse_vtt(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        begins = origin()
        if begins is None:
            return None
        kept = clip_cues(cues, start_ms, end_ms, begins)
        made = ClipThumbnails(render_vtt(kept).encode(), frozenset(cue.sheet for cue in kept))
        if len(self._cache) >= CACHE_ENTRIES:
            self._cache.clear()
        self._cache[key] = (version, made)
        return made
