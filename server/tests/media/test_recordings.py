"""A live input's recording as playlists (server.media.recordings): the rewind window, the archive
and where a moment of the live lies in it."""

import os

import pytest

from server.media.recordings import RECORDING_FILE, Joiner, Recording, RecordingInfo, finalize, recorded

# As ffmpeg 5.1 writes it: EXTINF before the date-time, `+0000`, a discontinuity where a
# restarted transcoder continued, and one (meaningless) before the first segment.
WRITTEN = """#EXTM3U
#EXT-X-VERSION:6
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:EVENT
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-DISCONTINUITY
#EXTINF:2.000000,
#EXT-X-PROGRAM-DATE-TIME:2026-11-29T00:00:00.000+0000
rec-00000.ts
#EXTINF:2.000000,
#EXT-X-PROGRAM-DATE-TIME:2026-11-29T00:00:02.000+0000
rec-00001.ts
#EXTINF:1.000000,
#EXT-X-PROGRAM-DATE-TIME:2026-11-29T00:00:04.000+0000
rec-00002.ts
#EXT-X-DISCONTINUITY
#EXTINF:2.000000,
#EXT-X-PROGRAM-DATE-TIME:2026-11-29T00:00:35.000+0000
rec-00003.ts
#EXTINF:2.000000,
#EXT-X-PROGRAM-DATE-TIME:2026-11-29T00:00:37.000+0000
rec-00004.ts
"""
START = 1_795_910_400.0  # 2026-11-29T00:00:00Z


def tags(playlist: str, name: str) -> list[str]:
    return [line.split(":", 1)[1] for line in playlist.splitlines() if line.startswith(f"#{name}:")]


def uris(playlist: str) -> list[str]:
    return [line for line in playlist.splitlines() if line and not line.startswith("#")]


def test_the_transcoders_playlist_reads_as_segments_with_wall_clock_times_and_one_join():
    recording = Recording.parse(WRITTEN)
    assert [s.uri for s in recording.segments] == [f"rec-0000{i}.ts" for i in range(5)]
    assert recording.segments[0].started_at == START and recording.started_at == START
    assert [s.discontinuous for s in recording.segments] == [False, False, False, True, False]
    assert recording.duration == 9 and not recording.ended


def test_the_live_window_keeps_the_last_dvr_seconds_and_every_segment_keeps_its_numbers():
    recording = Recording.parse(WRITTEN)
    whole = recording.live_playlist(3600)
    assert uris(whole) == [f"rec-0000{i}.ts" for i in range(5)]
    assert tags(whole, "EXT-X-MEDIA-SEQUENCE") == ["0"] and tags(whole, "EXT-X-DISCONTINUITY-SEQUENCE") == ["0"]
    assert whole.count("#EXT-X-DISCONTINUITY\n") == 1 and "#EXT-X-ENDLIST" not in whole
    assert tags(whole, "EXT-X-PROGRAM-DATE-TIME")[3] == "2026-11-29T00:00:35.000Z"
    # Four seconds of rewind: the last two segments; the join is before the first listed one.
    short = recording.live_playlist(4)
    assert uris(short) == ["rec-00003.ts", "rec-00004.ts"]
    assert tags(short, "EXT-X-MEDIA-SEQUENCE") == ["3"] and tags(short, "EXT-X-DISCONTINUITY-SEQUENCE") == ["1"]
    assert "#EXT-X-DISCONTINUITY\n" not in short


def test_a_window_shorter_than_a_segment_still_lists_the_last_one():
    assert uris(Recording.parse(WRITTEN).live_playlist(0.5)) == ["rec-00004.ts"]


def test_the_archive_lists_every_segment_as_vod():
    vod = Recording.parse(WRITTEN).vod_playlist()
    assert "#EXT-X-PLAYLIST-TYPE:VOD" in vod and vod.endswith("#EXT-X-ENDLIST\n")
    assert uris(vod) == [f"rec-0000{i}.ts" for i in range(5)] and vod.count("#EXT-X-DISCONTINUITY\n") == 1


def test_a_moment_of_the_live_is_at_its_place_in_the_archive_which_leaves_out_the_encoders_absence():
    recording = Recording.parse(WRITTEN)
    assert recording.offset_ms(START + 1.5) == 1500
    assert recording.offset_ms(START + 4.5) == 4500
    # The encoder was away from 5 s to 35 s: a moment then is where the recording continued.
    assert recording.offset_ms(START + 20) == 5000
    assert recording.offset_ms(START + 36) == 6000
    assert recording.offset_ms(START - 10) == 0 and recording.offset_ms(START + 3600) == 9000


def test_what_is_not_a_media_playlist_is_refused():
    with pytest.raises(ValueError):
        Recording.parse("not a playlist")
    with pytest.raises(ValueError, match="master"):
        Recording.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n360p/index.m3u8\n")
    with pytest.raises(ValueError, match="nothing is recorded"):
        Recording.parse("#EXTM3U\n#EXT-X-TARGETDURATION:2\n").live_playlist(60)


def test_finishing_closes_every_renditions_playlist_and_gives_the_duration(tmp_path):
    info = RecordingInfo(7200, 2.0, ({"name": "360p"}, {"name": "234p"}))
    (tmp_path / RECORDING_FILE).write_bytes(info.dumps())
    (tmp_path / "index.m3u8").write_text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n360p/index.m3u8\n")
    for name in info.rendition_names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "run-1.m3u8").write_text(WRITTEN)
    assert finalize(tmp_path).duration == 9
    assert finalize(tmp_path).duration == 9  # again: the same archive
    for name in info.rendition_names:
        closed = (tmp_path / name / "index.m3u8").read_text()
        assert closed.endswith("#EXT-X-ENDLIST\n") and "#EXT-X-PLAYLIST-TYPE:VOD" in closed
    assert RecordingInfo.loads((tmp_path / RECORDING_FILE).read_bytes()) == info


