"""`touchline qoe EVENT_ID [--since WHEN] [--until WHEN] [--watch]`: how viewers' playback of an event
went over a period (GET /api/admin/events/{id}/qoe, from the players' beacons).

A panel of the figures (plays, unique viewers, start failures, exits before video start, startup
p50/p95, rebuffering, average bitrate, time watched, viewers now), the viewers and the
rebuffering over the period as sparklines, and the live input's state beside them, so a stall can
be traced to the encoder (`touchline ingest status`) or to delivery. A raised alert (rebuffering
or start failures past the server's thresholds) is flagged above the figures. WHEN is an instant
or an age (instant_or_age.py); the server's default period is the two hours before now.
`--watch` asks again every WATCH_SECONDS until Ctrl-C (exit code 0); with `--json` it prints one
JSON document a line, each time.
"""

from datetime import UTC, datetime
from typing import Annotated, Any

import typer
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..admin_client import AdminClient
from ..block_sparkline import sparkline
from ..qoe_figures import (
    alert_of,
    average_bitrate_of,
    failures_of,
    peak_of,
    percent_of,
    rebuffering_of,
    rebuffering_series_of,
    span_of,
    startups_of,
    viewers_of,
)
from . import lone_staff_command, watch_loop
from .instant_or_age import InstantOrAge, instant_or_age
from .staff_api import NONE, api_call, new_console, object_id, print_json, when
from .staff_options import ApiKey, ApiUrl, Json, StaffEmail, StaffOptions, StaffPassword
from .watch_loop import Read

WATCH_SECONDS = 5.0  # players send a batch of beacons every 10 s: a look every 5 s misses none
SPARKLINE_WIDTH = 48
ALERT_STYLE = "bold red"
TRENDS = "Over the period (rebuffering is blank where nothing played):"

Report = dict[str, Any]

EventId = Annotated[
    str,
    typer.Argument(
        metavar="EVENT_ID",
        help="The event's id (see `touchline events list`).",
        autocompletion=lone_staff_command.event_ids,
        show_default=False,
    ),
]
Since = Annotated[
    InstantOrAge | None,
    typer.Option(
        "--since",
        metavar="WHEN",
        parser=instant_or_age,
        help="The period's start: an instant (2026-11-30T18:00:00Z) or an age (30m, 2h, 1d ago); "
        "default: two hours before its end.",
        show_default=False,
    ),
]
Until = Annotated[
    InstantOrAge | None,
    typer.Option(
        "--until",
        metavar="WHEN",
        parser=instant_or_age,
        help="The period's end, in the same forms; default: now.",
        show_default=False,
    ),
]
Watch = Annotated[bool, typer.Option("--watch", help=f"Refresh every {WATCH_SECONDS:g} s until Ctrl-C.")]


def qoe(
    event_id: EventId,
    since: Since = None,
    until: Until = None,
    watch: Watch = False,
    api_url: ApiUrl = None,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
    as_json: Json = False,
    api_key: ApiKey = None,
) -> None:
    """How viewers' playback of an event went: plays, start failures, startup, rebuffering, bitrate, viewers.

    The period is the two hours before now unless --since or --until say otherwise (at most seven days).
    Example: touchline qoe 65a1f0c2e4b0a1b2c3d4e5f6 --since 30m --watch
    """
    options = StaffOptions(api_url, staff_email, staff_password, as_json, api_key)
    read = _reader(object_id(event_id, "an event id", "find it with `touchline events list`"), since, until)
    if not watch:
        _print(options, api_call(options, read))
        return
    watch_loop.watch(options, read, panel, WATCH_SECONDS)


def _reader(event: str, since: InstantOrAge | None, until: InstantOrAge | None) -> Read:
    """The call for one look: an age is read again at each look, so the period slides with the clock."""

    async def read(api: AdminClient) -> Report:
        now = datetime.now(UTC)
        period = {name: moment.wire(now) for name, moment in (("since", since), ("until", until)) if moment}
        return await api.get(f"/admin/events/{event}/qoe", period or None)

    return read


def _print(options: StaffOptions, report: Report) -> None:
    if options.as_json:
        print_json(report)
        return
    new_console().print(panel(report))


# --- wording ---------------------------------------------------------------------------------------


def panel(report: Report) -> RenderableType:
    figures = Table(show_header=False, box=None, padding=(0, 2, 0, 0))
    figures.add_column("Field", style="bold", no_wrap=True)
    figures.add_column("Value", overflow="fold")
    rows = [
        ("Plays", f"{report['plays']} ({report['uniqueViewers']} unique viewers)"),
        ("Start failures", failures_of(report)),
        ("Exits before start", str(report["exitsBeforeVideoStart"])),
        ("Startup", startups_of(report) or NONE),
        ("Rebuffering", rebuffering_of(report) or NONE),
        ("Average bitrate", average_bitrate_of(report) or NONE),
        ("Watched", span_of(report["watchedSeconds"])),
        ("Viewers now", str(report["concurrentViewers"])),
        ("Event", report["status"]),
        ("Ingest", report["ingest"]),
    ]
    for label, value in rows:
        figures.add_row(label, value)
    viewers, rebuffering = viewers_of(report), rebuffering_series_of(report)
    trends = Table(show_header=False, box=None, padding=(0, 2, 0, 0))
    trends.add_column("Series", style="bold", no_wrap=True)
    trends.add_column("Sparkline", no_wrap=True)
    trends.add_column("Peak", style="dim", no_wrap=True)
    peak_viewers, peak_ratio = peak_of(viewers), percent_of(peak_of(rebuffering))
    trends.add_row("Viewers", _trend(viewers), "" if peak_viewers is None else f"peak {peak_viewers:.0f}")
    trends.add_row("Rebuffering", _trend(rebuffering), "" if peak_ratio is None else f"peak {peak_ratio}")
    parts: list[RenderableType] = []
    alert = alert_of(report["alerts"])
    if alert is not None:
        threshold = "their thresholds" if " and " in alert else "its threshold"
        parts += [Text(f"⚠ ALERT: {alert} past {threshold}", style=ALERT_STYLE), Text("")]
    parts += [figures, Text(""), Text(TRENDS, style="dim"), trends]
    title = Text(f"QoE of event {report['event']}")
    if alert is not None:
        title.append("  ⚠ alert", style=ALERT_STYLE)
    period = f"{when(report['since'])} to {when(report['until'])} UTC"
    return Panel(Group(*parts), title=title, title_align="left", subtitle=period, subtitle_align="right", expand=False)


def _trend(values: list[float | None]) -> str:
    """The sparkline, or a dash when no step has a figure."""
    return sparkline(values, SPARKLINE_WIDTH) if peak_of(values) is not None else NONE
