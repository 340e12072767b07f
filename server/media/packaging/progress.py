"""ffmpeg's `-progress` report, read as the transcoder's health (issue 28 §5: encoder speed, frames
per second, dropped and duplicated frames, bitrate).

ffmpeg writes `key=value` lines and ends each block with `progress=continue` (or `progress=end`
when it stops); a block is one snapshot. Values it cannot tell yet are `N/A`.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Progress:
    """One snapshot: how far the output is (seconds), how fast (× real time) and what it lost."""

    frame: int
    fps: float | None
    speed: float | None  # 1.0 is real time; below it a live input falls behind
    bitrate_kbps: float | None
    out_seconds: float
    dropped_frames: int
    duplicated_frames: int
    ended: bool

    @property
    def behind_real_time(self) -> bool:
        """Slower than the feed arrives (a few percent of jitter is not yet behind)."""
        return self.speed is not None and self.speed < 0.95


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    text = text.strip().removesuffix("x").removesuffix("kbits/s").strip()
    try:
        return float(text)
    except ValueError:
        return None  # N/A


def snapshot(fields: dict[str, str]) -> Progress:
    """A block's fields as a snapshot (missing or N/A values count as unknown or zero)."""
    out_us = _number(fields.get("out_time_us")) or _number(fields.get("out_time_ms")) or 0.0
    return Progress(
        frame=int(_number(fields.get("frame")) or 0),
        fps=_number(fields.get("fps")),
        speed=_number(fields.get("speed")),
        bitrate_kbps=_number(fields.get("bitrate")),
        # out_time_ms is microseconds too (an old ffmpeg misnomer kept for compatibility).
        out_seconds=max(0.0, out_us / 1_000_000),
        dropped_frames=int(_number(fields.get("drop_frames")) or 0),
        duplicated_frames=int(_number(fields.get("dup_frames")) or 0),
        ended=fields.get("progress") == "end",
    )


def snapshots(lines: Iterable[str]) -> Iterator[Progress]:
    """Snapshots from ffmpeg's progress lines, one per complete block."""
    fields: dict[str, str] = {}
    for line in lines:
        key, sep, value = line.strip().partition("=")
        if not sep:
            continue
        fields[key] = value.strip()
        if key == "progress":
            yield snapshot(fields)
            fields = {}
