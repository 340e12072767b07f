"""An event's quality of experience for staff (issue 32 §2): the figures of its players' beacons
over a period (server.services.qoe_report) and its live input's state now, side by side."""

from ... import clock
from ...errors import ApiError, NotFound
from ...ingest import live_inputs
from ...media.assets.store import store_of
from ...models import Event
from ...services import ingest_health, qoe_report
from ...services.qoe_report import Report
from ..http.context import settings, staff
from ..http.database import db_session
from ..http.envelope import iso, ok
from ..http.instants import instant_field


def present(report: Report, *, status: str, ingest: str) -> dict:
    alerts = qoe_report.alerts_of(report.rates, settings())
    return {
        "event": report.event_id,
        "status": status,
        "ingest": ingest,
        "since": iso(report.since),
        "until": iso(report.until),
        "plays": report.plays,
        "uniqueViewers": report.unique_viewers,
        "startFailures": {"technical": report.technical_failures, "business": report.business_failures},
        "exitsBeforeVideoStart": report.exits_before_video_start,
        "startupMs": {"p50": report.startup_p50, "p95": report.startup_p95},
        "rebufferingRatio": report.rates.rebuffering_ratio,
        "averageBitrateKbps": report.average_bitrate_kbps,
        "watchedSeconds": report.watched_ms / 1000,
        "rebufferSeconds": report.rebuffer_ms / 1000,
        "concurrentViewers": report.concurrent_viewers,
        "alerts": {"rebuffering": alerts.rebuffering, "startFailures": alerts.start_failures},
        "series": {
            "stepSeconds": report.step_seconds,
            "points": [
                {"at": iso(point.at), "viewers": point.viewers, "rebufferingRatio": point.rebuffering_ratio}
                for point in report.points
            ],
        },
    }


async def get_event_qoe(id_: str, since: str | None = None, until: str | None = None):
    await staff()
    now = clock.now()
    try:
        start, end = qoe_report.period(instant_field("since", since), instant_field("until", until), now)
    except ValueError as exc:
        raise ApiError(str(exc), code="validation_error") from None
    inputs = live_inputs.current()
    async with db_session() as db:
        event = await db.get(Event, id_)
        if event is None or event.media_type != "event":
            raise NotFound("Event not found", code="event_not_found")
        report = await qoe_report.report(db, id_, start, end)
        health = await ingest_health.ingest_health(
            db,
            id_,
            feed=inputs.health(id_) if inputs is not None else None,
            store=store_of(settings()),
            now=now,
            dvr_default=settings().dvr_seconds,
        )
    return ok(present(report, status=event.status, ingest=health.state))
