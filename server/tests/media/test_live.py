"""The simulated live playlist: a clock-driven sliding window that loops over a VOD sample."""

import re

import pytest

from server.media.live import Segment, VodPlaylist, live_playlist, parse_vod_playlist
from server.media.urls import live_segment_prefix

VOD_TEXT = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n" + "".join(
    f"#EXTINF:2.000000,\nindex{i}.ts\n" for i in range(10)
) + "#EXT-X-ENDLIST\n"
VOD = parse_vod_playlist(VOD_TEXT)  # 10 segments, 20 s per loop
T0 = 1_800_000_000.0


def tag(playlist: str, name: str) -> int:
    return int(re.search(rf"^#{name}:(\d+)$", playlist, re.M).group(1))


def uris(playlist: str) -> list[str]:
    return [line for line in playlist.splitlines() if line and not line.startswith("#")]


def test_parser_reads_segments_and_target_duration():
    assert VOD.target_duration == 2
    assert len(VOD.segments) == 10
    assert VOD.segments[3] == Segment("index3.ts", 2.0)
    assert VOD.duration == pytest.approx(20.0)


@pytest.mark.parametrize("bad", ["", "index0.ts\n", "#EXTM3U\n", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"])
def test_parser_rejects_what_is_not_a_media_playlist(bad):
    with pytest.raises(ValueError):
        parse_vod_playlist(bad)


def test_live_playlist_has_no_endlist_and_declares_target_duration():
    text = live_playlist(VOD, T0 + 5, T0)
    assert text.startswith("#EXTM3U\n")
    assert "#EXT-X-ENDLIST" not in text
    assert "#EXT-X-PLAYLIST-TYPE" not in text
    assert tag(text, "EXT-X-TARGETDURATION") == 2


@pytest.mark.parametrize("window", [1, 3, 6, 15])
def test_window_size(window):
    for t in (0, 7, 19.9, 20, 333):
        text = live_playlist(VOD, T0 + t, T0, window=window)
        assert len(uris(text)) == window
        assert text.count("#EXTINF:") == window


def test_media_sequence_advances_with_time():
    assert tag(live_playlist(VOD, T0 - 50, T0), "EXT-X-MEDIA-SEQUENCE") == 0  # before start: the start
    assert tag(live_playlist(VOD, T0, T0), "EXT-X-MEDIA-SEQUENCE") == 0
    assert tag(live_playlist(VOD, T0 + 1.99, T0), "EXT-X-MEDIA-SEQUENCE") == 0
    assert tag(live_playlist(VOD, T0 + 2, T0), "EXT-X-MEDIA-SEQUENCE") == 1
    assert tag(live_playlist(VOD, T0 + 61, T0), "EXT-X-MEDIA-SEQUENCE") == 30
    assert tag(live_playlist(VOD, T0 + 86_400, T0), "EXT-X-MEDIA-SEQUENCE") == 43_200
    # Each step drops the oldest segment and appends the next: a sliding window.
    a, b = uris(live_playlist(VOD, T0 + 10, T0)), uris(live_playlist(VOD, T0 + 12, T0))
    assert a[1:] == b[:-1]


def test_same_clock_same_playlist():
    assert live_playlist(VOD, T0 + 123.4, T0) == live_playlist(VOD_TEXT, T0 + 123.4, T0)


def test_discontinuity_at_wrap():
    # At t=10 s the window is j=5..10; j=10 is index0.ts of the second loop.
    text = live_playlist(VOD, T0 + 10, T0)
    lines = text.splitlines()
    assert uris(text) == [f"index{i}.ts" for i in (5, 6, 7, 8, 9, 0)]
    i = lines.index("#EXT-X-DISCONTINUITY")
    assert lines[i + 2] == "index0.ts"
    assert text.count("#EXT-X-DISCONTINUITY\n") == 1
    assert tag(text, "EXT-X-DISCONTINUITY-SEQUENCE") == 0
    # Before the first wrap there is none.
    assert "#EXT-X-DISCONTINUITY\n" not in live_playlist(VOD, T0 + 3, T0)


def test_discontinuity_sequence_counts_tags_that_slid_out():
    # Every segment's discontinuity number (header + tags before it) equals its loop number.
    for step in range(0, 80):
        text = live_playlist(VOD, T0 + 2 * step, T0)
        dsn = tag(text, "EXT-X-DISCONTINUITY-SEQUENCE")
        j = tag(text, "EXT-X-MEDIA-SEQUENCE")
        for line in text.splitlines()[5:]:
            if line == "#EXT-X-DISCONTINUITY":
                dsn += 1
            elif not line.startswith("#"):
                assert dsn == j // 10, (step, j)
                j += 1


def test_window_longer_than_the_sample_wraps_more_than_once():
    text = live_playlist(VOD, T0, T0, window=25)
    assert text.count("#EXT-X-DISCONTINUITY\n") == 2


def test_uris_point_at_the_vod_sample():
    text = live_playlist(VOD, T0 + 4, T0, uri_prefix=live_segment_prefix("football"), uri_query="sig=abc")
    assert uris(text)[0] == "../vod/football/index2.ts?sig=abc"


def test_uneven_segments_use_their_own_durations():
    vod = VodPlaylist((Segment("a.ts", 2.0), Segment("b.ts", 1.5)), 2)
    assert uris(live_playlist(vod, T0 + 3.5, T0, window=2)) == ["a.ts", "b.ts"]  # one full loop = 2 done
    assert uris(live_playlist(vod, T0 + 3.4, T0, window=2)) == ["b.ts", "a.ts"]


def test_window_must_be_positive():
    with pytest.raises(ValueError):
        live_playlist(VOD, T0, T0, window=0)
