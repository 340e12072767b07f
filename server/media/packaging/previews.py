"""An asset's poster and seek-preview thumbnails (issue 29 §2), made from its packaged renditions,
so an upload and a finished live recording get them alike.

    <asset>/poster.jpg          a representative frame of the largest rendition, never a black one
    <asset>/thumbs-001.jpg ...  sprite sheets of TILE_COLUMNS x TILE_ROWS thumbnails
    <asset>/thumbnails.vtt      WebVTT cues naming a sheet and a thumbnail's place (`#xywh=`)

The thumbnails come from the smallest rendition (cheap to decode), one every `thumbnail_interval`
seconds: 2 s for a short highlight, up to 10 s for a whole match, so a sheet set stays a few
hundred small pictures. Players (media-chrome's `<track kind="metadata" label="thumbnails">`)
show the cue covering the time under the pointer.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from dataclasses import dataclass
from pathlib import Path

from .supervisor import dies_with_parent

POSTER = "poster.jpg"
THUMBNAILS_VTT = "thumbnails.vtt"
SHEET_TEMPLATE = "thumbs-%03d.jpg"
TILE_COLUMNS = TILE_ROWS = 10
THUMB_WIDTH = 160
MIN_INTERVAL, MAX_INTERVAL = 2, 10
TARGET_THUMBNAILS = 300
# Where in the video a poster is looked for (shares of its length), in order: past a cold open.
POSTER_POSITIONS = (0.1, 0.3, 0.5, 0.7, 0.02)
# Mean luma (0-255) below this is a black frame, not a poster.
BLACK_LUMA = 24.0
TIMEOUT_SECONDS = 600.0


class PreviewFailed(Exception):
    pass


def thumbnail_interval(duration_seconds: float) -> int:
    """Seconds between thumbnails: about TARGET_THUMBNAILS over the video, within 2-10 s."""
    return min(MAX_INTERVAL, max(MIN_INTERVAL, math.ceil(duration_seconds / TARGET_THUMBNAILS)))


def thumb_height(width: int, height: int) -> int:
    return max(2, round(THUMB_WIDTH * height / width / 2) * 2)


@dataclass(frozen=True)
class Cue:
    start: float
    end: float
    sheet: str
    x: int
    y: int
    w: int
    h: int


def cues(duration_seconds: float, interval: int, thumb_h: int) -> list[Cue]:
    """One cue per thumbnail: the k-th covers [k*interval, (k+1)*interval), the last ends with the video."""
    per_sheet = TILE_COLUMNS * TILE_ROWS
    count = max(1, math.ceil(duration_seconds / interval))
    out = []
    for k in range(count):
        place = k % per_sheet
        out.append(
            Cue(
                start=k * interval,
                end=min(duration_seconds, (k + 1) * interval),
                sheet=SHEET_TEMPLATE % (k // per_sheet + 1),
                x=(place % TILE_COLUMNS) * THUMB_WIDTH,
                y=(place // TILE_COLUMNS) * thumb_h,
                w=THUMB_WIDTH,
                h=thumb_h,
            )
        )
    return out


def _timestamp(seconds: float) -> str:
    millis = round(seconds * 1000)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def webvtt(cue_list: list[Cue]) -> str:
    lines = ["WEBVTT", ""]
    for cue in cue_list:
        lines += [
            f"{_timestamp(cue.start)} --> {_timestamp(cue.end)}",
            f"{cue.sheet}#xywh={cue.x},{cue.y},{cue.w},{cue.h}",
            "",
        ]
    return "\n".join(lines)


def sprite_command(playlist: Path, out_dir: Path, interval: int, thumb_h: int, *, ffmpeg: str = "ffmpeg") -> list[str]:
    graph = f"fps=1/{interval}:round=down,scale={THUMB_WIDTH}:{thumb_h},tile={TILE_COLUMNS}x{TILE_ROWS}"
    return [
        ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", str(playlist),
        "-map", "0:v:0", "-vf", graph, "-q:v", "5", "-fps_mode", "passthrough", str(out_dir / SHEET_TEMPLATE),
    ]  # fmt: skip


def poster_command(playlist: Path, at_seconds: float, out: Path, *, ffmpeg: str = "ffmpeg") -> list[str]:
    # `thumbnail` picks the frame most like the others among the next 50: not a cut's blur.
    return [
        ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-ss", f"{at_seconds:.3f}",
        "-i", str(playlist), "-map", "0:v:0", "-vf", "thumbnail=50", "-frames:v", "1", "-q:v", "3", str(out),
    ]  # fmt: skip


def luma_command(picture: Path, *, ffprobe: str = "ffprobe") -> list[str]:
    return [
        ffprobe, "-v", "error", "-f", "lavfi", "-i", f"movie={picture},signalstats",
        "-show_entries", "frame_tags=lavfi.signalstats.YAVG", "-of", "default=nw=1:nk=1",
    ]  # fmt: skip


async def run_quietly(command: list[str]) -> bytes:
    """Run an ffmpeg or ffprobe command; its stdout, or PreviewFailed with its last error line."""
    process = await asyncio.create_subprocess_exec(
        *dies_with_parent(command),  # never left writing after its server was killed
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), TIMEOUT_SECONDS)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        raise
    if process.returncode != 0:
        reason = err.decode(errors="replace").strip().splitlines()
        raise PreviewFailed(reason[-1][:200] if reason else f"{Path(command[0]).name} exited {process.returncode}")
    return out


async def mean_luma(picture: Path, *, ffprobe: str = "ffprobe") -> float:
    out = await run_quietly(luma_command(picture, ffprobe=ffprobe))
    values = [float(v) for v in out.decode().split() if v.strip()]
    if not values:
        raise PreviewFailed("no luma measured")
    return values[0]


async def make_poster(
    largest: Path, duration_seconds: float, out_dir: Path, *, ffmpeg: str = "ffmpeg", ffprobe: str = "ffprobe"
) -> Path:
    """poster.jpg from the rendition playlist `largest`: the first position whose frame is not black
    (the last one tried when every one is)."""
    poster = out_dir / POSTER
    for share in POSTER_POSITIONS:
        await run_quietly(poster_command(largest, duration_seconds * share, poster, ffmpeg=ffmpeg))
        if poster.exists() and await mean_luma(poster, ffprobe=ffprobe) >= BLACK_LUMA:
            break
    if not poster.exists():
        raise PreviewFailed("ffmpeg wrote no poster")
    return poster


async def make_thumbnails(
    smallest: Path, duration_seconds: float, width: int, height: int, out_dir: Path, *, ffmpeg: str = "ffmpeg"
) -> Path:
    """The sprite sheets and thumbnails.vtt from the rendition playlist `smallest` (width x height)."""
    interval = thumbnail_interval(duration_seconds)
    thumb_h = thumb_height(width, height)
    await run_quietly(sprite_command(smallest, out_dir, interval, thumb_h, ffmpeg=ffmpeg))
    return await asyncio.to_thread(_write_cues, out_dir, cues(duration_seconds, interval, thumb_h))


def _write_cues(out_dir: Path, planned: list[Cue]) -> Path:
    """thumbnails.vtt with the cues whose sheet ffmpeg wrote."""
    made = {path.name for path in out_dir.glob("thumbs-*.jpg")}
    cue_list = [cue for cue in planned if cue.sheet in made]
    if not cue_list:
        raise PreviewFailed("ffmpeg wrote no thumbnails")
    vtt = out_dir / THUMBNAILS_VTT
    vtt.write_text(webvtt(cue_list))
    return vtt
