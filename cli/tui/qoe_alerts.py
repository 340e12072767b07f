"""The QoE alerts the dashboard flags (issue 32 §2): a live event whose viewers' rebuffering, or
start failures, crossed the server's thresholds over the last few minutes.

Two sources keep the flags. Each refresh reads `alerts` of GET /admin/events/{id}/qoe over
ALERT_WINDOW, the window of the server's `qoe-alerts` job: that gives the state when the
dashboard opens (the job sends a `qoe-alert` on each change only) and keeps the flags for an API
key, which cannot open the socket. Between refreshes AlertWatch, one socket watching the live
events' `qoe:{eventId}` rooms, hands over each `qoe-alert` as the job sends it."""

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

from textual.dom import DOMNode

from ..qoe_figures import percent_of
from .api import AdminApi, AdminApiError
from .rooms import MAX_ROOMS

ALERT_WINDOW = timedelta(minutes=5)  # the qoe-alerts job's (asyncapi/asyncapi.yaml QoeAlert)
QOE_ALERT = "qoe-alert"
MARK = "QoE ⚠ "  # before the title of a live event whose QoE alert is raised
CANNOT_WATCH = ("api_key_cannot_watch",)  # not tried again: the refresh keeps the flags instead


def alert_since(now: datetime) -> str:
    """The `since` of the QoE call whose `alerts` are the job's: ALERT_WINDOW before `now`, in UTC."""
    return (now - ALERT_WINDOW).astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _said(rebuffering: bool, ratio: float | None, start_failures: bool, failure_rate: float | None) -> str | None:
    crossed = []
    if rebuffering:
        crossed.append(f"rebuffering {percent_of(ratio) or '?'}")
    if start_failures:
        crossed.append(f"start failures {percent_of(failure_rate) or '?'} of plays")
    return ", ".join(crossed) or None


def alert_of_report(report: dict) -> str | None:
    """What a QoE report's raised alert says ('rebuffering 8.0 %'); None when none is raised."""
    plays = report["plays"]
    failure_rate = report["startFailures"]["technical"] / plays if plays else None
    alerts = report["alerts"]
    return _said(alerts["rebuffering"], report["rebufferingRatio"], alerts["startFailures"], failure_rate)


def alert_of_message(payload: dict) -> str | None:
    """What a `qoe-alert` says, in the same words; None when it says the alert is over."""
    if not payload.get("raised"):
        return None
    return _said(
        bool(payload.get("rebuffering")),
        payload.get("rebufferingRatio"),
        bool(payload.get("startFailures")),
        payload.get("startFailureRate"),
    )


class AlertWatch:
    """Watches the `qoe:{eventId}` rooms of the events given to follow() on one socket, in a worker
    of `node` (a screen), and hands each `qoe-alert` payload to `changed`. Rooms cannot be left
    (there is no unwatch), so another set of events is another connection; none closes it."""

    def __init__(self, node: DOMNode, api: AdminApi, changed: Callable[[dict], None], group: str = "qoe-rooms"):
        self.node = node
        self.api = api
        self.changed = changed
        self.group = group
        self.events: tuple[str, ...] = ()  # whose rooms are asked for: being connected to, or watched
        self.watching = False  # the server has let the socket into the rooms
        self.problem: str | None = None  # why alerts come only with the refresh, in the server's words
        self.given_up = False

    def follow(self, event_ids: Iterable[str]) -> None:
        events = tuple(dict.fromkeys(event_ids))[:MAX_ROOMS]
        if self.given_up or set(events) == set(self.events):
            return
        self.node.workers.cancel_group(self.node, self.group)
        self.events, self.watching = events, False
        if events:
            self.node.run_worker(self._watch(events), group=self.group, exclusive=True)

    async def _watch(self, events: tuple[str, ...]) -> None:
        try:
            async with self.api.qoe_alerts(events) as messages:
                self.watching, self.problem = True, None
                async for message in messages:
                    if message.event == QOE_ALERT and isinstance(message.data, dict):
                        self.changed(message.data)
        except AdminApiError as error:
            self.problem = error.message
            self.given_up = error.code in CANNOT_WATCH
        # Not reached when cancelled: follow() has set the new events already.
        if self.events == events:
            self.events, self.watching = (), False  # the next follow() connects again
