"""A live recording's seek previews while it records (issue 29 §5, the DVR window): a picture every
other segment of the smallest rendition, made once, with a VTT whose cues lie at the pictures'
places in the recording and name their segments; a process taking the recording over keeps what
was made; the archive's sheets replace the pictures. Through the real ffmpeg."""

import subprocess
from pathlib import Path

import pytest

from server.media.packaging.live_previews import LivePreviews, live_vtt, remove_live_pictures
from server.media.recordings import Recording
from server.tests.media.tools import tool


def record(directory: Path, seconds: int) -> None:
    """`seconds` of a 320x180 rendition as 2-second HLS segments, as the live transcoder writes them."""
    rendition = directory / "234p"
    rendition.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [tool("ffmpeg"), "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
         "-i", "testsrc2=size=320x180:rate=25", "-t", str(seconds), "-c:v", "libx264", "-preset", "ultrafast",
         "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-f", "hls", "-hls_time", "2",
         "-hls_list_size", "0", "-hls_flags", "program_date_time",
         "-hls_segment_filename", str(rendition / "r1-%05d.ts"), str(rendition / "index.m3u8")],
        check=True, timeout=120,
    )  # fmt: skip


def cues(vtt: str) -> list[tuple[str, str, str]]:
    blocks = [block.splitlines() for block in vtt.split("\n\n")[1:] if block.strip()]
    return [(ident, timing, text) for ident, timing, text in blocks]


@pytest.mark.asyncio(loop_scope="session")
async def test_a_picture_every_other_segment_with_cues_at_their_places_naming_their_segments(tmp_path):
    record(tmp_path, 8)  # segments 0-3
    previews = LivePreviews(tmp_path, "234p", 320, 180, ffmpeg=tool("ffmpeg"))
    assert await previews.round() == 2
    recording = Recording.parse((tmp_path / "234p" / "index.m3u8").read_text())
    at = [f"at-{round(segment.started_at * 1000)}" for segment in recording.segments if segment.started_at]
    assert cues((tmp_path / "thumbnails.vtt").read_text()) == [
        (at[0], "00:00:00.000 --> 00:00:04.000", "thumbs-000000.jpg#xywh=0,0,160,90"),
        (at[2], "00:00:04.000 --> 00:00:08.000", "thumbs-000002.jpg#xywh=0,0,160,90"),
    ]
    picture = tmp_path / "thumbs-000002.jpg"
    assert picture.read_bytes()[:3] == b"\xff\xd8\xff"
    made_at = picture.stat().st_mtime_ns
    assert await previews.round() == 0  # nothing new recorded: nothing made again

    record(tmp_path, 12)  # the recording went on: segments 4 and 5
    assert await previews.round() == 1
    assert [timing for _, timing, _ in cues((tmp_path / "thumbnails.vtt").read_text())] == [
        "00:00:00.000 --> 00:00:04.000",
        "00:00:04.000 --> 00:00:08.000",
        "00:00:08.000 --> 00:00:12.000",
    ]
    assert picture.stat().st_mtime_ns == made_at


@pytest.mark.asyncio(loop_scope="session")
async def test_a_process_taking_the_recording_over_keeps_the_pictures_made(tmp_path):
    record(tmp_path, 8)
    await LivePreviews(tmp_path, "234p", 320, 180, ffmpeg=tool("ffmpeg")).round()
    again = LivePreviews(tmp_path, "234p", 320, 180, ffmpeg="ffmpeg-that-is-not-there")
    assert sorted(again.pictures) == [0, 2]
    assert await again.round() == 0


@pytest.mark.asyncio(loop_scope="session")
async def test_nothing_recorded_yet_makes_nothing(tmp_path):
    assert await LivePreviews(tmp_path, "234p", 320, 180).round() == 0
    assert not (tmp_path / "thumbnails.vtt").exists()


def test_the_last_cue_ends_where_the_recording_does_and_each_names_its_wall_clock_time():
    playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + "".join(
        f"#EXT-X-PROGRAM-DATE-TIME:2026-11-29T18:00:0{2 * i}.000Z\n#EXTINF:2.0,\ns{i}.ts\n" for i in range(3)
    )
    vtt = live_vtt(Recording.parse(playlist), {0: "thumbs-000000.jpg", 2: "thumbs-000002.jpg"}, 90)
    assert [(ident, timing) for ident, timing, _ in cues(vtt)] == [
        ("at-1795975200000", "00:00:00.000 --> 00:00:04.000"),
        ("at-1795975204000", "00:00:04.000 --> 00:00:06.000"),
    ]


def test_a_segment_without_its_program_date_time_gets_no_cue():
    playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\ns0.ts\n"
    assert cues(live_vtt(Recording.parse(playlist), {0: "thumbs-000000.jpg"}, 90)) == []


def test_the_archives_sheets_replace_the_live_pictures(tmp_path):
    for name in ("thumbs-000000.jpg", "thumbs-000002.jpg", "thumbs-001.jpg", "poster.jpg"):
        (tmp_path / name).write_bytes(b"x")
    assert remove_live_pictures(tmp_path) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["poster.jpg", "thumbs-001.jpg"]
