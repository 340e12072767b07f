"""The ffmpeg command that publishes a test pattern as a venue encoder would, built as data so its
tests read the argv (`touchline ingest test-pattern`).

ffmpeg's testsrc2 picture and a tone, with the UTC wall clock burned in (so the delay from here to
a player can be read off the screen), paced in real time (`-re`). H.264 with a keyframe every 2 s,
as the ingest's ladder cuts segments on them, and AAC: FLV to an RTMP URL, MPEG-TS to an SRT one.
"""

import re
from dataclasses import dataclass

from .ingest_urls import srt_caller

KEYFRAME_SECONDS = 2
SECONDS = (1, 86_400)
FPS = (1, 120)
SIDE = (64, 4096)  # pixels, either side
TONE_HZ = 1000
AUDIO_RATE = 48_000
AUDIO_KBPS = 128
BITS_PER_PIXEL = 0.1  # a broadcaster's H.264 budget for fast motion: 2.8 Mbit/s at 720p30
CLOCK = "%{gmtime:%F %T.%3N} UTC"  # drawtext's own expansion: the time each frame is drawn


@dataclass(frozen=True)
class Resolution:
    width: int
    height: int

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


def resolution(text: str) -> Resolution:
    """`1280x720` as a Resolution; ValueError saying what is wrong. H.264 in 4:2:0 needs even sides."""
    shape = re.fullmatch(r"\s*(\d{1,5})\s*[xX]\s*(\d{1,5})\s*", text)
    if shape is None:
        raise ValueError(f"{text!r} is not WIDTHxHEIGHT (for example 1280x720)")
    width, height = int(shape.group(1)), int(shape.group(2))
    low, high = SIDE
    if not (low <= width <= high and low <= height <= high):
        raise ValueError(f"{width}x{height}: each side must be {low} to {high} pixels")
    if width % 2 or height % 2:
        raise ValueError(f"{width}x{height}: H.264 in 4:2:0 needs even numbers of pixels")
    return Resolution(width, height)


@dataclass(frozen=True)
class Pattern:
    """What to publish where: `url` is an RTMP or SRT publish URL of `protocol`."""

    url: str
    protocol: str  # "rtmp" or "srt"
    resolution: Resolution
    fps: int
    seconds: int
    font_file: str

    @property
    def keyframe_interval(self) -> int:
        """Frames between keyframes."""
        return KEYFRAME_SECONDS * self.fps

    @property
    def video_kbps(self) -> int:
        return round(self.resolution.width * self.resolution.height * self.fps * BITS_PER_PIXEL / 1000)


def ffmpeg_command(pattern: Pattern, ffmpeg: str = "ffmpeg") -> list[str]:
    """The argv: errors only on stderr, `-progress` blocks on stdout (for a progress bar)."""
    size, fps, seconds = pattern.resolution, pattern.fps, pattern.seconds
    gop, kbps = str(pattern.keyframe_interval), pattern.video_kbps
    return [
        *(ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-nostats", "-progress", "pipe:1"),
        *("-re", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate={fps}:duration={seconds}"),
        *("-re", "-f", "lavfi", "-i", f"sine=frequency={TONE_HZ}:sample_rate={AUDIO_RATE}:duration={seconds}"),
        *("-map", "0:v", "-map", "1:a", "-vf", clock_filter(pattern.font_file)),
        *("-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-pix_fmt", "yuv420p"),
        *("-g", gop, "-keyint_min", gop, "-sc_threshold", "0"),
        *("-b:v", f"{kbps}k", "-maxrate", f"{kbps}k", "-bufsize", f"{2 * kbps}k"),
        *("-c:a", "aac", "-b:a", f"{AUDIO_KBPS}k", "-ar", str(AUDIO_RATE), "-ac", "2"),
        *_output(pattern),
    ]


def _output(pattern: Pattern) -> list[str]:
    if pattern.protocol == "srt":
        return ["-f", "mpegts", srt_caller(pattern.url)]
    # A live stream has no final duration or size to write back into the FLV header.
    return ["-f", "flv", "-flvflags", "no_duration_filesize", pattern.url]


def clock_filter(font_file: str) -> str:
    """drawtext with the clock in a box along the bottom, for `-vf`."""
    options = {
        "fontfile": font_file,
        "text": CLOCK,
        "fontsize": "h/12",
        "fontcolor": "white",
        "box": "1",
        "boxcolor": "black@0.6",
        "boxborderw": "8",
        "x": "(w-text_w)/2",
        "y": "h-text_h-h/10",
    }
    arguments = ":".join(f"{name}={_option_value(value)}" for name, value in options.items())
    return f"drawtext={_filtergraph_escaped(arguments)}"


# ffmpeg reads a filter's arguments twice, as its docs on filtergraph escaping say: an option's
# value is unescaped first, then the whole filtergraph. The clock's `:` must reach drawtext.
def _option_value(value: str) -> str:
    return re.sub(r"([\\':])", r"\\\1", value)


def _filtergraph_escaped(arguments: str) -> str:
    return re.sub(r"([\\'\[\],;])", r"\\\1", arguments)
