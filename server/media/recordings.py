"""A live input's recording as playlists (issue 28 §3 and §4): what the transcoder writes, the
rewind window viewers get while it is live, and the archive it becomes when it is finished.

The transcoder (server.media.packaging.live_hls) writes one event playlist per rendition and
run (each start of ffmpeg: the first, a restart after a crash, a reconnected encoder), every
segment with its `EXT-X-PROGRAM-DATE-TIME`. The runs joined in order, with an
`EXT-X-DISCONTINUITY` where one continues another, are the rendition's recording, which the
ingest keeps written as `<rendition>/index.m3u8` (`write_joined`). From it:

- the live playlist slides over the last `dvr_seconds` of it. Its `EXT-X-MEDIA-SEQUENCE` is the
  first listed segment's place in the recording and its `EXT-X-DISCONTINUITY-SEQUENCE` counts the
  discontinuities before that segment (its own included: a tag before the first listed segment is
  not written), so every segment keeps the same numbers in every window (RFC 8216 6.2.2) and
  players continue across restarts without a reload;
- the archive lists them all, as VOD (`EXT-X-PLAYLIST-TYPE:VOD`, `EXT-X-ENDLIST`);
- positions: a moment of the live (a wall-clock time, as tags and clips made during it are) has a
  place in the archive, its offset in the recording (`Recording.offset_ms`): the archive leaves
  out the time the encoder was away, so minute 37 of what was shown is minute 37 of the archive.

All renditions are cut at the same instants (keyframes on the segment clock), so the window of one
is the window of all. Pure: text in, text out.
"""

from __future__ import annotations

import math
import os
import re
import secrets
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from itertools import accumulate
from pathlib import Path

import orjson

from .playlists import MASTER_PLAYLIST, program_date_time


@dataclass(frozen=True)
class RecordedSegment:
    uri: str
    duration: float
    started_at: float | None  # epoch seconds (its program date-time), when the playlist gives one
    discontinuous: bool  # the recording was continued here (a restart or a reconnect)


def _instant(text: str) -> float | None:
    """EXT-X-PROGRAM-DATE-TIME's ISO 8601 (ffmpeg writes `+0000`, others `Z`) as epoch seconds."""
    text = text.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    elif len(text) > 5 and text[-5] in "+-" and text[-4:].isdigit():
        text = f"{text[:-2]}:{text[-2:]}"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True)
