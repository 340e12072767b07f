"""Staff alerts on viewers' playback quality (issue 32 §2): `qoe-alert` to an event's
`qoe:{eventId}` room when its last five minutes cross a threshold, or come back under.

The `qoe-alerts` job (server.jobs: one process of a cluster at a time, not always the same one)
judges every live event; the last state sent is kept in the database (QoeAlertState), so a
message goes out on each change only, whichever process runs the round. An event's first round
says nothing while all is well."""

import logging
from dataclasses import dataclass

from sqlalchemy import select

from .. import clock
from ..db import Database
from ..models import Event, QoeAlertState
from ..services import qoe_report
from ..services.qoe_report import Alerts, Rates
from ..settings import Settings
from . import emitter
from .emitter import Emitter

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    event_id: str
    alerts: Alerts
    rates: Rates

    def payload(self) -> dict:
        return {
            "eventId": self.event_id,
            "raised": self.alerts.raised,
            "rebuffering": self.alerts.rebuffering,
            "startFailures": self.alerts.start_failures,
            "rebufferingRatio": self.rates.rebuffering_ratio,
            "startFailureRate": self.rates.start_failure_rate,
            "plays": self.rates.plays,
        }


async def changes(database: Database, settings: Settings) -> list[Change]:
    """Judge every live event's last minutes; record and answer the alerts that changed."""
    now = clock.now()
    found: list[Change] = []
    async with database.session() as db:
        live = list(await db.scalars(select(Event.id).where(Event.media_type == "event", Event.status == "live")))
        for event_id in live:
            rates = await qoe_report.recent_rates(db, event_id, now)
            alerts = qoe_report.alerts_of(rates, settings)
            last = await db.get(QoeAlertState, event_id)
            before = Alerts(last.rebuffering, last.start_failures) if last else Alerts(False, False)
            if alerts == before:
                continue
            if last is None:
                db.add(
                    QoeAlertState(
                        event_id=event_id,
                        rebuffering=alerts.rebuffering,
                        start_failures=alerts.start_failures,
                        changed=now,
                    )
                )
            else:
                last.rebuffering, last.start_failures, last.changed = alerts.rebuffering, alerts.start_failures, now
            found.append(Change(event_id, alerts, rates))
        await db.commit()
    return found


async def check_live_events(database: Database, settings: Settings, out: Emitter | None = None) -> list[Change]:
    """One round of the job: the changes, each sent to its event's QoE room."""
    out = out or emitter.default
    found = await changes(database, settings)
    for change in found:
        await out.emit_qoe_alert(change.payload())
        log.warning("qoe alert for event %s: %s", change.event_id, change.payload())
    return found
