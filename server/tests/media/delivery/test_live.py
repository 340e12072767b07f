"""The simulated live playlist: a VOD sample looped on the wall clock, with a rewind window that
never reaches before kickoff (server.media.delivery.live)."""

from datetime import UTC, datetime

import pytest

from server.media.delivery.live import LiveSample, Segment, VodPlaylist, live_playlist, parse_vod_playlist

from ..hls import read_media_playlist

VOD_TEXT = (
    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
    + "".join(f"#EXTINF:2.000000,\nindex{i}.ts\n" for i in range(10))
    + "#EXT-X-ENDLIST\n"
)
VOD = parse_vod_playlist(VOD_TEXT)  # 10 segments, 20 s per loop
T0 = 1_800_000_000.0  # a loop boundary: segment T0 / 2 is index0.ts
HOUR = 3600.0


def playlist_at(now, kickoff=None, rewind=1800, vod=VOD):
    text = live_playlist(vod, now, kickoff, rewind_seconds=rewind)
    assert text is not None, "no playlist at that instant"
    return read_media_playlist(text)


# --- parsing the sample -----------------------------------------------------------------------


def test_parser_reads_segments_and_target_duration():
    assert VOD.target_duration == 2
    assert len(VOD.segments) == 10
    assert VOD.segments[3] == Segment("index3.ts", 2.0)
    assert VOD.duration == pytest.approx(20.0)


