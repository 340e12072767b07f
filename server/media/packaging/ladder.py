"""The adaptive ladder a source is packaged into (issue 28 §3), planned from what ffprobe says of it.

Renditions go from the source's height down and are never upscaled: a 720p or larger source gets
720p, 360p and 234p (the shipped samples' heights, so live, uploads and samples switch alike); a
480p source 360p and 234p; a source smaller than the smallest rung one rendition at its own size.
Every rendition keeps the source's shape (widths even, as H.264's 4:2:0 needs) and frame rate
(capped at 60), so their keyframes fall on the same segment boundaries.
"""

from dataclasses import dataclass
from fractions import Fraction

MAX_FPS = 60.0


@dataclass(frozen=True)
class Rung:
    """A height the ladder may offer, with its H.264 bitrate (kbit/s, at 30 fps) and level."""

    height: int
    video_kbps: int
    level: str


# Heights of the shipped samples (scripts/sample_video.py); bitrates for sport's motion.
STANDARD_RUNGS = (Rung(720, 2800, "3.1"), Rung(360, 800, "3.0"), Rung(234, 300, "2.1"))
AUDIO_KBPS = 128


class NotAVideo(ValueError):
    """ffprobe found no video stream to package."""


@dataclass(frozen=True)
class Source:
    """What the packager needs to know of an input: its picture and whether it has sound."""

    width: int
    height: int
    fps: float
    has_audio: bool
    video_codec: str | None = None
    audio_codec: str | None = None

    @classmethod
    def from_ffprobe(cls, probe: dict) -> "Source":
        """From `ffprobe -print_format json -show_streams`: its first video and audio streams."""
        streams = probe.get("streams") or []
        video = next((s for s in streams if s.get("codec_type") == "video" and s.get("width")), None)
        if video is None:
            raise NotAVideo("the input has no video stream")
        audio = next((s for s in streams if s.get("codec_type") == "audio"), None)
        width, height = int(video["width"]), int(video["height"])
        if width <= 0 or height <= 0:
            raise NotAVideo(f"the video stream has no picture size ({width}x{height})")
        return cls(
            width=width,
            height=height,
            fps=_frame_rate(video.get("avg_frame_rate")) or _frame_rate(video.get("r_frame_rate")) or 30.0,
            has_audio=audio is not None,
            video_codec=video.get("codec_name"),
            audio_codec=audio.get("codec_name") if audio else None,
        )


def _frame_rate(text: str | None) -> float | None:
    """ffprobe's "30000/1001" as 29.97; None for "0/0" or nothing."""
    if not text:
        return None
    try:
        rate = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
    return float(rate) if rate > 0 else None


@dataclass(frozen=True)
class Rendition:
    """One rung of a planned ladder: its name (a directory of the asset), size and bitrate."""

    name: str
    width: int
    height: int
    fps: float
    video_kbps: int
    level: str

    @property
    def bandwidth(self) -> int:
        """A first BANDWIDTH estimate (bits/s, video and audio); the master states measured ones."""
        return (self.video_kbps + AUDIO_KBPS) * 1000


def _even(value: float) -> int:
    return max(2, round(value / 2) * 2)


def plan(source: Source, rungs: tuple[Rung, ...] = STANDARD_RUNGS) -> tuple[Rendition, ...]:
    """The renditions for `source`, largest first, none taller than the source."""
    fps = round(min(source.fps, MAX_FPS), 3)
    # Bitrates are set for 30 fps; 50 and 60 fps pictures need more of them.
    motion = max(1.0, fps / 30)
    aspect = source.width / source.height
    fitting = [rung for rung in sorted(rungs, key=lambda r: -r.height) if rung.height <= source.height]
    if not fitting:
        smallest = min(rungs, key=lambda r: r.height)
        share = (source.height / smallest.height) ** 2
        height = _even(source.height)
        return (
            Rendition(
                f"{height}p",
                _even(height * aspect),
                height,
                fps,
                max(100, round(smallest.video_kbps * share)),
                smallest.level,
            ),
        )
    return tuple(
        Rendition(
            f"{rung.height}p",
            _even(rung.height * aspect),
            rung.height,
            fps,
            round(rung.video_kbps * motion),
            rung.level,
        )
        for rung in fitting
    )


def keyframe_interval(fps: float, segment_seconds: float) -> int:
    """Frames between keyframes: one segment, so every segment starts with one."""
    return max(1, round(fps * segment_seconds))