class Recording:
    segments: tuple[RecordedSegment, ...]
    ended: bool  # EXT-X-ENDLIST: the transcoder closed it

    @classmethod
    def parse(cls, text: str) -> Recording:
        """A media playlist as the transcoder writes it. Raises ValueError for anything else."""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if not lines or lines[0] != "#EXTM3U":
            raise ValueError("not an HLS playlist: missing #EXTM3U")
        segments: list[RecordedSegment] = []
        duration: float | None = None
        started: float | None = None
        discontinuous = ended = False
        for line in lines[1:]:
            if line.startswith("#EXT-X-STREAM-INF"):
                raise ValueError("a master playlist, not a media playlist")
            if line.startswith("#EXTINF:"):
                duration = float(line.split(":", 1)[1].split(",", 1)[0])
            elif line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
                started = _instant(line.split(":", 1)[1])
            elif line == "#EXT-X-DISCONTINUITY":
                discontinuous = True
            elif line == "#EXT-X-ENDLIST":
                ended = True
            elif not line.startswith("#"):
                if duration is None or duration <= 0:
                    raise ValueError(f"segment {line!r} has no duration")
                # A discontinuity before the very first segment continues nothing.
                segments.append(RecordedSegment(line, duration, started, discontinuous and bool(segments)))
                duration, started, discontinuous = None, None, False
        return cls(tuple(segments), ended)

    @property
    def duration(self) -> float:
        return sum(s.duration for s in self.segments)

    @property
    def target_duration(self) -> int:
        return max((math.ceil(s.duration - 1e-6) for s in self.segments), default=1)

    @property
    def started_at(self) -> float | None:
        """When its first segment began (wall clock), if the playlist says."""
        return self.segments[0].started_at if self.segments else None

    def written_by(self, first_written: float | None) -> Recording:
        """The run with its program date-times moved back as far as it takes for its first
        segment to have ended no later than `first_written`, when its file was complete. ffmpeg
        dates a run from the moment its muxer starts, after the encoder's first frames went
        through the feed and its own pipeline: up to 1.7 s late (measured), and a viewer's
        latency read from them (`Date.now()` minus the frame's date) that much too short. Dates
        that are not late are kept (one moved back would only lose the pipeline's delay)."""
        first = self.segments[0] if self.segments else None
        if first is None or first.started_at is None or first_written is None:
            return self
        late = first.started_at + first.duration - first_written
        if late <= 0:
            return self
        return replace(
            self,
            segments=tuple(
                replace(s, started_at=None if s.started_at is None else s.started_at - late) for s in self.segments
            ),
        )

    @classmethod
    def joined(cls, runs: list[Recording]) -> Recording:
        """Runs one after the other: each run's first segment continues the one before it."""
        segments: list[RecordedSegment] = []
        for run in runs:
            for i, segment in enumerate(run.segments):
                joins = i == 0 and bool(segments)
                segments.append(replace(segment, discontinuous=segment.discontinuous or joins))
        return cls(tuple(segments), bool(runs) and runs[-1].ended)

    def event_playlist(self) -> str:
        """Every segment so far, the recording still growing."""
        return "".join([*self._header(0), *self._lines(0)])

    def window_start(self, dvr_seconds: float) -> int:
        """The first segment the live playlist lists: the oldest that began at most `dvr_seconds`
        before the live edge (at least the last segment)."""
        total, kept = 0.0, len(self.segments)
        for i in range(len(self.segments) - 1, -1, -1):
            total += self.segments[i].duration
            if total > dvr_seconds + 1e-6 and kept < len(self.segments):
                break
            kept = i
        return kept

    def _lines(self, first: int) -> list[str]:
        out: list[str] = []
        for i in range(first, len(self.segments)):
            segment = self.segments[i]
            if segment.discontinuous and i != first:
                out.append("#EXT-X-DISCONTINUITY\n")
            if segment.started_at is not None:
                out.append(f"#EXT-X-PROGRAM-DATE-TIME:{program_date_time(segment.started_at)}\n")
            out.append(f"#EXTINF:{segment.duration:.6f},\n{segment.uri}\n")
        return out

    def _header(self, first: int) -> list[str]:
        discontinuities = sum(1 for s in self.segments[1 : first + 1] if s.discontinuous)
        return [
            "#EXTM3U\n",
            "#EXT-X-VERSION:3\n",
            f"#EXT-X-TARGETDURATION:{self.target_duration}\n",
            f"#EXT-X-MEDIA-SEQUENCE:{first}\n",
            f"#EXT-X-DISCONTINUITY-SEQUENCE:{discontinuities}\n",
            "#EXT-X-INDEPENDENT-SEGMENTS\n",
        ]

    def live_playlist(self, dvr_seconds: float) -> str:
        """The viewers' live playlist: the last `dvr_seconds`, no end (players keep reloading).
        Raises ValueError when nothing is recorded yet."""
        if not self.segments:
            raise ValueError("nothing is recorded yet")
        first = self.window_start(dvr_seconds)
        return "".join(self._header(first) + self._lines(first))

    def vod_playlist(self) -> str:
        """The archive: every segment, as VOD."""
        if not self.segments:
            raise ValueError("nothing was recorded")
        header = self._header(0)
        header.insert(2, "#EXT-X-PLAYLIST-TYPE:VOD\n")
        return "".join([*header, *self._lines(0), "#EXT-X-ENDLIST\n"])

    def _offsets(self) -> list[int]:
        """Where each segment begins in the recording, ms (integers: no drift over hours)."""
        return [0, *accumulate(round(s.duration * 1000) for s in self.segments)]

    def covering(self, start_ms: int, end_ms: int) -> range:
        """The segments that cover [start_ms, end_ms) of the recording (empty when none does)."""
        offsets = self._offsets()
        first = max(0, bisect_right(offsets, start_ms) - 1)
        last = min(len(self.segments), bisect_right(offsets, max(start_ms, end_ms - 1)))
        return range(first, last) if start_ms < offsets[-1] else range(0)

    def range_playlist(self, start_ms: int, end_ms: int, *, more: Sequence[tuple[int, int]] = ()) -> str:
        """A clip of the recording: the segments covering [start_ms, end_ms) as VOD, the player
        started at `start_ms` (EXT-X-START), the encoder's drops kept as discontinuities. `more`:
        the later ranges of a catch-up, each after a discontinuity (segments two ranges share are
        listed once). Raises ValueError when no segment covers the first range."""
        numbers = self.covering(start_ms, end_ms)
        if not numbers:
            raise ValueError("no part of the recording is in that range")
        lines = [f"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:{self.target_duration}\n"]
        lines.append("#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n")
        lines.append(self.start_tag(start_ms, numbers) + "\n")
        last: int | None = None
        for start, end in ((start_ms, end_ms), *more):
            for i in self.covering(start, end):
                if last is not None and i <= last:
                    continue
                segment = self.segments[i]
                if last is not None and (segment.discontinuous or i != last + 1):
                    lines.append("#EXT-X-DISCONTINUITY\n")
                lines.append(f"#EXTINF:{segment.duration:.6f},\n{segment.uri}\n")
                last = i
        lines.append("#EXT-X-ENDLIST\n")
        return "".join(lines)

    def start_tag(self, start_ms: int, numbers: range) -> str:
        offset = (start_ms - self._offsets()[numbers[0]]) / 1000
        return f"#EXT-X-START:TIME-OFFSET={offset:.3f},PRECISE=YES"

    def offset_ms(self, moment: float) -> int:
        """Where the wall-clock `moment` (epoch seconds) lies in the recording, in ms from its
        start: within the segment that was recording then, else (the encoder was away) at the
        start of the next one; before the first segment 0, after the last the end."""
        starts = [s.started_at for s in self.segments if s.started_at is not None]
        if not self.segments or len(starts) != len(self.segments):
            raise ValueError("the recording's segments have no program date-time")
        ends = list(accumulate(round(s.duration * 1000) for s in self.segments))
        offsets = [0, *ends[:-1]]
        i = bisect_right(starts, moment) - 1
        if i < 0:
            return 0
        into = round((moment - starts[i]) * 1000)
        length = ends[i] - offsets[i]
        return offsets[i] + into if into < length else ends[i]


