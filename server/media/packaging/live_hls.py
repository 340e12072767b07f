"""The ffmpeg command that packages one live input into an aligned HLS ladder (issue 28 §3).

Built as data, so its promises are tested as data (tests/media/packaging) and once through the
real ffmpeg: one decode, split and scaled per rendition; H.264 with a keyframe at every segment
boundary in every rendition (`-force_key_frames` on the segment clock, scene cuts never add one);
AAC in every rendition (a silent track when the source has none, so every rendition and every
asset carries the same codecs); and per rendition an event playlist of the whole recording, with
`EXT-X-PROGRAM-DATE-TIME` on its segments. The recording is the archive: the server slides the
viewers' rewind window over it, and finishing the live only closes it.

Every start of the transcoder (the first, a restart after a crash, an encoder that reconnected) is
a run of its own: run n writes `<rendition>/run-<n>.m3u8` and its segments `r<n>-<k>.ts`, never
touching an earlier run's files (an ffmpeg stopped while it starts may leave its playlist empty:
only its own). The server joins the runs into each rendition's recording, with
`EXT-X-DISCONTINUITY` between them, so players continue without a reload
(server.media.recordings). Segments and playlists are written under a temporary name and renamed
when complete (`temp_file`): a reader never sees half of one. The master playlist is the
server's, with measured bandwidths.
"""

from dataclasses import dataclass
from pathlib import Path

from .ladder import AUDIO_KBPS, Rendition, keyframe_interval

# Not `seg-<j>.ts`: those name a sample's timeline (server.media.delivery.urls).
SEGMENT_TEMPLATE = "r{run}-%05d.ts"
RUN_PLAYLIST = "run-{run}.m3u8"
AUDIO_RATE = 48_000
DEFAULT_PRESET = "veryfast"  # Settings.x264_preset's default


@dataclass(frozen=True)
class LiveInput:
    """Where ffmpeg reads the feed (`-i` and the options before it) and whether it has sound."""

    url: str
    has_audio: bool
    options: tuple[str, ...] = ()


def ladder_filter_graph(renditions: tuple[Rendition, ...]) -> str:
    """Decode once, split, scale each branch to its rendition and pin its frame rate."""
    outputs = "".join(f"[split{i}]" for i in range(len(renditions)))
    chains = [f"[0:v]split={len(renditions)}{outputs}"]
    for i, r in enumerate(renditions):
        chains.append(f"[split{i}]scale=w={r.width}:h={r.height}:flags=bicubic,fps={r.fps:g},format=yuv420p[v{i}]")
    return ";".join(chains)


def video_options(i: int, r: Rendition, gop: int, segment_seconds: float, preset: str = DEFAULT_PRESET) -> list[str]:
    # Constant-ish bitrate with a capped peak: the master's BANDWIDTH holds, players adapt smoothly.
    return [
        f"-c:v:{i}",
        "libx264",
        f"-preset:v:{i}",
        preset,
        f"-profile:v:{i}",
        "main",
        f"-level:v:{i}",
        r.level,
        f"-b:v:{i}",
        f"{r.video_kbps}k",
        f"-maxrate:v:{i}",
        f"{round(r.video_kbps * 1.1)}k",
        f"-bufsize:v:{i}",
        f"{r.video_kbps * 2}k",
        f"-g:v:{i}",
        str(gop),
        f"-keyint_min:v:{i}",
        str(gop),
        f"-sc_threshold:v:{i}",
        "0",
        f"-force_key_frames:v:{i}",
        f"expr:gte(t,n_forced*{segment_seconds:g})",
    ]


def ladder_outputs(
    renditions: tuple[Rendition, ...],
    *,
    has_audio: bool,
    segment_seconds: float,
    playlist_type: str,
    flags: str,
    segments: Path,
    playlist: Path,
) -> list[str]:
    """The ladder's audio encoding and its HLS muxer (one playlist per rendition, `%v` its name),
    with `-progress` key=value lines on stdout every second; live and VOD alike."""
    command = ["-c:a", "aac", "-b:a", f"{AUDIO_KBPS}k", "-ac", "2", "-ar", str(AUDIO_RATE)]
    if not has_audio:
        command += ["-shortest"]  # the silent track would never end
    stream_map = " ".join(f"v:{i},a:{i},name:{r.name}" for i, r in enumerate(renditions))
    return [
        *command,
        *("-f", "hls", "-hls_time", f"{segment_seconds:g}", "-hls_list_size", "0"),
        *("-hls_playlist_type", playlist_type, "-hls_flags", flags, "-hls_segment_type", "mpegts"),
        *("-hls_segment_filename", str(segments), "-var_stream_map", stream_map),
        *("-progress", "pipe:1", "-stats_period", "1", str(playlist)),
    ]


def live_hls_command(
    source: LiveInput,
    out_dir: Path,
    renditions: tuple[Rendition, ...],
    *,
    segment_seconds: float = 2.0,
    run: int = 1,
    preset: str = DEFAULT_PRESET,
    ffmpeg: str = "ffmpeg",
) -> list[str]:
    """ffmpeg's argv: `source` into run `run` of each rendition, `out_dir/<rendition>/run-<run>.m3u8`
    and its segments, with
    `-progress` key=value lines on stdout every second (the ingest's health reads them)."""
    if not renditions:
        raise ValueError("a ladder needs at least one rendition")
    fps = renditions[0].fps
    gop = keyframe_interval(fps, segment_seconds)
    command = [ffmpeg, "-hide_banner", "-loglevel", "warning", "-nostdin", "-y"]
    command += [*source.options, "-i", source.url]
    if not source.has_audio:
        command += ["-f", "lavfi", "-i", f"anullsrc=channel_layout=stereo:sample_rate={AUDIO_RATE}"]
    command += ["-filter_complex", ladder_filter_graph(renditions)]
    audio_input = "0:a:0" if source.has_audio else "1:a:0"
    for i in range(len(renditions)):
        command += ["-map", f"[v{i}]", "-map", audio_input]
    for i, rendition in enumerate(renditions):
        command += video_options(i, rendition, gop, segment_seconds, preset)
    command += ladder_outputs(
        renditions,
        has_audio=source.has_audio,
        segment_seconds=segment_seconds,
        playlist_type="event",
        flags="independent_segments+program_date_time+temp_file",
        segments=out_dir / "%v" / SEGMENT_TEMPLATE.format(run=run),
        playlist=out_dir / "%v" / RUN_PLAYLIST.format(run=run),
    )
    return command
