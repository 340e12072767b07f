"""A pay-per-view event's outages and the credit of its buyers (GET /admin/events/{id}/outage_credit)
in words, as `touchline credit` and the staff console's QoE screen both show them. Instants are
the API's (UTC), shown to the minute."""

from .qoe_figures import span_of

CAUSES = {"ingest": "live input interrupted", "start_failures": "plays failing to start"}
KINDS = {"refund": "a refund", "access_code": "an access code"}


def minute_of(instant: str) -> str:
    """'2026-11-30T19:25:00Z' → '2026-11-30 19:25'."""
    return instant[:16].replace("T", " ")


def total_of(report: dict) -> str:
    """'11 min 0 s of outages; credited from 10 min 0 s'."""
    return f"{span_of(report['outageSeconds'])} of outages; credited from {span_of(report['thresholdSeconds'])}"


def outage_of(outage: dict) -> str:
    """'2026-11-30 19:10 to 19:21 UTC: live input interrupted'; one that lasts is 'to now', one
    that ends another day has its date at both ends."""
    cause = CAUSES.get(outage["cause"], outage["cause"])
    start = minute_of(outage["start"])
    if outage["end"] is None:
        return f"{start} UTC to now: {cause}"
    end = minute_of(outage["end"])
    return f"{start} to {end[11:] if end[:10] == start[:10] else end} UTC: {cause}"


def credit_of(credit: dict | None) -> str:
    """Where the credit stands, for whom and by whose decision; 'none scheduled' before one is."""
    if credit is None:
        return "none scheduled"
    kind = KINDS.get(credit["kind"], credit["kind"])
    who = (
        f"by {credit['createdBy']}"
        if credit["createdBy"]
        else "automatic"
        if credit["reason"] == "automatic"
        else "staff"
    )
    buyers = f"{credit['credited']} of {credit['buyers']} buyers credited"
    status = credit["status"]
    if status == "scheduled":
        said = f"scheduled ({who}): {kind} for {credit['buyers']} buyers, due {minute_of(credit['due'])} UTC"
    elif status == "cancelled":
        by = f" by {credit['cancelledBy']}" if credit["cancelledBy"] else ""
        said = f"cancelled{by}: {buyers}"
    else:
        said = f"{status} ({who}): {kind} each, {buyers}"
    return f"{said}; purchases paid before {minute_of(credit['cutoff'])} UTC"
