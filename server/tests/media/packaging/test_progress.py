"""ffmpeg's -progress lines become the transcoder's health (issue 28 §5)."""

from server.media.packaging.progress import snapshots

BLOCK = """frame=120
fps=29.97
stream_0_0_q=23.0
bitrate=1534.2kbits/s
total_size=768000
out_time_us=4010667
out_time_ms=4010667
out_time=00:00:04.010667
dup_frames=2
drop_frames=1
speed=1.02x
progress=continue
"""


def test_each_block_is_one_snapshot_of_speed_frames_and_losses():
    [progress] = list(snapshots(BLOCK.splitlines()))
    assert (progress.frame, progress.fps, progress.speed, progress.bitrate_kbps) == (120, 29.97, 1.02, 1534.2)
    assert progress.out_seconds == 4.010667
    assert (progress.dropped_frames, progress.duplicated_frames) == (1, 2)
    assert not progress.ended and not progress.behind_real_time


def test_values_ffmpeg_cannot_tell_yet_are_unknown_not_zero_speed():
    start = "frame=0\nfps=0.00\nbitrate=N/A\nout_time_us=N/A\nspeed=N/A\nprogress=continue\n"
    [progress] = list(snapshots(start.splitlines()))
    assert progress.speed is None and progress.bitrate_kbps is None and progress.out_seconds == 0
    assert not progress.behind_real_time


def test_an_encoder_slower_than_real_time_is_behind():
    [progress] = list(snapshots(BLOCK.replace("speed=1.02x", "speed=0.81x").splitlines()))
    assert progress.behind_real_time


def test_blocks_follow_one_another_and_the_last_says_ffmpeg_ended():
    lines = (BLOCK + BLOCK.replace("frame=120", "frame=180").replace("continue", "end")).splitlines()
    first, last = snapshots(lines)
    assert (first.frame, first.ended) == (120, False)
    assert (last.frame, last.ended) == (180, True)


def test_an_unfinished_block_and_stray_lines_give_nothing():
    assert list(snapshots(["frame=1", "not a field", "fps=2"])) == []
