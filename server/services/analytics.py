"""Analytics events from the webapp (identify and track, each carrying the tenant): validated
beyond what the contract's schema says, bounded per client (server.services.analytics_limits) and
stored as they came, with the viewer who sent them and the server's own tenant."""

import re
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import ApiError
from ..instants import parse_instant
from ..models import AnalyticsEvent
from ..settings import Settings
from . import analytics_limits

# The contract's bounds (openapi.yaml AnalyticsBatch): repeated so a caller that skipped the
# contract's validation (a test, a job) still cannot store more.
MAX_BATCH = 50
MAX_PROPERTIES = 20
PROPERTY_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


def _invalid(message: str) -> ApiError:
    return ApiError(message, code="validation_error")


def _occurred(value: str) -> datetime:
    try:
        return parse_instant(value)
    except ValueError:
        raise _invalid("timestamp must be an ISO 8601 date and time") from None


def _event(raw: dict, user_id: str | None, received: datetime, tenant: str) -> AnalyticsEvent:
    if raw["tenant"] != tenant:  # the tenant is this server's; an event for another is refused
        raise _invalid(f"tenant must be this server's, {tenant!r} (analytics.tenant of GET /config)")
    properties = raw.get("properties") or {}
    if len(properties) > MAX_PROPERTIES:
        raise _invalid(f"an event has at most {MAX_PROPERTIES} properties")
    for name in properties:
        if not PROPERTY_NAME.match(name):
            raise _invalid("property names are 1 to 40 letters, digits, '_', '.' or '-'")
    return AnalyticsEvent(
        kind=raw["type"],
        name=raw["name"],
        tenant=tenant,
        anonymous_id=raw["anonymousId"],
        user_id=user_id,
        properties=dict(properties),
        occurred=_occurred(raw["timestamp"]),
        received=received,
    )


async def record_events(
    db: AsyncSession, events: Sequence[dict], *, settings: Settings, user_id: str | None, address: str | None
) -> int:
    """Stores the batch (all of it or, on a refusal, none of it) and commits; answers how many.

    `user_id` is the signed-in viewer's id from the request's token (None: anonymous), `address`
    the client's address. A valid batch is counted against their budgets (TooManyRequests)."""
    if not events:
        raise _invalid("a batch holds at least one event")
    if len(events) > MAX_BATCH:
        raise _invalid(f"a batch holds at most {MAX_BATCH} events")
    analytics_limits.check_sizes(events, settings)
    received = clock.now()
    rows = [_event(raw, user_id, received, settings.tenant) for raw in events]
    await analytics_limits.charge(db, settings, events, address=address, user_id=user_id)
    db.add_all(rows)
    await db.commit()
    return len(rows)
