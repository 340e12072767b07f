"""`touchline media upload` and `touchline jobs …` as admin staff run them (CliRunner), through the
real tus client (tuspy) against a real server that transcodes with the real ffmpeg (issue 29)."""

import hashlib
import json
import time
from types import SimpleNamespace

import httpx
import pytest
from requests.exceptions import ConnectionError as RequestsConnectionError
from tusclient.uploader.uploader import Uploader
from typer.testing import CliRunner

from cli.commands import media
from cli.main import app
from cli.tests.conftest import PASSWORD, server_settings, threaded_server
from server.media.sources.upload_files import UploadFiles
from server.tests.media.sources.videos import make_audio_only, make_video

from .test_events import CLEAN_ENV, create

runner = CliRunner()


def touchline(server, *args: str):
    staff = {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }
    return runner.invoke(app, list(args), env={**CLEAN_ENV, **staff})


def job_of(server, job_id: str) -> dict:
    result = touchline(server, "jobs", "show", job_id, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["job"]


def until_done(server, job_id: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = job_of(server, job_id)
        if job["state"] not in ("queued", "running"):
            return job
        time.sleep(0.5)
    raise AssertionError(f"job {job_id} still {job['state']} after {timeout} s")


def test_a_720p_upload_through_the_cli_is_transcoded_into_a_ladder_of_three(live_server, tmp_path):
    event = create(live_server)
    video = make_video(tmp_path / "final.mp4", seconds=6, size="1280x720")
    uploaded = touchline(
        live_server, "media", "upload", str(video), "--event", event["_id"], "--title", "Final", "--json"
    )
    assert uploaded.exit_code == 0, uploaded.output
    result = json.loads(uploaded.stdout)
    assert result["bytes"] == video.stat().st_size and result["event"] == event["_id"]
    job = result["transcoding"]  # the command followed the job to its end
    assert (job["_id"], job["state"], job["percent"], job["asset"]) == (result["job"], "done", 100.0, result["asset"])
    listed = touchline(live_server, "jobs", "list")
    assert listed.exit_code == 0 and result["job"] in listed.output and "done" in listed.output
    media_list = touchline(live_server, "media", "list", event["_id"])
    assert media_list.exit_code == 0 and result["asset"] in media_list.output
    assert "upload" in media_list.output and "Final" in media_list.output and "0:06" in media_list.output
    assets = httpx.get(
        f"{live_server.url}/api/admin/events/{event['_id']}/assets",
        headers={"Authorization": f"Bearer {_token(live_server)}"},
    ).json()["content"]["assets"]
    [asset] = [a for a in assets if a["_id"] == result["asset"]]
    assert (asset["kind"], asset["state"], asset["title"]) == ("upload", "ready", "Final")
    assert asset["durationMs"] == pytest.approx(6000, abs=100)


def test_a_file_that_is_no_video_is_refused_with_the_servers_reason(live_server, tmp_path):
    event = create(live_server)
    refused = touchline(
        live_server, "media", "upload", str(make_audio_only(tmp_path / "song.m4a")), "--event", event["_id"]
    )
    assert refused.exit_code == 1
    assert "The upload was refused: The file has no video stream" in refused.output
    assert "no_video_stream" in refused.output and "Traceback" not in refused.output


def test_a_malformed_event_id_or_a_missing_file_stops_before_any_request(live_server, tmp_path):
    missing = touchline(live_server, "media", "upload", str(tmp_path / "nothing.mp4"), "--event", "f" * 24)
    assert missing.exit_code == 1 and "is not a file" in missing.output
    bad = touchline(live_server, "media", "upload", str(make_video(tmp_path / "v.mp4", seconds=1)), "--event", "x")
    assert bad.exit_code == 1 and "is not an event id" in bad.output


@pytest.fixture
def server_without_transcoding(accounts_db):
    """A server whose queue runs nothing: a complete upload's source stays for the test to read."""
    settings = server_settings(accounts_db.url).model_copy(update={"transcode_concurrency": 0})
    with threaded_server(settings) as url:
        yield SimpleNamespace(url=url, staff=accounts_db.staff, settings=settings)


def test_an_upload_cut_off_half_way_resumes_from_the_server_s_offset_and_arrives_byte_for_byte(
    server_without_transcoding, tmp_path, monkeypatch
):
    server = server_without_transcoding
    event = create(server)
    video = make_video(tmp_path / "match.mp4", seconds=4, size="640x360")
    monkeypatch.setattr(media, "CHUNK_BYTES", 64 * 1024)
    sent: list[int] = []
    real_chunk = Uploader.upload_chunk

    def cut_after_three(self):
        if len(sent) == 3:
            raise RequestsConnectionError("the network went away")
        sent.append(self.offset)
        real_chunk(self)

    monkeypatch.setattr(Uploader, "upload_chunk", cut_after_three)
    cut = touchline(server, "media", "upload", str(video), "--event", event["_id"])
    assert cut.exit_code == 1 and "run the command again to resume the upload" in cut.output
    assert sent == [0, 64 * 1024, 128 * 1024]

    resumed_from: list[int] = []

    def record(self):
        resumed_from.append(self.offset)
        real_chunk(self)

    monkeypatch.setattr(Uploader, "upload_chunk", record)
    again = touchline(server, "media", "upload", str(video), "--event", event["_id"], "--json", "--no-wait")
    assert again.exit_code == 0, again.output
    assert resumed_from[0] == 3 * 64 * 1024  # not from zero
    job_id = json.loads(again.stdout)["job"]
    source = UploadFiles(server.settings.media_dir).source(job_id)
    assert hashlib.sha256(source.read_bytes()).hexdigest() == hashlib.sha256(video.read_bytes()).hexdigest()
    cancelled = touchline(server, "jobs", "cancel", job_id)
    assert cancelled.exit_code == 0 and "Cancelled transcoding job" in cancelled.output
    assert not source.exists()


def test_an_upload_as_an_archive_is_followed_to_its_publication_then_cut_shown_and_deleted(live_server, tmp_path):
    event = create(live_server)
    video = make_video(tmp_path / "final.mp4", seconds=8)
    uploaded = touchline(live_server, "media", "upload", str(video), "--event", event["_id"], "--as", "archive")
    assert uploaded.exit_code == 0, uploaded.output
    assert "Transcoded: asset" in uploaded.output and f"Published as archive: event {event['_id']}" in uploaded.output
    asset = uploaded.output.split("Transcoded: asset ", 1)[1].split()[0]
    shown = touchline(live_server, "media", "show", asset)
    assert shown.exit_code == 0, shown.output
    assert f"Played by: {event['_id']}" in shown.output and "done" in shown.output
    cut = touchline(
        live_server, "media", "cut", asset, "--from", "0:02", "--to", "6", "--title", "Kickoff", "--as", "clip"
    )
    assert cut.exit_code == 0, cut.output
    assert "Cut clip" in cut.output and "/clip-2000-6000.m3u8" in cut.output
    refused = touchline(live_server, "media", "delete", asset, "--yes")
    assert refused.exit_code == 1 and "asset_in_use" in refused.output and event["_id"] in refused.output
    forced = touchline(live_server, "media", "delete", asset, "--yes", "--force")
    assert forced.exit_code == 0, forced.output
    assert f"Deleted {asset}" in forced.output and event["_id"] in forced.output
    listed = touchline(live_server, "media", "list")
    assert listed.exit_code == 0 and asset not in listed.output


def test_stopped_while_transcoding_the_same_command_follows_the_job_rather_than_upload_again(
    live_server, tmp_path, monkeypatch
):
    event = create(live_server)
    video = make_video(tmp_path / "recap.mp4", seconds=4)
    real_follow = media._follow

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(media, "_follow", interrupted)
    stopped = touchline(live_server, "media", "upload", str(video), "--event", event["_id"])
    assert stopped.exit_code == 130 and "Run the same command again to follow it" in stopped.output
    monkeypatch.setattr(media, "_follow", real_follow)
    monkeypatch.setattr(Uploader, "upload_chunk", lambda self: pytest.fail("the file was sent again"))
    again = touchline(live_server, "media", "upload", str(video), "--event", event["_id"])
    assert again.exit_code == 0, again.output
    assert "was uploaded already: following its transcoding job" in again.output and "Transcoded: asset" in again.output
    assert "touchline media attach" in again.output  # not published: it was not asked to be


@pytest.mark.parametrize("value", ["abc", "1:75", "-3"])
def test_a_cut_at_a_time_that_is_no_time_stops_before_any_request(live_server, value):
    result = touchline(live_server, "media", "cut", "a" * 24, "--from", value, "--to", "10", "--title", "x")
    assert result.exit_code == 1 and "is not a time" in result.output


def _token(server) -> str:
    answer = httpx.post(
        f"{server.url}/api/user/login",
        json={"username": server.staff, "password": PASSWORD, "device_id": "cli-media-test", "device_name": "test"},
    )
    return answer.json()["content"]["tokenData"]["access_token"]
