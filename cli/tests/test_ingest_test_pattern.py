"""`touchline ingest test-pattern` publishes through the real ingest (the server's own nginx-rtmp and
its publish hook) with the event's key, as an operator checks a chain: it makes the key when the
event has none, refuses to guess one in force, rotates when asked, and says what the ingest
refused. SRT is checked as data (test_pattern_encoder.py)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from cli.commands import pattern_publisher
from cli.commands.staff_options import StaffOptions
from cli.main import app
from cli.tests.conftest import PASSWORD, server_settings, threaded_server
from server.tests.media.sources.test_rtmp import free_port

from .test_events import CLEAN_ENV, create
from .test_ingest import wait_for_port

runner = CliRunner()
NOBODY = "f" * 24
ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--resolution", "320x180"]  # the machine's 2 cores serve other work too


def staff_env(server) -> dict[str, str]:
    return {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }


def ingest(server, *args: str):
    return runner.invoke(app, ["ingest", *args], env={**CLEAN_ENV, **staff_env(server)})


def keys_of(server, event_id: str) -> list[dict]:
    listed = ingest(server, "key", "list", event_id, "--json")
    assert listed.exit_code == 0, listed.output
    return json.loads(listed.stdout)["keys"]


# --- options -------------------------------------------------------------------------------------


@pytest.fixture
def clients_made(monkeypatch) -> list[StaffOptions]:
    made: list[StaffOptions] = []
    monkeypatch.setattr(StaffOptions, "client", lambda self, **kwargs: made.append(self))
    return made


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--resolution", "1279x720"], "even numbers"),
        (["--resolution", "big"], "WIDTHxHEIGHT"),
        (["--duration", "0"], "--duration"),
        (["--duration", "86401"], "--duration"),
        (["--fps", "0"], "--fps"),
        (["--protocol", "udp"], "--protocol"),
        (["--url", "srt://127.0.0.1:9000?streamid=tlk_x", "--protocol", "rtmp"], "an SRT URL"),
        (["--url", "http://127.0.0.1/live/tlk_x"], "not an RTMP or SRT publish URL"),
        (["--url", "rtmp://127.0.0.1:1935/live/tlk_x", "--rotate"], "not with --url"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_options_that_cannot_work_are_usage_errors_before_any_request(args, said, clients_made):
    result = runner.invoke(app, ["ingest", "test-pattern", NOBODY, *args], env={**CLEAN_ENV, "COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert clients_made == []


def test_without_ffmpeg_it_names_the_package_before_any_request(clients_made, monkeypatch):
    monkeypatch.setattr(pattern_publisher.shutil, "which", lambda name: None)
    result = runner.invoke(app, ["ingest", "test-pattern", NOBODY], env=CLEAN_ENV)
    assert result.exit_code == 1
    assert "Error: ffmpeg is not installed: install the `ffmpeg` package" in result.stderr
    assert clients_made == []


def test_without_a_font_for_the_clock_it_names_the_package_before_any_request(clients_made, monkeypatch):
    monkeypatch.setattr(pattern_publisher, "FONT_FILES", ())
    monkeypatch.setattr(pattern_publisher.shutil, "which", lambda name: None if name == "fc-match" else "ffmpeg")
    result = runner.invoke(app, ["ingest", "test-pattern", NOBODY], env=CLEAN_ENV)
    assert result.exit_code == 1
    assert "install the `fonts-dejavu-core` package" in result.stderr
    assert clients_made == []


# --- through the server's own nginx-rtmp -------------------------------------------------------


@pytest.fixture(scope="module")
def ingest_server(accounts_db, tmp_path_factory):
    """A server running its nginx-rtmp, as `make run` gives an operator."""
    settings = server_settings(accounts_db.url).model_copy(
        update={"ingest_enabled": True, "rtmp_port": free_port(), "var_dir": tmp_path_factory.mktemp("ingest")}
    )
    with threaded_server(settings) as url:
        wait_for_port(settings.rtmp_port)
        yield SimpleNamespace(url=url, staff=accounts_db.staff, rtmp_port=settings.rtmp_port)


def test_an_event_without_a_key_gets_one_printed_once_and_the_pattern_goes_through(ingest_server):
    event = create(ingest_server)["_id"]
    result = ingest(ingest_server, "test-pattern", event, "--duration", "3", *SMALL)
    assert result.exit_code == 0, result.output
    said = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    key = said["Key"].strip()
    assert said["RTMP"].strip().endswith(f"/live/{key}")
    # What it does is on stderr, the key masked there; the result on stdout.
    assert f"to event {event} over RTMP: 320x180 at 30 fps for 3 s" in result.stderr
    assert f"/live/…{key[-4:]}" in result.stderr and key not in result.stderr
    assert f"Published 3 s of the test pattern to event {event}." in result.stdout
    [listed] = keys_of(ingest_server, event)
    assert listed["lastPublishedAt"] is not None and listed["revokedAt"] is None


def test_a_key_in_force_is_not_guessed_the_printed_url_or_a_rotation_publishes(ingest_server):
    event = create(ingest_server)["_id"]
    made = ingest(ingest_server, "key", "create", event, "--json")
    rtmp_url = json.loads(made.stdout)["rtmp_url"]

    refused = ingest(ingest_server, "test-pattern", event, "--duration", "1", *SMALL)
    assert refused.exit_code == 1
    assert f"Event {event} has a stream key in force" in refused.stderr
    assert "--url" in refused.stderr and "--rotate" in refused.stderr
    assert keys_of(ingest_server, event)[0]["lastPublishedAt"] is None

    with_url = ingest(ingest_server, "test-pattern", event, "--url", rtmp_url, "--duration", "1", *SMALL)
    assert with_url.exit_code == 0, with_url.output
    assert "Key:" not in with_url.output and rtmp_url not in with_url.output

    rotated = ingest(ingest_server, "test-pattern", event, "--rotate", "--duration", "1", *SMALL)
    assert rotated.exit_code == 0, rotated.output
    assert rotated.stdout.startswith(f"Rotated the stream key of event {event}")
    new, old = keys_of(ingest_server, event)
    assert new["lastPublishedAt"] is not None and old["revokedAt"] is not None


def test_a_key_the_ingest_refuses_ends_with_ffmpegs_error_and_the_key_masked(ingest_server):
    wrong = "tlk_" + "x" * 28 + "Nope"
    url = f"rtmp://127.0.0.1:{ingest_server.rtmp_port}/live/{wrong}"
    result = ingest(ingest_server, "test-pattern", NOBODY, "--url", url, "--duration", "2", *SMALL)
    assert result.exit_code == 1
    [error] = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert error.startswith("Error: ffmpeg stopped before the end: ") and "Input/output error" in error
    assert wrong not in result.output and "…Nope" in result.output


def test_ctrl_c_stops_ffmpeg_and_the_ingest_sees_the_encoder_leave(ingest_server, tmp_path):
    event = create(ingest_server)["_id"]
    rtmp_url = json.loads(ingest(ingest_server, "key", "create", event, "--json").stdout)["rtmp_url"]
    # The real program, in a process of its own, as a terminal runs it.
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TOUCHLINE_")}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli.main",
            *("ingest", "test-pattern", event, "--url", rtmp_url, "--duration", "60"),
            *SMALL,
        ],
        cwd=ROOT,
        env={**clean, "TOUCHLINE_CONFIG_DIR": str(tmp_path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: keys_of(ingest_server, event)[0]["publishing"], "the encoder publishing")
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "Stopped" in stderr and "Traceback" not in stderr
    wait_until(lambda: not keys_of(ingest_server, event)[0]["publishing"], "the encoder gone")


def wait_until(condition, what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.2)