# --- a recording asset's directory ---------------------------------------------------------------

RECORDING_FILE = "recording.json"  # marks an asset's directory as a live input's recording


@dataclass(frozen=True)
class RecordingInfo:
    """What the ingest says of a recording it writes (`recording.json` in the asset's directory):
    the rewind window viewers get, the segment length, and its renditions (planned once, so a
    reconnected encoder continues the same ladder)."""

    dvr_seconds: int
    segment_seconds: float
    renditions: tuple[dict, ...]  # server.media.packaging.ladder.Rendition fields
    has_audio: bool = True

    @property
    def rendition_names(self) -> tuple[str, ...]:
        return tuple(str(r["name"]) for r in self.renditions)

    def dumps(self) -> bytes:
        return orjson.dumps(
            {
                "dvrSeconds": self.dvr_seconds,
                "segmentSeconds": self.segment_seconds,
                "renditions": list(self.renditions),
                "hasAudio": self.has_audio,
            }
        )

    @classmethod
    def loads(cls, data: bytes) -> RecordingInfo:
        body = orjson.loads(data)
        return cls(
            int(body["dvrSeconds"]),
            float(body["segmentSeconds"]),
            tuple(body["renditions"]),
            bool(body.get("hasAudio", True)),
        )


def set_rewind(directory: Path, dvr_seconds: int) -> bool:
    """A running recording's rewind window, changed: viewers' next live playlist is cut to it (the
    media route reads `recording.json` again when it changes). False when `directory` is no
    recording (yet)."""
    info_file = directory / RECORDING_FILE
    try:
        info = RecordingInfo.loads(info_file.read_bytes())
    except (OSError, ValueError, KeyError):
        return False
    write_atomically(info_file, replace(info, dvr_seconds=dvr_seconds).dumps())
    return True


