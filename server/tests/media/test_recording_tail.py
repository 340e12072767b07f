"""The newest end of a recording (server.media.recording_tail): when its last segment ends and the
bitrate of its last segments, read from the end of a rendition's playlist and its files."""

from pathlib import Path

from server.media.delivery.live import program_date_time
from server.media.recording_tail import MEASURED_SEGMENTS, NOTHING, TAIL_BYTES, Tail, tail_of

START = 1_795_910_400.0  # 2026-11-29T00:00:00Z


def write_rendition(
    rendition: Path,
    sizes: list[int],
    *,
    start: float = START,
    duration: float = 2.0,
    date_first: bool = True,
    gap_after: int | None = None,
) -> None:
    """A rendition's playlist of len(sizes) segments from `start`, and their files of those sizes;
    `date_first=False` writes EXTINF before the date-time, as ffmpeg does; `gap_after` leaves the
    encoder away for 30 s after that segment."""
    rendition.mkdir(parents=True, exist_ok=True)
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
    at = start
    for number, size in enumerate(sizes):
        name = f"r1-{number:05d}.ts"
        (rendition / name).write_bytes(b"\x47" * size)
        entry = [f"#EXT-X-PROGRAM-DATE-TIME:{program_date_time(at)}", f"#EXTINF:{duration:.6f},"]
        lines += [*(entry if date_first else reversed(entry)), name]
        at += duration + (30 if number == gap_after else 0)
        if number == gap_after:
            lines.append("#EXT-X-DISCONTINUITY")
    (rendition / "index.m3u8").write_text("\n".join(lines) + "\n")


def test_the_last_segment_ends_at_its_date_time_plus_its_duration(tmp_path):
    write_rendition(tmp_path / "720p", [1000] * 3, gap_after=0)
    tail = tail_of(tmp_path / "720p")
    assert tail.ends_at == START + 2 + 30 + 2 + 2
    assert tail.age(START + 40) == 4.0


def test_the_bitrate_is_the_last_segments_bytes_over_their_duration(tmp_path):
    # The first segment is far larger: only the last MEASURED_SEGMENTS count.
    write_rendition(tmp_path / "720p", [9_000_000] + [500_000] * MEASURED_SEGMENTS)
    assert tail_of(tmp_path / "720p").bitrate_kbps == 500_000 * 8 / 2 / 1000


def test_a_long_recording_is_read_from_its_end_whichever_order_its_tags_are_in(tmp_path):
    count = TAIL_BYTES // 40  # more segments than the bytes read hold
    for date_first in (True, False):
        rendition = tmp_path / f"order-{date_first}"
        write_rendition(rendition, [1000] * count, date_first=date_first)
        assert (rendition / "index.m3u8").stat().st_size > TAIL_BYTES
        assert tail_of(rendition) == Tail(START + 2 * count, 1000 * 8 / 2 / 1000)


def test_segments_already_gone_are_left_out_of_the_bitrate(tmp_path):
    write_rendition(tmp_path / "720p", [250_000] * 3)
    (tmp_path / "720p" / "r1-00002.ts").unlink()
    assert tail_of(tmp_path / "720p").bitrate_kbps == 1000.0


def test_nothing_recorded_yet_tells_nothing(tmp_path):
    assert tail_of(tmp_path / "720p") == NOTHING  # no playlist yet
    (tmp_path / "720p").mkdir()
    (tmp_path / "720p" / "index.m3u8").write_text("#EXTM3U\n#EXT-X-VERSION:3\n")
    assert tail_of(tmp_path / "720p") == NOTHING
    assert NOTHING.age(START) is None
