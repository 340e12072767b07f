"""Seek-preview thumbnails as data: one every 2-10 s depending on the length, 100 to a sprite
sheet, and WebVTT cues naming each one's sheet and place (the real ffmpeg makes them in
server/tests/transcoding)."""

from server.media.packaging.previews import cues, thumb_height, thumbnail_interval, webvtt


def test_the_interval_grows_with_the_length_between_two_and_ten_seconds():
    assert thumbnail_interval(45) == 2
    assert thumbnail_interval(30 * 60) == 6
    assert thumbnail_interval(2 * 3600) == 10
    assert thumbnail_interval(0.5) == 2


def test_thumbnails_keep_the_pictures_shape():
    assert thumb_height(1280, 720) == 90
    assert thumb_height(640, 480) == 120


def test_the_hundred_and_first_thumbnail_starts_the_second_sheet_and_the_last_ends_with_the_video():
    listed = cues(205, 2, 90)
    assert len(listed) == 103
    assert (listed[99].sheet, listed[99].x, listed[99].y) == ("thumbs-001.jpg", 1440, 810)
    assert (listed[100].sheet, listed[100].x, listed[100].y) == ("thumbs-002.jpg", 0, 0)
    assert (listed[-1].start, listed[-1].end) == (204, 205)


def test_cues_are_webvtt_with_media_fragment_places():
    text = webvtt(cues(3725, 10, 90)[-2:])
    assert text.startswith("WEBVTT\n\n")
    assert "01:01:50.000 --> 01:02:00.000\nthumbs-004.jpg#xywh=160,630,160,90\n" in text
    assert "01:02:00.000 --> 01:02:05.000\nthumbs-004.jpg#xywh=320,630,160,90\n" in text
