"""The transcoder's report beside its recording (server.media.packaging.report): what another
process of a cluster reads to answer staff, and only while it is fresh."""

from server.media.packaging.ladder import Source
from server.media.packaging.progress import Progress
from server.media.packaging.report import FRESH_SECONDS, REPORT_FILE, TranscoderReport, fresh_report, write_report

SOURCE = Source(1280, 720, 29.97, has_audio=True, video_codec="h264", audio_codec="aac")
PROGRESS = Progress(
    frame=900,
    fps=30.0,
    speed=1.01,
    bitrate_kbps=None,
    out_seconds=30.0,
    dropped_frames=0,
    duplicated_frames=2,
    ended=False,
)


def test_a_report_written_now_is_read_back_whole(tmp_path):
    written = TranscoderReport(SOURCE, PROGRESS, restarts=1, reconnects=2, written_at=1_000.0)
    write_report(tmp_path, written)
    assert fresh_report(tmp_path, now=1_003.0) == written


def test_a_report_older_than_ten_seconds_is_of_a_transcoder_that_is_gone(tmp_path):
    write_report(tmp_path, TranscoderReport(SOURCE, PROGRESS, 0, 0, written_at=1_000.0))
    assert fresh_report(tmp_path, now=1_000.0 + FRESH_SECONDS + 0.1) is None


def test_a_transcoder_that_knows_nothing_yet_reports_nothing_unknown(tmp_path):
    write_report(tmp_path, TranscoderReport(None, None, 0, 0, written_at=5.0))
    report = fresh_report(tmp_path, now=5.0)
    assert report is not None and report.source is None and report.progress is None


def test_no_report_or_a_broken_one_says_nothing(tmp_path):
    assert fresh_report(tmp_path, now=0.0) is None
    (tmp_path / REPORT_FILE).write_text("{not json")
    assert fresh_report(tmp_path, now=0.0) is None