def test_the_join_never_reopens_a_finished_recording_whatever_the_transcoder_writes_after(tmp_path):
    info = RecordingInfo(7200, 2.0, ({"name": "360p"},))
    (tmp_path / RECORDING_FILE).write_bytes(info.dumps())
    (tmp_path / "index.m3u8").write_text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n360p/index.m3u8\n")
    (tmp_path / "360p").mkdir()
    (tmp_path / "360p" / "run-1.m3u8").write_text(WRITTEN)
    joiner = Joiner(tmp_path, ("360p",))
    joiner.write()
    finalize(tmp_path)
    # The stopped transcoder's last words come after the finish: the archive stays closed.
    (tmp_path / "360p" / "run-2.m3u8").write_text(WRITTEN.replace("rec-0000", "r2-0000"))
    joiner.write()
    assert (tmp_path / "360p" / "index.m3u8").read_text().endswith("#EXT-X-ENDLIST\n")


def test_a_recording_with_nothing_in_it_cannot_be_finished(tmp_path):
    (tmp_path / RECORDING_FILE).write_bytes(RecordingInfo(60, 2.0, ({"name": "360p"},)).dumps())
    with pytest.raises(ValueError, match="nothing was recorded"):
        finalize(tmp_path)


def test_the_runs_of_a_rendition_join_in_order_and_an_empty_run_adds_nothing(tmp_path):
    second = WRITTEN.replace("rec-0000", "r2-0000").replace("2026-11-29T00:00", "2026-11-29T00:10")
    (tmp_path / "run-1.m3u8").write_text(WRITTEN)
    (tmp_path / "run-2.m3u8").write_text("")  # an ffmpeg stopped as it started
    (tmp_path / "run-10.m3u8").write_text(second)
    joined = recorded(tmp_path)
    assert [s.uri for s in joined.segments][4:6] == ["rec-00004.ts", "r2-00000.ts"]
    assert [i for i, s in enumerate(joined.segments) if s.discontinuous] == [3, 5, 8]
    assert Joiner(tmp_path.parent, (tmp_path.name,)).write()
    assert Recording.parse((tmp_path / "index.m3u8").read_text()) == joined


def test_a_clip_of_the_recording_lists_the_segments_that_cover_it_and_starts_at_its_moment():
    recording = Recording.parse(WRITTEN)
    assert list(recording.covering(1000, 3000)) == [0, 1]
    assert list(recording.covering(4500, 7000)) == [2, 3]  # 7 s is where segment 4 begins
    assert list(recording.covering(9000, 9500)) == []  # past the end
    clip = recording.range_playlist(4500, 8000)
    assert uris(clip) == ["rec-00002.ts", "rec-00003.ts", "rec-00004.ts"]
    assert "#EXT-X-START:TIME-OFFSET=0.500,PRECISE=YES" in clip and clip.endswith("#EXT-X-ENDLIST\n")
    # The encoder's drop inside the clip stays a discontinuity.
    assert clip.count("#EXT-X-DISCONTINUITY\n") == 1
    with pytest.raises(ValueError):
        recording.range_playlist(9000, 9500)


def test_a_catch_up_of_the_recording_plays_its_ranges_in_turn_apart_by_a_discontinuity():
    recording = Recording.parse(WRITTEN)
    reel = recording.range_playlist(500, 1500, more=[(7500, 8500)])
    assert uris(reel) == ["rec-00000.ts", "rec-00004.ts"]
    assert reel.count("#EXT-X-DISCONTINUITY\n") == 1 and reel.endswith("#EXT-X-ENDLIST\n")
    assert "#EXT-X-START:TIME-OFFSET=0.500,PRECISE=YES" in reel
    # Ranges that share a segment list it once, and follow on without a discontinuity.
    touching = recording.range_playlist(0, 2500, more=[(2100, 3500)])
    assert uris(touching) == ["rec-00000.ts", "rec-00001.ts"] and "#EXT-X-DISCONTINUITY" not in touching


def test_a_run_dated_later_than_its_first_segment_was_written_is_dated_back_by_the_difference():
    run = Recording.parse(WRITTEN)
    # Its first segment (2 s from START) was complete 1.5 s after START: ffmpeg dated it 0.5 s late.
    moved = run.written_by(START + 1.5)
    assert [s.started_at for s in moved.segments] == [
        s.started_at - 0.5 for s in run.segments if s.started_at is not None
    ]
    assert [(s.uri, s.duration, s.discontinuous) for s in moved.segments] == [
        (s.uri, s.duration, s.discontinuous) for s in run.segments
    ]


def test_a_run_dated_no_later_than_its_segments_were_written_keeps_its_dates():
    run = Recording.parse(WRITTEN)
    assert run.written_by(START + 2.3) == run
    assert run.written_by(None) == run


def test_every_rendition_of_a_run_is_dated_by_the_first_renditions_first_segment(tmp_path):
    info = RecordingInfo(7200, 2.0, ({"name": "360p"}, {"name": "234p"}))
    (tmp_path / RECORDING_FILE).write_bytes(info.dumps())
    for name, written in (("360p", START + 1.0), ("234p", START + 5.0)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "run-1.m3u8").write_text(WRITTEN)
        (tmp_path / name / "rec-00000.ts").write_bytes(b"")
        os.utime(tmp_path / name / "rec-00000.ts", (written, written))
    # 360p's first segment was written 1 s after START: both renditions' dates move back 1 s.
    for name in info.rendition_names:
        assert recorded(tmp_path / name).started_at == START - 1.0
