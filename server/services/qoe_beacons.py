"""The players' quality-of-experience beacons (POST /qoe/beacons, issue 32 §1): checked beyond
the contract's schema, bounded per client like analytics (server.services.analytics_limits) and
stored as they came, with the viewer's session and the server's receipt time.

Anyone may send them, so two budgets hold (server.services.ratelimit, shared by every process,
429 with Retry-After), both counted once a batch is known to be valid: batches per client address
(an IPv6 address by its /64, as for analytics) and per view. A batch names at most
MAX_VIEWS views, each of one event, and only events that exist: a made-up event id would
otherwise grow a table nobody reads.
"""

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database
from ..errors import ApiError
from ..instants import parse_instant
from ..models import Event, QoeBeacon
from ..settings import Settings
from . import qoe_summaries, ratelimit
from .analytics_limits import address_subject
from .qoe_report import epoch_ms
from .retention import delete_older_than

# The contract's bounds (openapi.yaml QoeBatch), repeated for callers that skipped its validation.
MAX_BATCH = 50
# One page's players: a view per play attempt, a few at once with multiview (four tiles).
MAX_VIEWS = 4
DELETE_BATCH = 2000


def _invalid(message: str) -> ApiError:
    return ApiError(message, code="validation_error")


def budgets(settings: Settings) -> tuple[ratelimit.Limit, ratelimit.Limit]:
    """(batches per client address, batches per view)."""
    window = settings.qoe_batch_window
    return (
        ratelimit.Limit("qoe-address", settings.qoe_batches_per_address, window),
        ratelimit.Limit("qoe-view", settings.qoe_batches_per_view, window),
    )


def _views(beacons: Sequence[dict]) -> dict[str, str]:
    """view -> its event; refuses a batch of too many views, or a view of two events."""
    views: dict[str, str] = {}
    for beacon in beacons:
        event = views.setdefault(beacon["view"], beacon["event"])
        if event != beacon["event"]:
            raise _invalid("a view plays one event: its beacons name the same event")
    if len(views) > MAX_VIEWS:
        raise _invalid(f"a batch carries the beacons of at most {MAX_VIEWS} views")
    return views


async def _check_events(db: AsyncSession, events: set[str]) -> None:
    found = set(await db.scalars(select(Event.id).where(Event.id.in_(events))))
    if missing := sorted(events - found):
        raise _invalid(f"no event has the id {missing[0]}")


def _row(raw: dict, viewer_session: str, received_ms: int) -> QoeBeacon:
    try:
        occurred = parse_instant(raw["at"])
    except ValueError:
        raise _invalid("at must be an ISO 8601 date and time") from None
    return QoeBeacon(
        event_id=raw["event"],
        view=raw["view"],
        viewer_session=viewer_session,
        kind=raw["type"],
        asset=raw.get("asset"),
        rendition=raw.get("rendition"),
        player=raw["player"],
        player_version=raw["playerVersion"],
        ms=raw.get("ms"),
        bitrate_kbps=raw.get("bitrateKbps"),
        code=raw.get("code"),
        fatal=raw.get("fatal"),
        business=raw.get("business"),
        before_start=raw.get("beforeStart"),
        occurred=occurred,
        received_ms=received_ms,
    )


async def record(
    db: AsyncSession, batch: dict, *, settings: Settings, viewer_session: str | None, address: str | None
) -> int:
    """Store the batch (all of it or, on a refusal, none of it) and commit; answers how many.

    `viewer_session` is the signed-in session of the request's token (None: the batch's
    `anonymousId` stands for the viewer)."""
    beacons = batch["beacons"]
    if not beacons:
        raise _invalid("a batch holds at least one beacon")
    if len(beacons) > MAX_BATCH:
        raise _invalid(f"a batch holds at most {MAX_BATCH} beacons")
    views = _views(beacons)
    received_ms = epoch_ms(clock.now())
    session = viewer_session or batch["anonymousId"]
    rows = [_row(raw, session, received_ms) for raw in beacons]
    await _check_events(db, set(views.values()))
    by_address, by_view = budgets(settings)
    await ratelimit.hit(db, by_address, address_subject(address), commit=False)
    for view in sorted(views):
        await ratelimit.hit(db, by_view, view, commit=False)
    db.add_all(rows)
    await qoe_summaries.add(db, rows)
    await db.commit()
    return len(rows)


async def delete_expired(database: Database, settings: Settings, *, batch: int = DELETE_BATCH) -> int:
    """Delete every beacon received more than the retention ago (the analytics-retention job)."""
    cutoff = epoch_ms(clock.now() - timedelta(days=settings.qoe_retention_days))
    deleted = await delete_older_than(database, QoeBeacon.received_ms, cutoff, batch=batch)
    await qoe_summaries.delete_before(database, cutoff)
    return deleted
