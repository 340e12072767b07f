"""A clip's seek-preview cues (server.media.delivery.thumbnails), as data: the asset's cues that
overlap its range, moved onto the clip's own timeline, which begins with its first segment."""

import pytest

from server.media.delivery.thumbnails import VttCue, clip_cues, parse_vtt, render_vtt
from server.media.packaging import previews


def test_the_packagers_webvtt_reads_back_cue_for_cue():
    planned = previews.cues(3_725, 10, 90)
    read = parse_vtt(previews.webvtt(planned))
    assert len(read) == len(planned) == 373
    assert read[0] == VttCue(0, 10_000, "thumbs-001.jpg#xywh=0,0,160,90")
    assert read[-1] == VttCue(3_720_000, 3_725_000, "thumbs-004.jpg#xywh=320,630,160,90")
    assert read[-1].sheet == "thumbs-004.jpg"
    assert render_vtt(read) == previews.webvtt(planned)


def test_other_webvtt_files_read_too_identifiers_settings_and_short_times_included():
    lines = ["\ufeffWEBVTT - made elsewhere", "", "NOTE a comment", "", "first"]
    lines += ["01:02.500 --> 01:04.000 align:start", "sheet.jpg#xywh=1,2,3,4", ""]
    text = "\r\n".join(lines)
    assert parse_vtt(text) == [VttCue(62_500, 64_000, "sheet.jpg#xywh=1,2,3,4")]


@pytest.mark.parametrize("text", ["", "not a vtt", "<html>WEBVTT</html>"])
def test_what_is_no_webvtt_is_refused(text):
    with pytest.raises(ValueError):
        parse_vtt(text)


def test_a_clip_keeps_the_cues_overlapping_its_range_on_a_timeline_from_its_first_segment():
    asset = [VttCue(k * 2_000, (k + 1) * 2_000, f"thumbs-001.jpg#xywh={k},0,160,90") for k in range(10)]
    # [5 s, 9 s) of the asset; its first segment began at 4 s.
    kept = clip_cues(asset, 5_000, 9_000, 4_000)
    assert kept == [
        VttCue(0, 2_000, "thumbs-001.jpg#xywh=2,0,160,90"),  # 4-6 s
        VttCue(2_000, 4_000, "thumbs-001.jpg#xywh=3,0,160,90"),
        VttCue(4_000, 6_000, "thumbs-001.jpg#xywh=4,0,160,90"),  # 8-10 s: ends past the range, overlaps it
    ]
    # A segment that began inside a thumbnail's span: that cue begins at 0.
    assert clip_cues(asset, 5_000, 6_000, 5_000)[0] == VttCue(0, 1_000, "thumbs-001.jpg#xywh=2,0,160,90")
    # Cues touching the range without overlapping it are left out; a range past them all keeps none.
    assert clip_cues(asset, 6_000, 8_000, 6_000) == [VttCue(0, 2_000, "thumbs-001.jpg#xywh=3,0,160,90")]
    assert clip_cues(asset, 30_000, 40_000, 30_000) == []
    assert render_vtt([]) == "WEBVTT\n"
