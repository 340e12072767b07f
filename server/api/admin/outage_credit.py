"""A pay-per-view event's outages and the credit of its buyers, for staff (issue 32 §3): read
them, run the credit now, or cancel it before it runs. The rules are
server/services/outage_credit.py; the `outage-credit` job (server.jobs) runs what is due, within
TOUCHLINE_OUTAGE_INTERVAL_SECONDS of a trigger."""

from ... import clock
from ...services import outage_credit
from ...services.outage_credit import Description
from ..http.audit import note_target
from ..http.context import settings, staff
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok


def present(described: Description) -> dict:
    credit = described.credit
    return {
        "event": described.event_id,
        "outageSeconds": described.outage_seconds,
        "thresholdSeconds": described.threshold_seconds,
        "outages": [
            {"start": iso(outage.started), "end": iso(outage.ended), "cause": outage.cause}
            for outage in described.outages
        ],
        "credit": None
        if credit is None
        else {
            "status": credit.status,
            "kind": credit.kind,
            "reason": credit.reason,
            "due": iso(credit.due),
            "cutoff": iso(credit.cutoff),
            "buyers": credit.buyers,
            "credited": credit.credited,
            "createdBy": credit.created_by,
            "cancelledBy": credit.cancelled_by,
        },
    }


async def get_outage_credit(id_: str):
    await staff()
    async with db_session() as db:
        described = await outage_credit.describe(db, id_, clock.now(), settings())
    return ok(present(described))


async def trigger_outage_credit(id_: str):
    principal = await staff()
    note_target(id_)
    async with db_write_session() as db:
        await outage_credit.trigger(db, settings(), id_, principal.user_id, clock.now())
    return await get_outage_credit(id_)


async def cancel_outage_credit(id_: str):
    principal = await staff()
    note_target(id_)
    async with db_write_session() as db:
        await outage_credit.cancel(db, id_, principal.user_id, clock.now())
    return await get_outage_credit(id_)
