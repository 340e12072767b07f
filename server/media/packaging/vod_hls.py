"""The ffmpeg command that transcodes an uploaded file into an HLS VOD ladder (issue 29 §2).

The same ladder and the same encoder settings as a live input (live_hls): one decode split per
rendition, a keyframe on every segment boundary in every rendition, AAC in each (a silent track
when the file has none). Here the playlists are VOD (`EXT-X-ENDLIST`, every segment listed), and
the audio is loudness-normalised to EBU R128 (-23 LUFS integrated, -2 dBTP) unless that is off:
matches and highlights from many sources then play at one loudness.

    <out>/<rendition>/index.m3u8, <out>/<rendition>/v-00000.ts, ...

The master playlist is written afterwards from the measured files (measure.master_playlist).
"""

from dataclasses import dataclass
from pathlib import Path

from .ladder import Rendition, keyframe_interval
from .live_hls import AUDIO_RATE, DEFAULT_PRESET, ladder_filter_graph, ladder_outputs, video_options
from .measure import PLAYLIST

# Not `seg-<j>.ts` (a sample's timeline) nor `r<n>-<k>.ts` (a live run): server.media.delivery.urls.
SEGMENT_TEMPLATE = "v-%05d.ts"
LOUDNORM = "loudnorm=I=-23:TP=-2:LRA=7"


@dataclass(frozen=True)
class VodInput:
    path: Path
    has_audio: bool


def _audio_graph(count: int, loudnorm: bool) -> str:
    """The file's first audio track, normalised if asked, resampled once and split per rendition."""
    outputs = "".join(f"[a{i}]" for i in range(count))
    steps = [LOUDNORM] if loudnorm else []
    # loudnorm works at 192 kHz: back to the ladder's rate afterwards.
    steps += [f"aresample={AUDIO_RATE}", f"asplit={count}{outputs}"]
    return "[0:a:0]" + ",".join(steps)


def vod_hls_command(
    source: VodInput,
    out_dir: Path,
    renditions: tuple[Rendition, ...],
    *,
    segment_seconds: float = 2.0,
    loudnorm: bool = True,
    preset: str = DEFAULT_PRESET,
    ffmpeg: str = "ffmpeg",
) -> list[str]:
    """ffmpeg's argv: `source` into `out_dir/<rendition>/index.m3u8` and its segments, with
    `-progress` key=value lines on stdout (the queue's percent and ETA)."""
    if not renditions:
        raise ValueError("a ladder needs at least one rendition")
    gop = keyframe_interval(renditions[0].fps, segment_seconds)
    command = [ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", str(source.path)]
    if not source.has_audio:
        command += ["-f", "lavfi", "-i", f"anullsrc=channel_layout=stereo:sample_rate={AUDIO_RATE}"]
    graph = ladder_filter_graph(renditions)
    if source.has_audio:
        graph += ";" + _audio_graph(len(renditions), loudnorm)
    command += ["-filter_complex", graph]
    for i in range(len(renditions)):
        command += ["-map", f"[v{i}]", "-map", f"[a{i}]" if source.has_audio else "1:a:0"]
    for i, rendition in enumerate(renditions):
        command += video_options(i, rendition, gop, segment_seconds, preset)
    command += ladder_outputs(
        renditions,
        has_audio=source.has_audio,
        segment_seconds=segment_seconds,
        playlist_type="vod",
        flags="independent_segments",
        segments=out_dir / "%v" / SEGMENT_TEMPLATE,
        playlist=out_dir / "%v" / PLAYLIST,
    )
    return command