@pytest.mark.parametrize(
    "bad",
    ["", "index0.ts\n", "#EXTM3U\n", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", "#EXTM3U\n#EXTINF:0,\na.ts\n"],
)
def test_parser_rejects_what_is_not_a_media_playlist(bad):
    with pytest.raises(ValueError):
        parse_vod_playlist(bad)


# --- a valid live playlist --------------------------------------------------------------------


def test_the_live_playlist_is_a_valid_media_playlist_with_no_end():
    playlist = playlist_at(T0 + 5)
    assert not playlist.ended
    assert "EXT-X-PLAYLIST-TYPE" not in playlist.tags  # the window slides: neither VOD nor EVENT
    assert playlist.target_duration == 2
    assert playlist.tags["EXT-X-VERSION"] == "3"


def test_it_lists_only_segments_that_have_finished():
    # At T0 + 5 the segment T0+4..T0+6 is still being "recorded": the live edge is T0 + 4.
    playlist = playlist_at(T0 + 5)
    last = playlist.segments[-1]
    assert last.sequence == (T0 + 4) / 2 - 1
    assert playlist_at(T0 + 6).segments[-1].sequence == last.sequence + 1


def test_the_playlist_advances_one_segment_each_segment_duration():
    before, after = playlist_at(T0 + 100), playlist_at(T0 + 102)
    assert after.media_sequence == before.media_sequence + 1
    assert after.uris[:-1] == before.uris[1:]  # the oldest leaves, the next arrives
    assert playlist_at(T0 + 101.99).media_sequence == before.media_sequence
    assert playlist_at(T0 + 100 + 86_400).media_sequence == before.media_sequence + 43_200


def test_the_same_instant_gives_the_same_playlist_everywhere():
    # No state: every process (and every reload) agrees, whatever it parsed or cached before.
    assert live_playlist(VOD, T0 + 123.4) == live_playlist(VOD_TEXT, T0 + 123.4)
    sample = LiveSample(VOD)
    span = sample.window(T0 + 123.4)
    assert span is not None
    assert sample.render(*span) == live_playlist(VOD, T0 + 123.4)


# --- the rewind window --------------------------------------------------------------------------


def test_the_window_holds_the_rewind_seconds_and_no_more():
    for now in (T0, T0 + 7, T0 + 19.9, T0 + 333):
        playlist = playlist_at(now, rewind=1800)
        assert len(playlist.segments) == 900
        assert playlist.duration == pytest.approx(1800)


@pytest.mark.parametrize("rewind", [6, 60, 600, 7200])
def test_the_rewind_setting_sets_the_window(rewind):
    assert playlist_at(T0 + 9, rewind=rewind).duration == pytest.approx(rewind)


def test_a_rewind_shorter_than_a_segment_still_lists_the_newest_one():
    assert len(playlist_at(T0 + 9, rewind=1).segments) == 1


def test_the_window_never_reaches_before_kickoff():
    kickoff = T0 - 300 + 0.5  # went live five minutes ago, between two segment boundaries
    playlist = playlist_at(T0, kickoff=kickoff)
    first = playlist.segments[0]
    assert first.date.timestamp() >= kickoff  # the segment running at kickoff is left out
    assert first.date.timestamp() - kickoff < 2
    assert playlist.duration == pytest.approx(298)  # five minutes of rewind, less the cut segment
    # Half an hour later the window is full and slides as usual.
    assert playlist_at(T0 + HOUR, kickoff=kickoff).duration == pytest.approx(1800)


def test_the_window_grows_from_kickoff_until_it_is_full():
    kickoff = T0
    sizes = [len(playlist_at(T0 + t, kickoff=kickoff).segments) for t in (2, 4, 60, 1800, 1802, 4000)]
    assert sizes == [1, 2, 30, 900, 900, 900]
    # While it grows, its first segment stays: the media sequence holds still.
    assert playlist_at(T0 + 4, kickoff=kickoff).media_sequence == playlist_at(T0 + 60, kickoff=kickoff).media_sequence


def test_a_stream_has_no_playlist_before_kickoff_nor_before_its_first_segment_ends():
    sample = LiveSample(VOD)
    assert sample.window(T0 - 60, kickoff=T0) is None
    assert live_playlist(VOD, T0 - 60, T0) is None
    assert sample.window(T0 + 1.9, kickoff=T0) is None  # kicked off, nothing finished yet
    assert sample.window(T0 + 2, kickoff=T0) == (T0 / 2, T0 / 2 + 1)
    assert sample.available_at(T0) == T0 + 2
    assert sample.available_at(T0 + 0.5) == T0 + 4  # the first whole segment after kickoff


def test_segment_numbers_do_not_depend_on_the_kickoff():
    # One timeline per sample: two events on it agree on what segment 1234 is and when it played.
    early, late = playlist_at(T0 + HOUR, kickoff=T0), playlist_at(T0 + HOUR, kickoff=T0 + HOUR - 100)
    by_sequence = {s.sequence: s.uri for s in early.segments}
    assert all(by_sequence[s.sequence] == s.uri for s in late.segments)
    assert late.segments[-1].sequence == early.segments[-1].sequence


# --- loops: discontinuities and wall-clock dates -------------------------------------------------


def test_each_loop_of_the_sample_is_marked_as_a_discontinuity():
    playlist = playlist_at(T0 + 10, rewind=20)  # segments T0-10 .. T0+8: index5..9, then 0..4
    assert [s.uri for s in playlist.segments] == [f"index{i}.ts" for i in (5, 6, 7, 8, 9, 0, 1, 2, 3, 4)]
    marked = [s.uri for s in playlist.segments if s.discontinuity_before]
    assert marked == ["index0.ts"]
    # A playlist never begins with one: nothing before its first segment to be discontinuous with.
    text = live_playlist(VOD, T0 + 20, T0, rewind_seconds=20)
    assert text is not None and "#EXT-X-DISCONTINUITY\n" not in text
    assert not playlist_at(T0 + 30, rewind=20).segments[0].discontinuity_before


def test_every_segments_discontinuity_number_is_its_loop_number_across_reloads():
    # RFC 8216 6.2.2: tags that leave the window raise EXT-X-DISCONTINUITY-SEQUENCE, so each
    # segment keeps its number from one reload to the next.
    for step in range(40):
        for rewind in (6, 20, 50):
            for segment in playlist_at(T0 + 2 * step, rewind=rewind).segments:
                assert segment.discontinuity == segment.sequence // 10, (step, rewind)


def test_a_window_longer_than_the_sample_loops_many_times():
    playlist = playlist_at(T0 + 11, rewind=60)  # T0 - 50 .. T0 + 10: wraps at T0 - 40, T0 - 20, T0
    assert sum(s.discontinuity_before for s in playlist.segments) == 3


def test_program_date_time_is_on_the_first_segment_and_after_each_discontinuity():
    playlist = playlist_at(T0 + 101, rewind=100)
    dated = [s for s in playlist.segments if s.date is not None]
    assert dated[0] is playlist.segments[0]
    assert dated[1:] == [s for s in playlist.segments if s.discontinuity_before] and len(dated) == 5
    # Each date is the wall-clock start of its segment: the live edge is the last finished one's end.
    start = playlist.segments[0].date.timestamp()
    for segment in playlist.segments:
        if segment.date is not None:
            assert segment.date.timestamp() == pytest.approx(start)
        start += segment.duration
    assert start == T0 + 100
    assert dated[0].date == datetime.fromtimestamp(T0, UTC)


# --- URIs and other samples ------------------------------------------------------------------------


def test_segment_uris_can_point_elsewhere_with_a_query():
    text = live_playlist(VOD, T0 + 4, uri_prefix="../vod/football/", uri_query="sig=abc")
    assert text is not None
    assert read_media_playlist(text).uris[-1] == "../vod/football/index1.ts?sig=abc"


def test_uneven_segments_use_their_own_durations():
    vod = VodPlaylist((Segment("a.ts", 2.0), Segment("b.ts", 1.5)), 2)  # a loop of 3.5 s
    base = 3.5 * 1_000_000
    assert playlist_at(base + 3.5, rewind=3.5, vod=vod).uris == ["a.ts", "b.ts"]
    assert playlist_at(base + 3.4, rewind=3.5, vod=vod).uris == ["b.ts", "a.ts"]  # b.ts: the previous loop
    assert playlist_at(base + 3.4, rewind=2, vod=vod).uris == ["a.ts"]
    assert playlist_at(base + 5.5, rewind=3.5, vod=vod).uris == ["b.ts", "a.ts"]
    assert LiveSample(vod).start_of(2_000_001) == pytest.approx(base + 2.0)


# --- rendered once per window position --------------------------------------------------------------


def test_a_window_position_is_rendered_once_and_compressed_once():
    import gzip

    sample = LiveSample(VOD)
    span = sample.window(T0 + 50)
    assert span is not None
    plain = sample.encoded(*span)
    assert sample.encoded(*span) is plain
    packed = sample.encoded(*span, compressed=True)
    assert sample.encoded(*span, compressed=True) is packed
    assert gzip.decompress(packed) == plain == sample.render(*span).encode()
    assert len(packed) < len(plain) / 10


def test_the_rendered_playlists_kept_stay_few():
    sample = LiveSample(VOD)
    for step in range(500):
        span = sample.window(T0 + 2 * step)
        assert span is not None
        sample.encoded(*span)
    assert len(sample._rendered) <= 64
