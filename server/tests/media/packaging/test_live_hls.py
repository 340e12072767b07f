"""The live packager's ffmpeg command, as data and once through the real ffmpeg (issue 28 §3)."""

import json
import subprocess
from pathlib import Path

import pytest

from server.media.packaging.ladder import Source, plan
from server.media.packaging.live_hls import LiveInput, live_hls_command
from server.media.packaging.measure import Picture, master_playlist, measure
from server.media.recordings import RUN_PLAYLIST, Joiner, recorded

from ..tools import tool

LADDER = plan(Source(1280, 720, 30, has_audio=True))
RTMP = LiveInput("rtmp://127.0.0.1:1935/live/key", has_audio=True)


def option(command: list[str], name: str) -> list[str]:
    """Every value given to `name`."""
    return [command[i + 1] for i, part in enumerate(command[:-1]) if part == name]


def test_every_rendition_has_a_keyframe_on_every_segment_boundary_and_none_from_scene_cuts():
    command = live_hls_command(RTMP, Path("/m"), LADDER, segment_seconds=2)
    for i in range(3):
        assert option(command, f"-g:v:{i}") == ["60"] and option(command, f"-keyint_min:v:{i}") == ["60"]
        assert option(command, f"-sc_threshold:v:{i}") == ["0"]
        assert option(command, f"-force_key_frames:v:{i}") == ["expr:gte(t,n_forced*2)"]
    assert option(command, "-hls_time") == ["2"]


def test_every_rendition_is_encoded_at_veryfast_unless_another_preset_is_given():
    assert option(live_hls_command(RTMP, Path("/m"), LADDER), "-preset:v:2") == ["veryfast"]
    command = live_hls_command(RTMP, Path("/m"), LADDER, preset="superfast")
    assert [option(command, f"-preset:v:{i}") for i in range(3)] == [["superfast"]] * 3


def test_a_one_second_segment_halves_the_keyframe_interval():
    command = live_hls_command(RTMP, Path("/m"), LADDER, segment_seconds=1)
    assert option(command, "-g:v:0") == ["30"] and option(command, "-hls_time") == ["1"]


def test_the_picture_is_decoded_once_and_scaled_per_rendition():
    [graph] = option(live_hls_command(RTMP, Path("/m"), LADDER), "-filter_complex")
    assert graph.startswith("[0:v]split=3[split0][split1][split2];")
    for size in ("w=1280:h=720", "w=640:h=360", "w=416:h=234"):
        assert size in graph
    assert option(live_hls_command(RTMP, Path("/m"), LADDER), "-b:v:1") == ["800k"]


def test_each_rendition_is_a_directory_of_its_own_with_its_audio():
    command = live_hls_command(RTMP, Path("/media/a1"), LADDER)
    assert option(command, "-var_stream_map") == ["v:0,a:0,name:720p v:1,a:1,name:360p v:2,a:2,name:234p"]
    assert option(command, "-map") == ["[v0]", "0:a:0", "[v1]", "0:a:0", "[v2]", "0:a:0"]
    assert option(command, "-hls_segment_filename") == ["/media/a1/%v/r1-%05d.ts"]
    assert command[-1] == "/media/a1/%v/run-1.m3u8"


def test_each_start_of_the_transcoder_records_a_run_of_its_own():
    command = live_hls_command(RTMP, Path("/media/a1"), LADDER, run=3)
    assert option(command, "-hls_segment_filename") == ["/media/a1/%v/r3-%05d.ts"]
    assert command[-1] == "/media/a1/%v/run-3.m3u8" and RUN_PLAYLIST.match("run-3.m3u8")


def test_a_source_without_sound_gets_a_silent_aac_track_that_ends_with_the_picture():
    command = live_hls_command(LiveInput("srt://127.0.0.1:9000", has_audio=False), Path("/m"), LADDER)
    assert "anullsrc=channel_layout=stereo:sample_rate=48000" in command
    assert option(command, "-map")[1] == "1:a:0" and "-shortest" in command
    assert option(command, "-c:a") == ["aac"]