def write_atomically(path: Path, data: bytes) -> None:
    """Readers see the old file or the new one, never half of either."""
    staging = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    staging.write_bytes(data)
    os.replace(staging, path)


# The transcoder's runs in a rendition's directory (server.media.packaging.live_hls.RUN_PLAYLIST).
RUN_PLAYLIST = re.compile(r"^run-(\d{1,6})\.m3u8$")


def _runs(rendition: Path) -> list[Path]:
    try:
        found = [(int(m[1]), path) for path in rendition.iterdir() if (m := RUN_PLAYLIST.match(path.name))]
    except OSError:
        return []
    return [path for _number, path in sorted(found)]


def _run(path: Path) -> Recording | None:
    """A run's recording, dated by when it was written (`Recording.written_by`); None when its
    playlist is empty or unreadable (an ffmpeg stopped as it started), which adds nothing."""
    try:
        run = Recording.parse(path.read_text())
    except (OSError, ValueError):
        return None
    return run.written_by(_first_segment_written(path))


def _first_segment_written(path: Path) -> float | None:
    """When the run's first segment was complete: its file's last write, in the recording's first
    rendition (the same moment for every rendition, so their dates stay the same)."""
    rendition = path.parent
    try:
        first = RecordingInfo.loads((rendition.parent / RECORDING_FILE).read_bytes()).rendition_names[0]
        reference = Recording.parse((rendition.parent / first / path.name).read_text())
        return (rendition.parent / first / reference.segments[0].uri).stat().st_mtime
    except (OSError, ValueError, KeyError, IndexError):
        return None


def recorded(rendition: Path) -> Recording:
    """A rendition's recording: its runs joined in order."""
    return Recording.joined([run for path in _runs(rendition) if (run := _run(path)) is not None])


class Joiner:
    """Keeps each rendition's `index.m3u8` the join of its runs, as the transcoder writes them:
    only a run whose playlist changed is read again (the last one, while it records)."""

    def __init__(self, directory: Path, renditions: tuple[str, ...]):
        self.directory = directory
        self.renditions = renditions
        self._runs: dict[Path, tuple[tuple[int, int], Recording | None]] = {}
        self._written: dict[str, bytes] = {}

    def _read(self, path: Path) -> Recording | None:
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_mtime_ns, stat.st_size)
        known = self._runs.get(path)
        if known is None or known[0] != version:
            known = (version, _run(path))
            self._runs[path] = known
        return known[1]

    def write(self) -> bool:
        """Write what changed; False while a rendition has no segment yet."""
        ready = True
        for name in self.renditions:
            runs = [run for path in _runs(self.directory / name) if (run := self._read(path)) is not None]
            recording = Recording.joined(runs)
            if not recording.segments:
                ready = False
                continue
            text = recording.event_playlist().encode()
            if self._written.get(name) != text:
                target = self.directory / name / MASTER_PLAYLIST
                if _closed(target):
                    continue  # finalize() made it the archive meanwhile: the join never reopens it
                write_atomically(target, text)
                self._written[name] = text
        return ready


def _closed(playlist: Path) -> bool:
    """Whether a rendition's playlist is already the archive's (it ends with EXT-X-ENDLIST)."""
    try:
        with playlist.open("rb") as file:
            file.seek(max(0, playlist.stat().st_size - 32))
            return file.read().rstrip().endswith(b"#EXT-X-ENDLIST")
    except OSError:
        return False


def finalize(directory: Path) -> Recording:
    """Close a recording as its event's archive: each rendition's playlist becomes VOD and the
    master is written again (readers that cached it by its time look again). Idempotent: a
    transcoder stopped later writes its run's end, and the recording is closed again. Returns the
    shortest rendition's recording (the archive's length and positions); raises ValueError when
    nothing was recorded, OSError when it cannot be read."""
    info = RecordingInfo.loads((directory / RECORDING_FILE).read_bytes())
    recordings = []
    for name in info.rendition_names:
        recording = recorded(directory / name)
        write_atomically(directory / name / MASTER_PLAYLIST, recording.vod_playlist().encode())
        recordings.append(recording)
    master = directory / MASTER_PLAYLIST
    write_atomically(master, master.read_bytes())
    return min(recordings, key=lambda r: r.duration)
