"""Master playlists and ladders of aligned renditions (server.media.playlists)."""

import pytest

from server.media.delivery.live import LiveStream
from server.media.playlists import (
    load_stream,
    load_vod_playlist,
    parse_master_playlist,
    read_stream,
)

from .hls import read_master_playlist, read_media_playlist

MASTER = (
    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
    '#EXT-X-STREAM-INF:BANDWIDTH=200000,AVERAGE-BANDWIDTH=190000,CODECS="avc1.42c01e,mp4a.40.2",'
    "RESOLUTION=640x360,FRAME-RATE=30.000\nhi/index.m3u8\n"
    '#EXT-X-STREAM-INF:BANDWIDTH=100000,CODECS="avc1.42c015,mp4a.40.2",RESOLUTION=416x234\nlo/index.m3u8\n'
)


def media_playlist(durations) -> str:
    return (
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        + "".join(f"#EXTINF:{d:.6f},\nindex{i}.ts\n" for i, d in enumerate(durations))
        + "#EXT-X-ENDLIST\n"
    )


def sample(root, name="s", hi=(2.0, 2.0, 2.0), lo=(2.0, 2.0, 2.0), master=MASTER):
    directory = root / name
    for rendition, durations in (("hi", hi), ("lo", lo)):
        (directory / rendition).mkdir(parents=True)
        (directory / rendition / "index.m3u8").write_text(media_playlist(durations))
    (directory / "index.m3u8").write_text(master)
    return directory


def test_a_master_keeps_its_tags_variants_and_quoted_attributes():
    ladder = parse_master_playlist(MASTER)
    assert ladder.tags == ("#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS")
    assert [v.rendition for v in ladder.variants] == ["hi", "lo"]
    hi = ladder.variants[0]
    assert hi.attribute("CODECS") == "avc1.42c01e,mp4a.40.2"  # the comma inside the quotes stays
    assert hi.attribute("RESOLUTION") == "640x360" and hi.attribute("FRAME-RATE") == "30.000"
    assert hi.attribute("BANDWIDTH") == "200000" and hi.attribute("HDCP-LEVEL") is None
    # Rendered again with other URIs, it is the same master.
    again = ladder.render(lambda v: f"../x/{v.rendition}/live.m3u8", extra=("#EXT-X-START:TIME-OFFSET=1.000",))
    read = read_master_playlist(again)
    assert read.uris == ["../x/hi/live.m3u8", "../x/lo/live.m3u8"]
    assert [v.attributes for v in read.variants] == [v.attributes for v in read_master_playlist(MASTER).variants]
    assert read.tags["EXT-X-START"] == "TIME-OFFSET=1.000"


@pytest.mark.parametrize(
    "text",
    [
        "",
        media_playlist([2.0]),
        "#EXTM3U\n#EXT-X-VERSION:3\n",
        "#EXTM3U\nhi/index.m3u8\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/abs/index.m3u8\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhttps://cdn.example/index.m3u8\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n../other/index.m3u8\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\na/index.m3u8\n",
    ],
)
def test_what_is_not_a_master_below_its_directory_is_refused(text):
    with pytest.raises(ValueError):
        parse_master_playlist(text)


def test_a_stream_reads_its_renditions_in_the_masters_order(tmp_path):
    sample(tmp_path)
    stream = load_stream(tmp_path, "s")
    assert stream is not None
    assert [r.name for r in stream.renditions] == ["hi", "lo"]
    assert stream.rendition("lo") is stream.renditions[1] and stream.rendition("mid") is None
    assert stream.timeline.duration == 6


def test_renditions_that_are_not_aligned_make_no_stream(tmp_path):
    sample(tmp_path, lo=(2.0, 2.0, 1.5))
    with pytest.raises(ValueError):
        read_stream(tmp_path / "s")
    assert load_stream(tmp_path, "s") is None


@pytest.mark.parametrize("name", ["..", "s/../..", "", "missing", "s/hi"])
def test_only_directories_below_the_root_with_a_master_are_streams(tmp_path, name):
    sample(tmp_path / "media")
    assert load_stream(tmp_path / "media", name) is None


def test_a_master_read_as_a_media_playlist_is_its_first_renditions_timeline(tmp_path):
    directory = sample(tmp_path)
    vod = load_vod_playlist(directory / "index.m3u8")
    assert [s.uri for s in vod.segments] == ["hi/index0.ts", "hi/index1.ts", "hi/index2.ts"]
    assert vod.target_duration == 2
    assert load_vod_playlist(directory / "lo" / "index.m3u8").segments[0].uri == "index0.ts"


def test_a_live_stream_gives_every_rendition_the_same_window(tmp_path):
    sample(tmp_path)
    stream = load_stream(tmp_path, "s")
    assert stream is not None
    live = LiveStream(stream, "s")
    master = read_master_playlist(live.master_playlist().decode())
    assert master.uris == ["hi/live.m3u8", "lo/live.m3u8"]  # beside it, in the live stream's directory
    span = live.window(1_800_000_011.0, rewind_seconds=10, kickoff=1_800_000_000.0)
    assert span is not None
    texts = {name: sample.render(*span) for name, sample in live.renditions.items()}
    assert texts["hi"] == texts["lo"]  # the same file names, each beside its own playlist
    assert len(read_media_playlist(texts["hi"]).segments) == 5
    assert live.window(1_799_999_000.0, kickoff=1_800_000_000.0) is None
