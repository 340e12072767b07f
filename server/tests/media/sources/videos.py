"""Small files made with the real ffmpeg for the media library's tests: videos, and the bad files
an upload must refuse (issue 29: a text file named .mp4, an empty file, a truncated mp4, audio only)."""

import subprocess
from pathlib import Path

from server.tests.media.tools import tool


def make_video(
    path: Path,
    *,
    seconds: float = 4,
    size: str = "640x360",
    rate: int = 25,
    audio: bool = True,
    black_seconds: float = 0,
    faststart: bool = False,
) -> Path:
    """An H.264 test picture (black for its first `black_seconds`), with a tone unless `audio` is off."""
    picture = f"testsrc2=size={size}:rate={rate}"
    if black_seconds:
        picture += f",drawbox=c=black:t=fill:enable='lt(t,{black_seconds:g})'"
    command = [tool("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", picture]
    if audio:
        command += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]
    command += ["-t", f"{seconds:g}", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    if audio:
        command += ["-c:a", "aac"]
    if faststart:
        command += ["-movflags", "+faststart"]
    subprocess.run([*command, str(path)], check=True, timeout=120)
    return path


def make_audio_only(path: Path, seconds: float = 3) -> Path:
    subprocess.run(
        [tool("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
         "sine=frequency=440:sample_rate=48000", "-t", f"{seconds:g}", "-c:a", "aac", str(path)],
        check=True, timeout=60,
    )  # fmt: skip
    return path


def truncate(source: Path, path: Path, share: float = 0.5) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: int(len(data) * share)])
    return path
