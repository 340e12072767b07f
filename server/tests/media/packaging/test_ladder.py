"""The ladder is planned from the source: from its height down, never upscaled (issue 28 §3)."""

import pytest

from server.media.packaging.ladder import NotAVideo, Source, keyframe_interval, plan


def heights(source: Source) -> list[int]:
    return [rendition.height for rendition in plan(source)]


@pytest.mark.parametrize(
    ("width", "height", "expected"),
    [
        (1920, 1080, [720, 360, 234]),
        (1280, 720, [720, 360, 234]),
        (854, 480, [360, 234]),
        (640, 360, [360, 234]),
        (416, 234, [234]),
    ],
)
def test_renditions_go_from_the_source_down_and_are_never_upscaled(width, height, expected):
    assert heights(Source(width, height, 30, has_audio=True)) == expected


def test_a_source_smaller_than_every_rung_gets_one_rendition_of_its_own_size():
    [only] = plan(Source(320, 180, 25, has_audio=True))
    assert (only.name, only.width, only.height) == ("180p", 320, 180)
    assert 100 <= only.video_kbps < 300


def test_every_rendition_keeps_the_sources_shape_with_even_widths():
    four_three = plan(Source(960, 720, 30, has_audio=True))
    assert [(r.width, r.height) for r in four_three] == [(960, 720), (480, 360), (312, 234)]
    odd = plan(Source(1279, 719, 30, has_audio=True))
    assert all(r.width % 2 == 0 and r.height % 2 == 0 for r in odd)


def test_renditions_keep_the_frame_rate_capped_at_60_and_pay_for_more_motion():
    at_30 = plan(Source(1280, 720, 30, has_audio=True))
    at_60 = plan(Source(1280, 720, 60, has_audio=True))
    at_120 = plan(Source(1280, 720, 120, has_audio=True))
    assert {r.fps for r in at_60} == {60} and {r.fps for r in at_120} == {60}
    assert [r.video_kbps for r in at_60] == [2 * r.video_kbps for r in at_30]


@pytest.mark.parametrize(("fps", "seconds", "frames"), [(30, 2, 60), (25, 2, 50), (29.97, 2, 60), (60, 1, 60)])
def test_a_keyframe_opens_every_segment(fps, seconds, frames):
    assert keyframe_interval(fps, seconds) == frames


def test_the_source_is_read_from_ffprobe():
    probe = {
        "streams": [
            {"codec_type": "audio", "codec_name": "aac"},
            {
                "codec_type": "video",
                "codec_name": "h264",
                "width": 1920,
                "height": 1080,
                "avg_frame_rate": "30000/1001",
            },
        ]
    }
    source = Source.from_ffprobe(probe)
    assert (source.width, source.height, source.has_audio, source.video_codec) == (1920, 1080, True, "h264")
    assert source.fps == pytest.approx(29.97, abs=0.01)


def test_a_frame_rate_ffprobe_cannot_tell_falls_back_to_the_stream_rate_then_30():
    video = {"codec_type": "video", "width": 640, "height": 360, "avg_frame_rate": "0/0", "r_frame_rate": "25/1"}
    assert Source.from_ffprobe({"streams": [video]}).fps == 25
    assert Source.from_ffprobe({"streams": [{**video, "r_frame_rate": "0/0"}]}).fps == 30


@pytest.mark.parametrize(
    "streams",
    [[], [{"codec_type": "audio", "codec_name": "mp3"}], [{"codec_type": "video", "width": 0, "height": 0}]],
)
def test_an_input_without_a_picture_is_not_a_video(streams):
    with pytest.raises(NotAVideo):
        Source.from_ffprobe({"streams": streams})
