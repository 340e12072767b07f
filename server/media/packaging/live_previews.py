"""Seek-preview thumbnails of a live recording while it records (issue 29 §5: "the DVR window of
a live"), so a viewer scrubbing back through the rewind window sees where they land.

The job's sprite sheets (server.media.packaging.previews) need the whole video; a live recording
grows. So while it records, every few seconds (`LivePreviews.round`, run by the feed) each new
segment of the smallest rendition whose number is a multiple of `every` gets one small picture,
ffmpeg's first frame of that segment:

    <asset>/thumbs-<segment:06d>.jpg     one picture, THUMB_WIDTH wide (a sheet of one)
    <asset>/thumbnails.vtt               a cue per picture, rewritten whole at each round

Cue times are the picture's place in the recording (offsets, as the archive's timeline), and
each cue's identifier is its segment's wall-clock start (`at-<epoch ms>`, the segment's
EXT-X-PROGRAM-DATE-TIME in every live playlist), which a player places on its own timeline (a live
player's clock starts wherever it joined: webapp/src/ui/player/liveThumbnails.ts). Thumbnails lag
the edge by up to a round and a segment.
When the event finishes, the previews job makes the archive's sheets and VTT in their place and
removes these pictures (`remove_live_pictures`).
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from ..playlists import MASTER_PLAYLIST
from ..recordings import Recording
from .previews import THUMB_WIDTH, THUMBNAILS_VTT, PreviewFailed, run_quietly, thumb_height

LIVE_PICTURE = "thumbs-{:06d}.jpg"
LIVE_PICTURE_NAME = re.compile(r"^thumbs-\d{6}\.jpg$")
SEGMENTS_PER_PICTURE = 2  # one picture every 4 s of 2-second segments
ROUND_SECONDS = 6.0


def picture_command(segment: Path, out: Path, height: int, *, ffmpeg: str = "ffmpeg") -> list[str]:
    return [
        ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", str(segment),
        "-map", "0:v:0", "-frames:v", "1", "-vf", f"scale={THUMB_WIDTH}:{height}", "-q:v", "5", str(out),
    ]  # fmt: skip


def _stamp(seconds: float) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{int(hours):02d}:{int(minutes):02d}:{secs:06.3f}"


def live_vtt(recording: Recording, pictures: dict[int, str], height: int) -> str:
    """The cues of `pictures` (segment number -> file name): each from its segment's place in the
    recording to the next picture's (the last: to the recording's end)."""
    offsets = [0.0]
    for segment in recording.segments:
        offsets.append(offsets[-1] + segment.duration)
    numbers = sorted(n for n in pictures if n < len(recording.segments))
    lines = ["WEBVTT", ""]
    for i, number in enumerate(numbers):
        started_at = recording.segments[number].started_at
        if started_at is None:
            continue  # a segment without its program date-time: no player could place it
        end = offsets[numbers[i + 1]] if i + 1 < len(numbers) else offsets[-1]
        lines += [
            f"at-{round(started_at * 1000)}",
            f"{_stamp(offsets[number])} --> {_stamp(end)}",
            f"{pictures[number]}#xywh=0,0,{THUMB_WIDTH},{height}",
            "",
        ]
    return "\n".join(lines)


class LivePreviews:
    def __init__(self, directory: Path, rendition: str, width: int, height: int, *, ffmpeg: str = "ffmpeg"):
        self.directory = directory
        self.rendition = rendition
        self.height = thumb_height(width, height)
        self.ffmpeg = ffmpeg
        # Those made before (this process took over a recording another began): kept, not made again.
        self.pictures: dict[int, str] = {
            int(path.name[7:13]): path.name for path in _listed(directory) if LIVE_PICTURE_NAME.match(path.name)
        }
        self.failed: set[int] = set()  # segments ffmpeg could not read: not asked again

    async def round(self) -> int:
        """Pictures for the segments recorded since the last round, and the VTT; how many made."""
        try:
            recording = Recording.parse((self.directory / self.rendition / MASTER_PLAYLIST).read_text())
        except OSError:
            return 0  # nothing recorded yet
        made = 0
        for number in range(0, len(recording.segments), SEGMENTS_PER_PICTURE):
            if number in self.pictures or number in self.failed:
                continue
            name = LIVE_PICTURE.format(number)
            segment = self.directory / self.rendition / Path(recording.segments[number].uri).name
            staging = self.directory / f".{name}"
            try:
                await run_quietly(picture_command(segment, staging, self.height, ffmpeg=self.ffmpeg))
                os.replace(staging, self.directory / name)
            except (PreviewFailed, OSError):
                self.failed.add(number)
                continue
            self.pictures[number] = name
            made += 1
        if made:
            self._write_vtt(recording)
        return made

    def _write_vtt(self, recording: Recording) -> None:
        staging = self.directory / f".{THUMBNAILS_VTT}"
        staging.write_text(live_vtt(recording, self.pictures, self.height))
        os.replace(staging, self.directory / THUMBNAILS_VTT)


def _listed(directory: Path) -> list[Path]:
    try:
        return list(directory.iterdir())
    except OSError:
        return []


def remove_live_pictures(directory: Path) -> int:
    """The live pictures of a recording whose archive previews are made; how many removed."""
    removed = 0
    for path in _listed(directory):
        if LIVE_PICTURE_NAME.match(path.name):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed += 1
    return removed
