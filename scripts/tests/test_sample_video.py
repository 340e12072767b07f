"""The committed sample media (fixtures/media) is what scripts/sample_video.py writes: a ladder of
aligned renditions per sample under a master playlist whose attributes are measured from the
files, the test ad, and nothing else, and it stays small. Nothing here re-encodes."""

import struct
from pathlib import Path

import pytest

from scripts import sample_video
from server.media.delivery.ads import PREROLL
from server.media.delivery.live import live_playlist, load_vod_playlist
from server.media.packaging.measure import (
    Picture,
    audio_codec,
    master_playlist,
    measure,
    starts_with_keyframe,
    video_codec,
)
from server.media.playlists import load_stream
from server.tests.media.hls import read_master_playlist, read_media_playlist

MEDIA = Path(__file__).resolve().parents[2] / "fixtures" / "media"
SAMPLES = sorted(sample_video.SAMPLES)
# H.264 constrained baseline (profile 66, constraint_set0 and set1) at the level each size needs.
CODEC_BY_LEVEL = {"1.3": "avc1.42c00d", "2.1": "avc1.42c015", "3.0": "avc1.42c01e", "3.1": "avc1.42c01f"}
AAC_LC = "mp4a.40.2"


def renditions(name: str) -> list[sample_video.Rendition]:
    return list(sample_video.SAMPLES[name].ladder)


# --- the master ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
def test_each_sample_is_a_master_over_its_ladder(name):
    path = MEDIA / name / "index.m3u8"
    assert path.exists(), "regenerate with: python -m server.media.sample_video"
    master = read_master_playlist(path.read_text())
    ladder = renditions(name)
    assert master.uris == [f"{r.name}/index.m3u8" for r in ladder]
    assert len(ladder) >= (2 if sample_video.SAMPLES[name].panoramic else 3)
    assert "EXT-X-INDEPENDENT-SEGMENTS" in master.tags  # every segment begins with a keyframe
    for variant, rendition in zip(master.variants, ladder, strict=True):
        assert variant.resolution == (rendition.width, rendition.height)
        assert variant.attributes["CODECS"] == f"{CODEC_BY_LEVEL[rendition.level]},{AAC_LC}"
        assert variant.attributes["FRAME-RATE"] == "30.000"
        assert 0 < int(variant.attributes["AVERAGE-BANDWIDTH"]) <= variant.bandwidth


@pytest.mark.parametrize("name", SAMPLES)
def test_bandwidths_are_the_measured_peaks_and_grow_with_the_picture(name):
    """BANDWIDTH is the largest segment's bit rate (RFC 8216 4.3.4.2), measured on the committed
    files, not a number written down; the master is exactly what the generator writes for them."""
    directory = MEDIA / name
    master = read_master_playlist((directory / "index.m3u8").read_text())
    for variant, rendition in zip(master.variants, renditions(name), strict=True):
        playlist = read_media_playlist((directory / rendition.name / "index.m3u8").read_text())
        sizes = [(directory / rendition.name / s.uri).stat().st_size for s in playlist.segments]
        peak = max(size * 8 / s.duration for size, s in zip(sizes, playlist.segments, strict=True))
        assert variant.bandwidth == pytest.approx(peak, abs=1)
        assert int(variant.attributes["AVERAGE-BANDWIDTH"]) == pytest.approx(sum(sizes) * 8 / playlist.duration, abs=1)
    by_size = sorted(master.variants, key=lambda v: v.resolution[0] * v.resolution[1])
    bandwidths = [v.bandwidth for v in by_size]
    assert bandwidths == sorted(bandwidths) and len(set(bandwidths)) == len(bandwidths)
    assert bandwidths[-1] > 1.4 * bandwidths[0]  # a ladder worth adapting on
    measured = [measure(directory, Picture(r.name, r.width, r.height, sample_video.FPS)) for r in renditions(name)]
    assert (directory / "index.m3u8").read_text() == master_playlist(measured)


