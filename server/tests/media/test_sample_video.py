"""The committed sample videos (fixtures/media) are playable HLS and stay small."""

from pathlib import Path

import pytest

from server.media import sample_video
from server.media.live import live_playlist, load_vod_playlist

MEDIA = Path(__file__).resolve().parents[3] / "fixtures" / "media"


@pytest.mark.parametrize("name", sorted(sample_video.SAMPLES))
def test_committed_playlist_parses_with_2s_segments(name):
    playlist = MEDIA / name / "index.m3u8"
    assert playlist.exists(), "regenerate with: python -m server.media.sample_video"
    text = playlist.read_text()
    assert "#EXT-X-TARGETDURATION:2\n" in text
    assert "#EXT-X-PLAYLIST-TYPE:VOD" in text and "#EXT-X-ENDLIST" in text
    vod = load_vod_playlist(playlist)
    assert vod.target_duration == 2
    assert 20 <= vod.duration <= 30
    for segment in vod.segments:
        assert 0 < segment.duration <= 2.0 + 1e-3
        assert "/" not in segment.uri  # relative to the playlist, no machine paths
        assert (MEDIA / name / segment.uri).stat().st_size > 0
    text = live_playlist(vod, 1000.0, 0.0)
    assert text is not None and "#EXT-X-ENDLIST" not in text


def test_segments_start_as_mpeg_ts():
    for ts in MEDIA.glob("*/*.ts"):
        assert ts.read_bytes()[:1] == b"\x47", ts  # TS sync byte


def test_no_stray_files_and_total_size_under_4_mb():
    files = [p for p in MEDIA.rglob("*") if p.is_file()]
    assert {p.suffix for p in files} <= {".m3u8", ".ts"}
    assert {p.parent.name for p in files} == set(sample_video.SAMPLES)
    assert sum(p.stat().st_size for p in files) < 4 * 1024 * 1024


def test_ffmpeg_command_uses_the_agreed_encoding(tmp_path):
    cmd = sample_video.ffmpeg_command(sample_video.SAMPLES["football"], tmp_path, "font.ttf")
    joined = " ".join(cmd)
    for part in (
        "-profile:v baseline",
        "-g 60",
        "-keyint_min 60",
        "-sc_threshold 0",
        "-hls_time 2",
        "-hls_playlist_type vod",
        "-c:a aac",
        "640x360",
    ):
        assert part in joined


def test_generate_skips_existing_output_unless_forced(tmp_path):
    sample = sample_video.SAMPLES["hockey"]
    (tmp_path / sample.name).mkdir()
    (tmp_path / sample.name / "index.m3u8").write_text("#EXTM3U\n")
    assert sample_video.generate(sample, tmp_path) is False
    assert (tmp_path / sample.name / "index.m3u8").read_text() == "#EXTM3U\n"
