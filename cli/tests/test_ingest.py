"""`touchline ingest key …` against a live server: the key is printed once with the URLs to paste
into an encoder, lists never show it, rotation and revocation stop the old one."""

import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD, SECRET, server_settings, threaded_server
from server.media.sources.rtmp import RtmpIngest
from server.media.sources.stream_keys import key_hash, srt_passphrase
from server.tests.media.sources.test_rtmp import free_port, publish

from .test_events import CLEAN_ENV, create

runner = CliRunner()


def staff_runs(server, *args: str):
    """`touchline ingest ARGS…` as the server's staff account."""
    staff = {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }
    return runner.invoke(app, ["ingest", *args], env={**CLEAN_ENV, **staff})


def ingest(server, *args: str):
    return staff_runs(server, "key", *args)


def test_a_key_is_printed_once_with_its_urls_and_json_has_exactly_them(live_server):
    event = create(live_server)
    made = ingest(live_server, "create", event["_id"])
    assert made.exit_code == 0, made.output
    said = dict(line.split(": ", 1) for line in made.output.splitlines() if ": " in line)
    key = said["Key"].strip()
    assert key.startswith("tlk_") and said["RTMP"].strip().endswith(f"/live/{key}")
    passphrase = srt_passphrase(SECRET, key_hash(key))
    assert said["SRT"].strip().endswith(f"?streamid={key}&passphrase={passphrase}")
    listed = ingest(live_server, "list", event["_id"])
    assert listed.exit_code == 0 and "in force" in listed.output
    assert key not in listed.output and key[-4:] in listed.output
    rotated = json.loads(ingest(live_server, "rotate", event["_id"], "--json").stdout)
    assert sorted(rotated) == ["key", "rtmp_url", "srt_url"] and rotated["key"] != key
    assert rotated["rtmp_url"] == f"rtmp://127.0.0.1:1935/live/{rotated['key']}"
    revoked = ingest(live_server, "revoke", event["_id"])
    assert revoked.exit_code == 0 and f"Revoked the stream key of event {event['_id']}" in revoked.output
    again = ingest(live_server, "revoke", event["_id"])
    assert again.exit_code == 1 and "no stream key in force" in again.output


def test_a_malformed_event_id_stops_before_any_request(live_server):
    result = ingest(live_server, "create", "not-an-id")
    assert result.exit_code == 1 and "is not an event id" in result.output


def test_the_server_runs_nginx_rtmp_itself_and_its_hook_lets_in_the_events_key(accounts_db, tmp_path):
    """What `make run` gives an operator: `touchline serve` starts nginx's RTMP module as its
    child, which asks the server itself about each publisher."""
    settings = server_settings(accounts_db.url).model_copy(
        update={"ingest_enabled": True, "rtmp_port": free_port(), "var_dir": tmp_path}
    )
    with threaded_server(settings) as url:
        server = SimpleNamespace(url=url, staff=accounts_db.staff)
        event = create(server)
        key = json.loads(ingest(server, "create", event["_id"], "--json").stdout)["key"]
        ingest_at = RtmpIngest("127.0.0.1", settings.rtmp_port, "", "")
        wait_for_port(settings.rtmp_port)
        assert publish(ingest_at, "tlk_" + "x" * 32).returncode != 0
        published = publish(ingest_at, key)
        assert published.returncode == 0, published.stderr
        prefix = tmp_path / "ingest" / str(settings.port)
        assert (prefix / "nginx.conf").is_file() and (prefix / "nginx.pid").is_file()
    # The server stopped its nginx with it (nginx removes its pid file as it exits).
    deadline = time.monotonic() + 10
    while (prefix / "nginx.pid").exists():
        assert time.monotonic() < deadline, "nginx outlived the server"
        time.sleep(0.1)


def test_take_over_drops_the_encoder_publishing_for_the_next_one_through_the_servers_nginx(accounts_db, tmp_path):
    settings = server_settings(accounts_db.url).model_copy(
        update={"ingest_enabled": True, "rtmp_port": free_port(), "var_dir": tmp_path}
    )
    with threaded_server(settings) as url, ThreadPoolExecutor(2) as encoders:
        server = SimpleNamespace(url=url, staff=accounts_db.staff)
        event = create(server)
        idle = ingest(server, "take-over", event["_id"])
        assert idle.exit_code == 1 and "no stream key in force" in idle.output
        key = json.loads(ingest(server, "create", event["_id"], "--json").stdout)["key"]
        ingest_at = RtmpIngest("127.0.0.1", settings.rtmp_port, "", "")
        wait_for_port(settings.rtmp_port)
        first = encoders.submit(publish, ingest_at, key, 30)
        deadline = time.monotonic() + 15
        while "publishing" not in ingest(server, "list", event["_id"]).output:
            assert time.monotonic() < deadline and not first.done(), "the first encoder never published"
            time.sleep(0.5)
        allowed = ingest(server, "take-over", event["_id"])
        assert allowed.exit_code == 0 and "takes over" in allowed.output, allowed.output
        assert "take-over allowed" in ingest(server, "list", event["_id"]).output
        second = encoders.submit(publish, ingest_at, key, 4)
        assert first.result(timeout=20).returncode != 0  # dropped long before its 30 s
        assert second.result(timeout=30).returncode == 0


def test_a_key_made_with_an_expiry_says_until_when_and_a_bad_one_stops_before_any_request(live_server):
    event = create(live_server)
    bad = ingest(live_server, "create", event["_id"], "--expires", "next week")
    assert bad.exit_code == 1 and "is not a date" in bad.output
    made = ingest(live_server, "create", event["_id"], "--expires", "2099-12-31")
    assert made.exit_code == 0 and "may connect with it until 2099-12-31 23:59 UTC" in made.output
    assert "in force until 2099-12-31 23:59" in ingest(live_server, "list", event["_id"]).output
    past = ingest(live_server, "rotate", event["_id"], "--expires", "2020-01-01")
    assert past.exit_code == 1 and "expiresAt is in the past" in past.output


def settings_of(server, *args: str):
    return staff_runs(server, "settings", *args)


def test_settings_arm_auto_start_and_set_the_rewind_window_then_go_back_to_the_defaults(live_server):
    event = create(live_server)["_id"]
    armed = settings_of(live_server, event, "--autostart", "armed", "--dvr-minutes", "45")
    assert armed.exit_code == 0, armed.output
    assert "auto-start armed: live at the first segments" in armed.output and "up to 45 min" in armed.output
    back = json.loads(settings_of(live_server, event, "--autostart", "kickoff", "--dvr-default", "--json").stdout)
    assert (back["autostart"], back["dvrSeconds"]) == (None, 7200)
    nothing = settings_of(live_server, event)
    assert nothing.exit_code == 2 and "say what to change" in nothing.output
    both = settings_of(live_server, event, "--dvr-minutes", "10", "--dvr-default")
    assert both.exit_code == 2 and "exclude each other" in both.output


def wait_for_port(port: int, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