# --- the renditions -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
def test_renditions_are_aligned_vod_playlists_of_2s_segments(name):
    sample = sample_video.SAMPLES[name]
    playlists = {}
    for rendition in renditions(name):
        text = (MEDIA / name / rendition.name / "index.m3u8").read_text()
        playlist = read_media_playlist(text)
        assert playlist.ended and playlist.tags["EXT-X-PLAYLIST-TYPE"] == "VOD" and playlist.target_duration == 2
        assert playlist.uris == [f"index{n}.ts" for n in range(len(playlist.segments))]  # relative, no paths
        playlists[rendition.name] = playlist
    counts = {len(p.segments) for p in playlists.values()}
    durations = {tuple(s.duration for s in p.segments) for p in playlists.values()}
    assert counts == {sample.seconds // 2} and durations == {(2.0,) * (sample.seconds // 2)}
    # One timeline for every rendition, as the server reads it.
    stream = load_stream(MEDIA, name)
    assert stream is not None and [r.name for r in stream.renditions] == [r.name for r in renditions(name)]


@pytest.mark.parametrize("name", SAMPLES)
def test_every_segment_is_mpeg_ts_beginning_with_a_keyframe_in_the_ladders_codecs(name):
    for rendition in renditions(name):
        for n in range(sample_video.SAMPLES[name].seconds // 2):
            data = (MEDIA / name / rendition.name / f"index{n}.ts").read_bytes()
            assert data[:1] == b"\x47" and len(data) % 188 == 0, (rendition.name, n)
            assert starts_with_keyframe(data), (rendition.name, n)
        first = (MEDIA / name / rendition.name / "index0.ts").read_bytes()
        assert video_codec(first) == CODEC_BY_LEVEL[rendition.level]
        assert audio_codec(first) == AAC_LC


@pytest.mark.parametrize("name", SAMPLES)
def test_the_generators_own_check_passes_on_the_committed_files(name):
    sample_video.check_ladder(MEDIA / name, sample_video.SAMPLES[name])


def test_a_master_reads_as_its_first_renditions_timeline():
    """What the services see of a sample (its length, clips' timeline) through its master."""
    vod = load_vod_playlist(MEDIA / "football" / "index.m3u8")
    assert vod.duration == 24 and vod.target_duration == 2
    assert [s.uri for s in vod.segments] == [f"360p/index{n}.ts" for n in range(12)]
    text = live_playlist(vod, 1000.0, 0.0)
    assert text is not None and "#EXT-X-ENDLIST" not in text


def test_no_stray_files_and_total_size_under_10_mb():
    expected = {Path("ads") / PREROLL.file}
    for name, sample in sample_video.SAMPLES.items():
        expected.add(Path(name) / "index.m3u8")
        for rendition in sample.ladder:
            expected.add(Path(name) / rendition.name / "index.m3u8")
            expected.update(Path(name) / rendition.name / f"index{n}.ts" for n in range(sample.seconds // 2))
    files = [p for p in MEDIA.rglob("*") if p.is_file()]
    assert {p.relative_to(MEDIA) for p in files} == expected
    assert sum(p.stat().st_size for p in files) < 10 * 1000 * 1000


# --- the test ad --------------------------------------------------------------------------------------


def boxes(data: bytes, start: int = 0, end: int | None = None):
    """ISO BMFF boxes between start and end: (type, payload start, box end)."""
    at, end = start, len(data) if end is None else end
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at : at + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[at + 8 : at + 16])[0], 16
        elif size == 0:
            size = end - at
        assert size >= header, "a malformed box"
        yield kind.decode("latin-1"), at + header, at + size
        at += size


def find(data: bytes, path: str, start: int = 0, end: int | None = None) -> tuple[int, int]:
    """The payload (start, end) of the first box at `path` ('moov/trak/mdia'), searching every trak."""
    first, _, rest = path.partition("/")
    for kind, payload, box_end in boxes(data, start, end):
        if kind == first:
            if not rest:
                return payload, box_end
            try:
                return find(data, rest, payload, box_end)
            except LookupError:
                continue
    raise LookupError(path)


def sample_entry(data: bytes, kind: str) -> tuple[int, int]:
    """The payload of the `avc1` or `mp4a` sample description, whichever track holds it."""
    _, moov_end = moov = find(data, "moov")
    for trak_kind, trak, trak_end in boxes(data, moov[0], moov_end):
        if trak_kind != "trak":
            continue
        stsd, stsd_end = find(data, "mdia/minf/stbl/stsd", trak, trak_end)
        for entry, start, end in boxes(data, stsd + 8, stsd_end):  # past version, flags and count
            if entry == kind:
                return start, end
    raise LookupError(kind)


def test_the_ad_is_a_faststart_mp4_of_the_announced_size_length_and_codecs():
    data = (MEDIA / "ads" / PREROLL.file).read_bytes()
    top = [kind for kind, _s, _e in boxes(data)]
    assert top[0] == "ftyp" and top.index("moov") < top.index("mdat")  # the index first: plays while loading
    mvhd, _ = find(data, "moov/mvhd")
    if data[mvhd]:  # version 1: 64-bit times
        timescale, duration = struct.unpack(">IQ", data[mvhd + 20 : mvhd + 32])
    else:
        timescale, duration = struct.unpack(">II", data[mvhd + 12 : mvhd + 20])
    assert duration / timescale == pytest.approx(PREROLL.seconds, abs=0.05)
    video, video_end = sample_entry(data, "avc1")
    assert struct.unpack(">HH", data[video + 24 : video + 28]) == (PREROLL.width, PREROLL.height)
    avcc, _ = find(data, "avcC", video + 78, video_end)  # past the visual sample entry's fields
    video_codec = f"avc1.{data[avcc + 1]:02x}{data[avcc + 2]:02x}{data[avcc + 3]:02x}"
    audio, audio_end = sample_entry(data, "mp4a")
    esds, esds_end = find(data, "esds", audio + 28, audio_end)  # past the audio sample entry's fields
    info = data.index(b"\x05", esds + 4, esds_end)  # DecoderSpecificInfo: its length, then the config
    at = info + 1
    while data[at] & 0x80:
        at += 1
    audio_codec = f"mp4a.40.{data[at + 1] >> 3}"  # the audio object type: 2 is AAC-LC
    assert f"{video_codec},{audio_codec}" == PREROLL.codec


# --- the generator --------------------------------------------------------------------------------------


def test_ffmpeg_command_encodes_every_rendition_alike_in_one_run(tmp_path):
    sample = sample_video.SAMPLES["football"]
    cmd = sample_video.ffmpeg_command(sample, tmp_path, "font.ttf")
    joined = " ".join(cmd)
    for rendition in sample.ladder:
        assert f"{rendition.name}/index%d.ts {rendition.name}/index.m3u8" in joined
        assert f"-level {rendition.level}" in joined
    graph = cmd[cmd.index("-filter_complex") + 1]
    assert "split=4" in graph and "scale=416:234" in graph and "scale=640:360" in graph and "scale=256:144" in graph
    assert "color=c=0x2e7d32:s=1280x720" in joined  # drawn once, at the top rendition's size
    for part in (
        "-profile:v baseline",
        "-g 60",
        "-keyint_min 60",
        "-sc_threshold 0",
        "-hls_time 2",
        "-hls_playlist_type vod",
        "-c:a aac",
        "+bitexact",
    ):
        assert joined.count(part) >= len(sample.ladder), part


def test_the_ad_command_writes_a_faststart_mp4(tmp_path):
    cmd = sample_video.ad_command("font.ttf", tmp_path, tmp_path / "ad.mp4")
    joined = " ".join(cmd)
    assert "-movflags +faststart" in joined and "-f mp4" in joined and "-c:a aac" in joined
    assert f"s={PREROLL.width}x{PREROLL.height}" in joined and f"d={PREROLL.seconds}" in joined


def test_generate_skips_existing_output_unless_forced(tmp_path):
    sample = sample_video.SAMPLES["hockey"]
    (tmp_path / sample.name).mkdir()
    (tmp_path / sample.name / "index.m3u8").write_text("#EXTM3U\n")
    assert sample_video.generate(sample, tmp_path) is False
    assert (tmp_path / sample.name / "index.m3u8").read_text() == "#EXTM3U\n"
    (tmp_path / "ads").mkdir()
    (tmp_path / "ads" / PREROLL.file).write_bytes(b"x")
    assert sample_video.generate_ad(tmp_path) is False
