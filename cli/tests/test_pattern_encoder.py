"""The test pattern's ffmpeg command, read as data: what an encoder sends, where each option goes."""

import shutil
import subprocess
from dataclasses import replace

import pytest

from cli.pattern_encoder import Pattern, Resolution, clock_filter, ffmpeg_command, resolution
from server.tests.media.tools import tool

KEY = "tlk_3q2-7wEvQKNbZf8aRk1mUo0sYd5x9QzA"
RTMP = f"rtmp://127.0.0.1:1935/live/{KEY}"
SRT = f"srt://127.0.0.1:9000?streamid={KEY}&passphrase=p4ssphr4se-of-the-key"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
PATTERN = Pattern(RTMP, "rtmp", Resolution(1280, 720), 30, 60, FONT)


def value_of(argv: list[str], option: str) -> str:
    return argv[argv.index(option) + 1]


def inputs(argv: list[str]) -> list[str]:
    return [argv[i + 1] for i, word in enumerate(argv) if word == "-i"]


def test_rtmp_is_sent_as_flv_to_the_url_as_given():
    argv = ffmpeg_command(PATTERN, "/opt/ffmpeg")
    assert argv[0] == "/opt/ffmpeg"
    assert argv[-5:] == ["-f", "flv", "-flvflags", "no_duration_filesize", RTMP]


def test_srt_is_sent_as_mpeg_ts_in_caller_mode():
    argv = ffmpeg_command(replace(PATTERN, url=SRT, protocol="srt"))
    assert argv[-3:] == ["-f", "mpegts", f"{SRT}&mode=caller&connect_timeout=10000"]


def test_an_srt_url_that_names_its_mode_and_timeout_keeps_them():
    url = f"srt://127.0.0.1:9000?mode=rendezvous&connect_timeout=2000&streamid={KEY}"
    assert ffmpeg_command(replace(PATTERN, url=url, protocol="srt"))[-1] == url


def test_the_picture_and_the_tone_last_the_duration_at_the_size_and_rate_asked():
    argv = ffmpeg_command(replace(PATTERN, resolution=Resolution(320, 180), fps=25, seconds=3))
    picture, tone = inputs(argv)
    assert picture == "testsrc2=size=320x180:rate=25:duration=3"
    assert tone.startswith("sine=frequency=1000:") and tone.endswith(":duration=3")
    assert value_of(argv, "-map") == "0:v" and argv[argv.index("-map") + 2 : argv.index("-map") + 4] == ["-map", "1:a"]


def test_both_sources_are_read_in_real_time_as_a_camera_would_give_them():
    argv = ffmpeg_command(PATTERN)
    starts = [i for i, word in enumerate(argv) if word == "-i"]
    assert len(starts) == 2
    assert all(argv[i - 3 : i] == ["-re", "-f", "lavfi"] for i in starts)


@pytest.mark.parametrize("fps", [25, 30, 60])
def test_a_keyframe_every_two_seconds_whatever_the_frame_rate(fps):
    argv = ffmpeg_command(replace(PATTERN, fps=fps))
    assert value_of(argv, "-g") == value_of(argv, "-keyint_min") == str(2 * fps)
    assert value_of(argv, "-sc_threshold") == "0"  # no extra keyframes on scene cuts


def test_h264_veryfast_zero_latency_in_4_2_0_with_aac():
    argv = ffmpeg_command(PATTERN)
    assert value_of(argv, "-c:v") == "libx264" and value_of(argv, "-preset") == "veryfast"
    assert value_of(argv, "-tune") == "zerolatency" and value_of(argv, "-pix_fmt") == "yuv420p"
    assert value_of(argv, "-c:a") == "aac"
    assert value_of(argv, "-b:v") == value_of(argv, "-maxrate") == "2765k"


def test_ffmpeg_reports_progress_on_stdout_and_only_errors_on_stderr():
    argv = ffmpeg_command(PATTERN)
    assert value_of(argv, "-progress") == "pipe:1" and value_of(argv, "-loglevel") == "error"
    assert "-nostats" in argv and "-nostdin" in argv


def test_the_utc_wall_clock_with_milliseconds_is_drawn_in_the_font_given():
    drawn = value_of(ffmpeg_command(PATTERN), "-vf")
    assert drawn.startswith(f"drawtext=fontfile={FONT}:")
    # drawtext's own `gmtime` with %3N (milliseconds); its `:` escaped for both levels of parsing.
    assert r":text=%{gmtime\\:%F %T.%3N} UTC:" in drawn


def test_ffmpeg_parses_the_clock_even_with_a_font_path_full_of_special_characters(tmp_path):
    font = tmp_path / "it's: a [font], really; \\.ttf"
    shutil.copy(FONT, font)
    drawn = subprocess.run(
        [
            *(tool("ffmpeg"), "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=1:duration=1"),
            *("-vf", clock_filter(str(font)), "-f", "null", "-"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert drawn.returncode == 0, drawn.stderr


@pytest.mark.parametrize("text", ["1280x720", "320x180", " 640X360 ", "4096x2160"])
def test_a_resolution_is_width_x_height(text):
    width, height = (int(side) for side in text.strip().lower().split("x"))
    assert resolution(text) == Resolution(width, height)
    assert str(resolution(text)) == f"{width}x{height}"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1279x720", "even numbers"),
        ("1280x721", "even numbers"),
        ("32x32", "64 to 4096"),
        ("8192x4320", "64 to 4096"),
        ("1280", "WIDTHxHEIGHT"),
        ("1280x720.5", "WIDTHxHEIGHT"),
        ("-1280x720", "WIDTHxHEIGHT"),
    ],
)
def test_a_resolution_ffmpeg_or_h264_would_refuse_is_refused_saying_why(text, why):
    with pytest.raises(ValueError, match=why):
        resolution(text)
