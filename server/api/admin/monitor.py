"""A snapshot for the staff dashboard: live events and their rooms, the next kickoffs, the
latest purchases, redemptions and sign-ins, the jobs and health."""

import logging
from typing import Any

from ... import clock
from ...realtime import census
from ...realtime.health import fanout_status
from ...realtime.socket import event_room
from ...services import job_runs, monitor
from ..http.context import settings, staff, state
from ..http.database import db_session
from ..http.envelope import iso, ok

log = logging.getLogger(__name__)


async def _health(sio: Any) -> dict:
    report: dict[str, Any] = {"status": "ok", "database": "ok"}
    try:
        await state("database").ping()
    except Exception as exc:  # the dashboard shows it; it is not this answer's failure
        log.warning("monitor: database unavailable: %s", exc)
        report.update(status="down", database="down")
    if sio is not None:
        report["realtime"] = await fanout_status(sio)
        if report["realtime"]["status"] != "ok" and report["status"] == "ok":
            report["status"] = "degraded"
    return report


async def get_monitor(limit: int = 10):
    await staff()
    sio = state("socket")
    async with db_session() as db:
        seen = await monitor.activity(db, limit)
        jobs = await job_runs.schedule(db, settings())
    sockets = await census.count(sio)

    def event(e) -> dict:
        return {
            "_id": e.id,
            "title": e.title,
            "event_date": iso(e.event_date),
            "sockets": sockets.room(event_room(e.id)),
        }

    return ok(
        {
            "generatedAt": iso(clock.now()),
            "health": await _health(sio),
            "sockets": {
                "manager": census.manager_kind(sio),
                "scope": sockets.scope,
                "connected": sockets.connected,
                "processes": sockets.processes,
            },
            "liveEvents": [event(e) for e in seen.live],
            "upcoming": [event(e) for e in seen.upcoming],
            "purchases": [
                {
                    "_id": p.id,
                    "userId": p.user_id,
                    "product_id": p.product_id,
                    "type": p.type,
                    "status": p.status,
                    "price_minor": p.price_minor,
                    "currency": p.currency,
                    "added": iso(p.created),
                }
                for p in seen.purchases
            ],
            "redemptions": [
                {
                    "code": c.display_code,
                    "userId": r.user_id,
                    "product_id": c.product_id,
                    "redeemedAt": iso(r.redeemed_at),
                }
                for r, c in seen.redemptions
            ],
            "signIns": [
                {
                    "sessionId": s.id,
                    "userId": s.user_id,
                    "provider": s.provider,
                    "at": iso(s.created),
                    "clientAddress": s.client_address,
                }
                for s in seen.sign_ins
            ],
            "jobs": [
                {
                    "name": j.name,
                    "intervalSeconds": j.interval_seconds,
                    "enabled": j.enabled,
                    "lastRun": iso(j.last_run),
                    "lastOutcome": j.last_outcome,
                    "ranOn": j.holder,
                }
                for j in jobs
            ],
        }
    )
