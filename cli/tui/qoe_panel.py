"""The QoE screen's panel of the selected event: its figures over the screen's period (GET
/admin/events/{id}/qoe), a sparkline of its viewers and one of its rebuffering over that period,
and its outage credit (GET /admin/events/{id}/outage_credit). It only shows what the screen
read; the screen owns the calls, the refresh and the credit's actions. Lines stay within 35
characters: the panel is the column beside the ingest panel at 80 columns."""

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Sparkline, Static

from ..outage_credit_figures import minute_of
from ..qoe_figures import alert_of, average_bitrate_of, percent_of, span_of, startup_of
from .ingest_health import LABEL_WIDTH

NONE = "—"
KINDS = {"refund": "refund", "access_code": "access code"}


def _line(label: str, value: str) -> Text:
    return Text.assemble((f"{label:<{LABEL_WIDTH}}", "bold"), value)


def figure_lines(report: dict) -> Text:
    """Plays, failures, exits, startup, rebuffering, bitrate, time watched and viewers now."""
    failures = report["startFailures"]
    startup = report["startupMs"]
    ratio = percent_of(report["rebufferingRatio"])
    lines = [
        _line("Plays", f"{report['plays']} · {report['uniqueViewers']} viewers"),
        _line("Failed", f"{failures['technical']} tech · {failures['business']} business"),
        _line("Exits", f"{report['exitsBeforeVideoStart']} before the first frame"),
        _line("Startup", f"p50 {startup_of(startup['p50']) or NONE} · p95 {startup_of(startup['p95']) or NONE}"),
        _line("Rebuf", NONE if ratio is None else f"{ratio} · {span_of(report['rebufferSeconds'])} stalled"),
        _line("Bitrate", average_bitrate_of(report) or NONE),
        _line("Watched", f"{span_of(report['watchedSeconds'])} · {report['concurrentViewers']} now"),
    ]
    return Text("\n").join(lines)


def credit_lines(report: dict) -> Text:
    """Where the credit of the event's buyers stands, and its outages against the threshold."""
    credit = report["credit"]
    if credit is None:
        said = "none scheduled"
    elif credit["status"] == "scheduled":
        said = f"{KINDS.get(credit['kind'], credit['kind'])} due {minute_of(credit['due'])[11:]} UTC"
    elif credit["status"] == "cancelled":
        said = "cancelled" + (f" by {credit['cancelledBy']}" if credit["cancelledBy"] else "")
    else:
        said = f"{credit['status']}: {credit['credited']}/{credit['buyers']} buyers"
    lasting = any(outage["end"] is None for outage in report["outages"])
    outages = f"{span_of(report['outageSeconds'])} of {span_of(report['thresholdSeconds'])}"
    return Text("\n").join([_line("Credit", said), _line("Outages", outages + (" · one now" if lasting else ""))])


def rebuffering_points(report: dict) -> list[float]:
    """The steps' rebuffering ratios for the sparkline: a step in which nothing played is 0."""
    return [point["rebufferingRatio"] or 0.0 for point in report["series"]["points"]]


class QoePanel(Vertical):
    DEFAULT_CSS = f"""
    QoePanel {{ height: auto; padding: 0 1; border: round $primary; }}
    QoePanel.alert {{ border: round $error; }}
    QoePanel .trend {{ height: 1; }}
    QoePanel .trend Label {{ width: {LABEL_WIDTH}; text-style: bold; }}
    QoePanel Sparkline {{ width: 1fr; }}
    """

    def compose(self) -> ComposeResult:
        yield Static("Select a live event to see its QoE.", id="qoe-figures")
        with Horizontal(classes="trend"):
            yield Label("Viewers")
            yield Sparkline([], id="viewers-trend")
        with Horizontal(classes="trend"):
            yield Label("Rebuf")
            yield Sparkline([], id="rebuffering-trend")
        yield Static("", id="qoe-credit")

    def on_mount(self) -> None:
        self.border_title = "QoE"

    def show(self, report: dict, period: str) -> None:
        """The event's figures and trends; a raised alert is named on the border, which turns red."""
        alert = alert_of(report["alerts"])
        self.border_title = f"QoE, {period}" + (f" · ⚠ {alert}" if alert else "")
        self.set_class(alert is not None, "alert")
        self.query_one("#qoe-figures", Static).update(figure_lines(report))
        self.query_one("#viewers-trend", Sparkline).data = [float(p["viewers"]) for p in report["series"]["points"]]
        self.query_one("#rebuffering-trend", Sparkline).data = rebuffering_points(report)

    def show_problem(self, message: str) -> None:
        self.border_title = "QoE"
        self.remove_class("alert")
        self.query_one("#qoe-figures", Static).update(Text(message))
        self.query_one("#viewers-trend", Sparkline).data = []
        self.query_one("#rebuffering-trend", Sparkline).data = []

    def show_credit(self, report: dict | None, problem: str | None = None) -> None:
        credit = self.query_one("#qoe-credit", Static)
        credit.update(credit_lines(report) if report is not None else _line("Credit", problem or NONE))