def test_a_runs_playlist_keeps_all_of_it_with_wall_clock_times_and_complete_files_only():
    command = live_hls_command(RTMP, Path("/m"), LADDER)
    assert option(command, "-hls_list_size") == ["0"] and option(command, "-hls_playlist_type") == ["event"]
    flags = set(option(command, "-hls_flags")[0].split("+"))
    assert flags == {"independent_segments", "program_date_time", "temp_file"}
    assert option(command, "-progress") == ["pipe:1"]


def test_a_ladder_without_renditions_is_refused():
    with pytest.raises(ValueError, match="at least one rendition"):
        live_hls_command(RTMP, Path("/m"), ())


def _probe(path: Path, *entries: str) -> list[dict]:
    out = subprocess.run(
        [tool("ffprobe"), "-v", "error", "-print_format", "json", "-show_entries", ",".join(entries), str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout).get("frames") or json.loads(out.stdout).get("streams")


def test_ffmpeg_writes_aligned_renditions_that_a_restart_continues_with_a_discontinuity(tmp_path):
    ladder = plan(Source(640, 360, 30, has_audio=False))
    pattern = LiveInput("testsrc2=size=640x360:rate=30:duration=4", has_audio=False, options=("-f", "lavfi"))
    for run in (1, 2):  # the second run is a restarted transcoder
        subprocess.run(
            live_hls_command(pattern, tmp_path, ladder, run=run, ffmpeg=tool("ffmpeg")),
            check=True,
            capture_output=True,
            timeout=120,
        )

    recordings = {r.name: recorded(tmp_path / r.name) for r in ladder}
    assert set(recordings) == {"360p", "234p"}
    for name, recording in recordings.items():
        assert [s.uri for s in recording.segments] == ["r1-00000.ts", "r1-00001.ts", "r2-00000.ts", "r2-00001.ts"]
        assert all(s.started_at is not None and s.duration == 2 for s in recording.segments), name
        # The restart is marked where it happened.
        assert [s.discontinuous for s in recording.segments] == [False, False, True, False]
    for segment in ("r1-00000.ts", "r2-00001.ts"):
        for name in recordings:
            first = _probe(tmp_path / name / segment, "frame=key_frame")[0]
            assert first["key_frame"] == 1, (name, segment)
            codecs = {s["codec_name"] for s in _probe(tmp_path / name / segment, "stream=codec_name")}
            assert codecs == {"h264", "aac"}


def test_the_master_states_what_the_packaged_renditions_really_are(tmp_path):
    ladder = plan(Source(640, 360, 25, has_audio=False))
    pattern = LiveInput("testsrc2=size=640x360:rate=25:duration=4", has_audio=False, options=("-f", "lavfi"))
    subprocess.run(
        live_hls_command(pattern, tmp_path, ladder, ffmpeg=tool("ffmpeg")), check=True, capture_output=True, timeout=120
    )
    assert Joiner(tmp_path, tuple(r.name for r in ladder)).write()

    measured = [measure(tmp_path, Picture(r.name, r.width, r.height, r.fps)) for r in ladder]
    master = master_playlist(measured).splitlines()
    assert master[3].startswith("#EXT-X-STREAM-INF:BANDWIDTH=") and master[4] == "360p/index.m3u8"
    # H.264 Main (4d) at the rung's level, AAC-LC: read from the segments, not assumed.
    assert 'CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=25.000' in master[3]
    assert 'CODECS="avc1.4d4015,mp4a.40.2",RESOLUTION=416x234,FRAME-RATE=25.000' in master[5]
    for m, rendition in zip(measured, ladder, strict=True):
        # Peak over the real segments, near the rung's bitrate (a test picture is easy to encode).
        assert 0 < m.average_bps <= m.peak_bps < 2 * rendition.bandwidth
