"""`touchline ingest status [EVENT_ID] [--watch]` against a live server: one event's ingest as a
panel (or the API's JSON), every live event and channel at a glance, and a watch that refreshes
until Ctrl-C."""

import asyncio
import json
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from cli.commands import watch_loop
from cli.main import app
from cli.tests.conftest import PASSWORD, SQLITE, server_settings, threaded_server
from server.settings import Settings
from server.tests.accounts import create_user
from server.tests.api.admin.test_event_ingest import SEGMENT_BYTES, recording_of
from server.tests.billing import private_database

from .test_events import CLEAN_ENV, create

runner = CliRunner()
HEALTH_FIELDS = {
    "event",
    "state",
    "asset",
    "publishing",
    "renditions",
    "video",
    "audio",
    "bitrateKbps",
    "speed",
    "behindRealTime",
    "droppedFrames",
    "duplicatedFrames",
    "lastSegmentAgeSeconds",
    "restarts",
    "reconnects",
    "viewers",
    "transcoderHere",
    "autostart",
    "dvrSeconds",
}


def status(server, *args: str):
    staff = {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }
    return runner.invoke(app, ["ingest", "status", *args], env={**CLEAN_ENV, **staff})


def test_an_event_without_an_encoder_is_shown_idle_in_its_panel(live_server):
    event = create(live_server)
    result = status(live_server, event["_id"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert f"Ingest of event {event['_id']}" in text
    assert "State idle" in text and "Encoder not publishing" in text and "Viewers 0" in text
    assert "Auto-start near kickoff" in text and "Rewind 120 min" in text


async def test_a_recording_on_air_elsewhere_shows_its_bitrate_and_last_segment(live_server, accounts_db):
    event = await asyncio.to_thread(create, live_server)
    asset = await recording_of(accounts_db.database, Settings(), event["_id"], state="reconnecting")
    result = await asyncio.to_thread(status, live_server, event["_id"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "State reconnecting" in text and f"Recording {asset}" in text
    assert f"Bitrate {SEGMENT_BYTES * 8 / 2 / 1000:,.0f} kbit/s" in text and "s ago" in text
    assert "Renditions 720p, 360p" in text
    # This server runs no transcoder: what only the transcoder knows is unknown, and it says why.
    assert "Speed -" in text and "Input -" in text and "Only the server process that runs the transcoder knows" in text


def test_json_prints_the_health_the_api_gives(live_server):
    event = create(live_server)
    result = status(live_server, "--json", event["_id"])
    assert result.exit_code == 0, result.output
    health = json.loads(result.stdout)
    assert set(health) == HEALTH_FIELDS and (health["event"], health["state"]) == (event["_id"], "idle")


def test_without_an_event_every_live_event_and_channel_is_listed_with_its_ingest(live_server):
    live = create(live_server, "--status", "live", title="Live for the ingest overview")
    channel = create(live_server, "--status", "channel", "--type", "channel", title="A channel for the overview")
    table = status(live_server)
    assert table.exit_code == 0, table.output
    rows = {line.split()[0]: line for line in table.stdout.splitlines() if line.strip()}
    assert "idle" in rows[live["_id"]] and "idle" in rows[channel["_id"]]
    listed = json.loads(status(live_server, "--json").stdout)
    mine = {entry["_id"]: entry for entry in listed if entry["_id"] in (live["_id"], channel["_id"])}
    assert mine[live["_id"]]["status"] == "live" and mine[channel["_id"]]["status"] == "channel"
    assert set(mine[live["_id"]]) == {"_id", "title", "status", "ingest"}
    assert set(mine[live["_id"]]["ingest"]) == HEALTH_FIELDS


@pytest.fixture
async def quiet_server(tmp_path):
    """A server of its own, where nothing is live."""
    async with private_database(SQLITE, tmp_path) as database:
        staff = await create_user(database, role="admin")
        with threaded_server(server_settings(database.url)) as url:
            yield SimpleNamespace(url=url, staff=staff)


async def test_without_live_events_it_says_so(quiet_server):
    result = await asyncio.to_thread(status, quiet_server)
    assert result.exit_code == 0, result.output
    assert "No event is live and no channel is on" in result.stdout
    assert json.loads((await asyncio.to_thread(status, quiet_server, "--json")).stdout) == []


def ctrl_c_after(looks: int):
    """A pause between looks that is Ctrl-C once `looks` looks were taken."""
    taken = 0

    async def pause(seconds: float) -> None:
        nonlocal taken
        taken += 1
        if taken >= looks:
            raise KeyboardInterrupt

    return pause


def test_watch_prints_one_json_line_per_look_until_ctrl_c(live_server, monkeypatch):
    event = create(live_server)
    monkeypatch.setattr(watch_loop, "pause", ctrl_c_after(2))
    result = status(live_server, "--json", event["_id"], "--watch")
    assert result.exit_code == 0, result.output
    looks = [json.loads(line) for line in result.stdout.splitlines()]
    assert [look["state"] for look in looks] == ["idle", "idle"]
    assert "Stopped watching." in result.stderr


def test_watch_draws_the_panel_until_ctrl_c(live_server, monkeypatch):
    event = create(live_server)
    monkeypatch.setattr(watch_loop, "pause", ctrl_c_after(1))
    result = status(live_server, event["_id"], "--watch")
    assert result.exit_code == 0, result.output
    assert f"Ingest of event {event['_id']}" in result.stdout and "Stopped watching." in result.stderr


def test_a_malformed_event_id_stops_before_any_request(live_server):
    result = status(live_server, "not-an-id")
    assert result.exit_code == 1 and "is not an event id" in result.output
