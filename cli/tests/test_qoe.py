"""`touchline qoe EVENT_ID [--since WHEN] [--until WHEN] [--watch]` against a live server, after
scripted viewers played the event (cli/tests/qoe_viewers.py): the figures in a panel with the
viewers' and the rebuffering's sparklines and the live input's state, a raised alert flagged, the
API's JSON for scripts, periods given as instants or ages, and failures in one line."""

import json
import socket
from datetime import UTC, datetime, timedelta, timezone

import pytest
from typer.testing import CliRunner

from cli.block_sparkline import BLOCKS
from cli.commands import qoe as qoe_command
from cli.commands import watch_loop
from cli.main import app
from cli.tests.conftest import PASSWORD

from . import qoe_viewers
from .test_events import CLEAN_ENV, create
from .test_ingest_status import ctrl_c_after

runner = CliRunner()
REPORT_FIELDS = {
    "event",
    "status",
    "ingest",
    "since",
    "until",
    "plays",
    "uniqueViewers",
    "startFailures",
    "exitsBeforeVideoStart",
    "startupMs",
    "rebufferingRatio",
    "averageBitrateKbps",
    "watchedSeconds",
    "rebufferSeconds",
    "concurrentViewers",
    "alerts",
    "series",
}
STALL_MS = 4_000  # 3.2 % of viewing time: under the server's 5 % alert
HEAVY_STALL_MS = 20_000  # 14.3 %: past it


def qoe(server, *args: str):
    staff = {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }
    return runner.invoke(app, ["qoe", *args], env={**CLEAN_ENV, **staff})


def figures_of(result) -> dict[str, str]:
    """The panel's figures by their label ('Start failures' → '1 technical · 1 business')."""
    figures_part = result.stdout.split(qoe_command.TRENDS)[0]
    rows = {}
    for line in figures_part.splitlines():
        cells = [cell.strip() for cell in line.strip("│ ").split("  ") if cell.strip()]
        if len(cells) >= 2:
            rows[cells[0]] = " ".join(cells[1:])
    return rows


def trend_of(result, label: str) -> tuple[str, str]:
    """A sparkline of the panel and what is said of its peak: ('▁▁ ▁█', 'peak 7')."""
    trends_part = result.stdout.split(qoe_command.TRENDS)[1]
    [row] = [line.lstrip("│ ") for line in trends_part.splitlines() if line.lstrip("│ ").startswith(label)]
    # The labels' column, two spaces, the sparkline (its spaces are steps), two spaces, the peak.
    start, end = len("Rebuffering") + 2, row.index("peak") - 2
    return row[start:end], row[row.index("peak") :].rstrip("│ ")


@pytest.fixture(scope="module")
def played(live_server) -> str:
    """A live event the scripted evening was played on, a light stall on the way."""
    event = create(live_server, "--status", "live", title="QoE evening")["_id"]
    qoe_viewers.send(live_server.url, qoe_viewers.the_evening(event, STALL_MS))
    return event


def test_the_panel_shows_the_figures_of_the_views_played(live_server, played):
    result = qoe(live_server, played, "--since", "30m")
    assert result.exit_code == 0, result.output
    rows = figures_of(result)
    assert rows["Plays"] == "7 (6 unique viewers)"
    assert rows["Start failures"] == "1 technical · 1 business"
    assert rows["Exits before start"] == "1"
    assert rows["Startup"] == "p50 1.00 s · p95 3.00 s"
    assert rows["Rebuffering"] == "3.2 % (4 s stalled)"
    assert rows["Average bitrate"] == "2,800 kbit/s"
    assert rows["Watched"] == "2 min"
    assert rows["Viewers now"] == "4"
    assert (rows["Event"], rows["Ingest"]) == ("live", "idle")  # no encoder publishes for it
    assert "ALERT" not in result.stdout and "⚠" not in result.stdout


def test_the_sparklines_draw_the_viewers_and_the_rebuffering_of_the_period(live_server, played):
    result = qoe(live_server, played, "--since", "30m")
    assert result.exit_code == 0, result.output
    # The views were played within a step or two, just now: the viewers' line is flat at zero
    # until it rises to its peak; the rebuffering is blank (nothing played) but where they played.
    viewers, peak_viewers = trend_of(result, "Viewers")
    assert set(viewers) <= set(BLOCKS) and viewers.startswith(BLOCKS[0] * 10) and BLOCKS[-1] in viewers
    assert 1 <= int(peak_viewers.removeprefix("peak ")) <= qoe_viewers.PLAYS
    rebuffering, peak_ratio = trend_of(result, "Rebuffering")
    assert set(rebuffering) <= {*BLOCKS, " "} and rebuffering.endswith(BLOCKS[-1]) and " " * 10 in rebuffering
    assert float(peak_ratio.removeprefix("peak ").removesuffix(" %")) >= 3.2  # the whole stall, in one step


def test_a_raised_alert_is_flagged_above_the_figures(live_server):
    event = create(live_server, "--status", "live", title="QoE stalls")["_id"]
    qoe_viewers.send(live_server.url, qoe_viewers.the_evening(event, HEAVY_STALL_MS))
    result = qoe(live_server, event, "--since", "30m")
    assert result.exit_code == 0, result.output
    assert "⚠ ALERT: rebuffering past its threshold" in result.stdout
    assert figures_of(result)["Rebuffering"] == "14.3 % (20 s stalled)"


