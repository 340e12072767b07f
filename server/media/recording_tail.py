"""The newest end of a live input's recording, for staff (issue 28 §5): when its last segment
ends, and the bitrate its last segments were written at.

Read from a rendition's joined playlist (`<rendition>/index.m3u8`, server.media.recordings) and
its segment files, so any process that shares the media directory can tell, not only the one
that runs the transcoder. Only the playlist's last TAIL_BYTES are read: a long match lists
thousands of segments, and staff ask every few seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .playlists import MASTER_PLAYLIST
from .recordings import RecordedSegment, Recording

TAIL_BYTES = 16 * 1024  # about a hundred segments: more than the bitrate is measured over
MEASURED_SEGMENTS = 5  # the bitrate of the last ~10 s (2 s segments): recent, yet not one keyframe's spike


@dataclass(frozen=True)
class Tail:
    ends_at: float | None  # epoch seconds the last segment ends (its program date-time + duration)
    bitrate_kbps: float | None  # the last segments' bytes over their duration

    def age(self, now: float) -> float | None:
        """Seconds since the last segment ended (how far the recording lags behind `now`)."""
        return None if self.ends_at is None else max(0.0, now - self.ends_at)


NOTHING = Tail(None, None)


def tail_of(rendition: Path) -> Tail:
    """The tail of the recording of the rendition directory `rendition`; NOTHING before its first
    segment or when it cannot be read."""
    try:
        segments = _last_segments(rendition / MASTER_PLAYLIST)
    except (OSError, ValueError):
        return NOTHING
    if not segments:
        return NOTHING
    last = segments[-1]
    ends_at = last.started_at + last.duration if last.started_at is not None else None
    return Tail(ends_at, _bitrate_kbps(rendition, segments[-MEASURED_SEGMENTS:]))


def _last_segments(playlist: Path) -> tuple[RecordedSegment, ...]:
    with playlist.open("rb") as file:
        size = file.seek(0, 2)
        file.seek(max(0, size - TAIL_BYTES))
        lines = file.read().decode(errors="replace").splitlines()
    if size > TAIL_BYTES:
        # The read began inside an entry (its first line may be cut): whole entries begin after
        # the first segment's URI.
        uri = next((i for i, line in enumerate(lines[1:], 1) if line.strip() and not line.startswith("#")), len(lines))
        lines = ["#EXTM3U", *lines[uri + 1 :]]
    return Recording.parse("\n".join(lines)).segments


def _bitrate_kbps(rendition: Path, segments: tuple[RecordedSegment, ...]) -> float | None:
    size = duration = 0.0
    for segment in segments:
        if "/" in segment.uri or segment.uri.startswith("."):
            continue  # the transcoder writes its segments beside the playlist; nothing else is read
        try:
            size += (rendition / segment.uri).stat().st_size
        except OSError:
            continue  # gone already, or not yet
        duration += segment.duration
    return round(size * 8 / duration / 1000, 1) if duration > 0 else None