@pytest.mark.parametrize("position", ["first", "last"])
def test_json_before_or_after_the_event_prints_the_apis_content(live_server, played, position):
    args = ["--json", played] if position == "first" else [played, "--since", "1h", "--json"]
    result = qoe(live_server, *args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report) == REPORT_FIELDS and report["event"] == played
    assert (report["plays"], report["uniqueViewers"]) == (qoe_viewers.PLAYS, qoe_viewers.UNIQUE_VIEWERS)
    assert report["startFailures"] == {"technical": qoe_viewers.TECHNICAL, "business": qoe_viewers.BUSINESS}
    assert report["startupMs"] == {"p50": qoe_viewers.STARTUP_P50, "p95": qoe_viewers.STARTUP_P95}
    assert report["rebufferingRatio"] == pytest.approx(qoe_viewers.rebuffering_ratio(STALL_MS))
    assert report["alerts"] == {"rebuffering": False, "startFailures": False}


def instant(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def test_an_age_asks_for_the_period_that_long_before_now(live_server, played):
    asked_at = datetime.now(UTC)
    report = json.loads(qoe(live_server, played, "--since", "90m", "--json").stdout)
    assert abs(instant(report["since"]) - (asked_at - timedelta(minutes=90))) < timedelta(seconds=30)
    assert abs(instant(report["until"]) - asked_at) < timedelta(seconds=30)
    # Ninety minutes (and the moment the request took) in at most 120 steps.
    series = report["series"]
    assert len(series["points"]) <= 120 and series["stepSeconds"] * len(series["points"]) >= 90 * 60


def test_instants_ask_for_exactly_that_period(live_server, played):
    # Two hours that ended a day ago, the start written at +01:00: the scripted evening was played
    # now, by the server's clock, so none of it falls inside.
    until = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(days=1)
    since = until - timedelta(hours=2)
    at_plus_one = since.astimezone(timezone(timedelta(hours=1))).isoformat()
    result = qoe(live_server, played, "--since", at_plus_one, "--until", zulu(until), "--json")
    report = json.loads(result.stdout)
    assert (report["since"], report["until"]) == (zulu(since), zulu(until))
    assert report["plays"] == 0


def zulu(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


UNREACHABLE = "http://127.0.0.1:9"
NOBODY = "f" * 24


@pytest.mark.parametrize("option", ["--since", "--until"])
def test_a_value_that_is_neither_an_instant_nor_an_age_is_a_usage_error(option):
    result = runner.invoke(app, ["qoe", NOBODY, option, "three hours", "--api-url", UNREACHABLE], env=CLEAN_ENV)
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert f"Invalid value for '{option}'" in text
    assert "'three hours' is not an instant (2026-11-30T18:00:00Z) or an age (30m, 2h, 1d: that long ago)" in text


def test_a_period_the_server_refuses_is_its_message_and_exit_code_1(live_server, played):
    result = qoe(live_server, played, "--since", "8d")
    assert result.exit_code == 1 and result.stdout == ""
    # The envelope's message, then its details one a line, as for every staff command's 400.
    assert result.stderr.splitlines()[0] == "Error: a period is at most seven days (validation_error)"
    assert "Traceback" not in result.stderr


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_server_that_is_not_there_is_one_line_and_exit_code_1():
    url = f"http://127.0.0.1:{_closed_port()}"
    result = runner.invoke(
        app,
        ["qoe", NOBODY, "--since", "30m", "--api-url", url, "--staff-email", "staff@example.com"],
        env={**CLEAN_ENV, "TOUCHLINE_STAFF_PASSWORD": PASSWORD},
    )
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith(f"Error: Cannot reach the Touchline API at {url}") and "Traceback" not in result.output
    assert result.stdout == ""


def test_a_malformed_event_id_stops_before_any_request():
    result = runner.invoke(app, ["qoe", "not-an-id", "--api-url", UNREACHABLE], env=CLEAN_ENV)
    assert result.exit_code == 1 and "is not an event id" in result.output


def test_watch_prints_one_json_line_per_look_until_ctrl_c(live_server, played, monkeypatch):
    monkeypatch.setattr(watch_loop, "pause", ctrl_c_after(2))
    result = qoe(live_server, "--json", played, "--since", "30m", "--watch")
    assert result.exit_code == 0, result.output
    looks = [json.loads(line) for line in result.stdout.splitlines()]
    assert [look["plays"] for look in looks] == [qoe_viewers.PLAYS, qoe_viewers.PLAYS]
    # An age is read again at each look: the period moves with the clock.
    assert looks[0]["until"] <= looks[1]["until"]
    assert "Stopped watching." in result.stderr


def test_watch_draws_the_panel_until_ctrl_c(live_server, played, monkeypatch):
    monkeypatch.setattr(watch_loop, "pause", ctrl_c_after(1))
    result = qoe(live_server, played, "--watch")
    assert result.exit_code == 0, result.output
    assert f"QoE of event {played}" in result.stdout and "Stopped watching." in result.stderr
