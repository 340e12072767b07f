"""The summaries a report reads instead of every beacon (issue 32 §2): a row a view (QoeView) and
a row an event's 10 s step (QoeStep), brought up to date in the transaction that stores a batch,
by upserts whose arithmetic is atomic on SQLite and PostgreSQL (two processes storing beacons of
one view at once both count)."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, delete, func
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from ..db import Database, rows_changed
from ..models import QoeBeacon, QoeStep, QoeView

STEP_MS = 10_000
_PLAYED = ("watched", "exit")


@dataclass
class _View:
    event_id: str
    session: str
    first_ms: int
    last_ms: int
    began_ms: int | None = None
    startup_ms: int | None = None
    flags: dict[str, int] = field(
        default_factory=lambda: {"fatal": 0, "business": 0, "left_before_start": 0, "ended": 0}
    )

    def add(self, beacon: QoeBeacon) -> None:
        at = beacon.received_ms
        self.first_ms, self.last_ms = min(self.first_ms, at), max(self.last_ms, at)
        fatal = beacon.kind == "error" and beacon.fatal is True
        if beacon.kind == "start" and self.began_ms is None:
            self.began_ms = at
        if beacon.kind == "startup" and self.startup_ms is None:
            self.startup_ms = beacon.ms
        if fatal:
            self.flags["fatal"] = 1
            self.flags["business"] |= int(beacon.business is True)
        if beacon.kind == "exit" and beacon.before_start is True:
            self.flags["left_before_start"] = 1
        if fatal or beacon.kind == "exit":
            self.flags["ended"] = 1


def _step(steps: dict[tuple[str, int], dict[str, int]], beacon: QoeBeacon) -> None:
    if beacon.ms is None or beacon.kind not in (*_PLAYED, "rebuffer"):
        return
    sums = steps.setdefault(
        (beacon.event_id, beacon.received_ms // STEP_MS * STEP_MS),
        {"rebuffer_ms": 0, "watched_ms": 0, "rated_ms": 0, "bitrate_ms": 0},
    )
    if beacon.kind == "rebuffer":
        sums["rebuffer_ms"] += beacon.ms
        return
    sums["watched_ms"] += beacon.ms
    if beacon.bitrate_kbps is not None:
        sums["rated_ms"] += beacon.ms
        sums["bitrate_ms"] += beacon.ms * beacon.bitrate_kbps


def _greatest(dialect: str, *values: Any) -> ColumnElement[Any]:
    # SQLite's max() of two arguments is the scalar one; PostgreSQL spells it greatest().
    return func.greatest(*values) if dialect == "postgresql" else func.max(*values)


def _least(dialect: str, *values: Any) -> ColumnElement[Any]:
    return func.least(*values) if dialect == "postgresql" else func.min(*values)


async def add(db: AsyncSession, beacons: Sequence[QoeBeacon]) -> None:
    """Bring the summaries up to date with `beacons` (the caller commits, with the beacons)."""
    views: dict[tuple[str, str], _View] = {}
    steps: dict[tuple[str, int], dict[str, int]] = {}
    for beacon in sorted(beacons, key=lambda b: (b.received_ms, b.occurred)):
        key = (beacon.event_id, beacon.view)
        if key not in views:
            views[key] = _View(beacon.event_id, beacon.viewer_session, beacon.received_ms, beacon.received_ms)
        views[key].add(beacon)
        _step(steps, beacon)
    dialect = db.bind.dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    for (event_id, view), summary in sorted(views.items()):
        statement = insert(QoeView).values(
            event_id=event_id,
            view=view,
            viewer_session=summary.session,
            began_ms=summary.began_ms,
            startup_ms=summary.startup_ms,
            first_ms=summary.first_ms,
            last_ms=summary.last_ms,
            **summary.flags,
        )
        new = statement.excluded
        await db.execute(
            statement.on_conflict_do_update(
                index_elements=[QoeView.event_id, QoeView.view],
                set_={
                    "began_ms": func.coalesce(QoeView.began_ms, new.began_ms),
                    "startup_ms": func.coalesce(QoeView.startup_ms, new.startup_ms),
                    "first_ms": _least(dialect, QoeView.first_ms, new.first_ms),
                    "last_ms": _greatest(dialect, QoeView.last_ms, new.last_ms),
                    **{name: _greatest(dialect, getattr(QoeView, name), getattr(new, name)) for name in summary.flags},
                },
            )
        )
    for (event_id, step_ms), sums in sorted(steps.items()):
        statement = insert(QoeStep).values(event_id=event_id, step_ms=step_ms, **sums)
        new = statement.excluded
        await db.execute(
            statement.on_conflict_do_update(
                index_elements=[QoeStep.event_id, QoeStep.step_ms],
                set_={name: getattr(QoeStep, name) + getattr(new, name) for name in sums},
            )
        )


async def delete_before(database: Database, cutoff_ms: int) -> int:
    """Delete the summaries of views last heard, and of steps, before `cutoff_ms`; how many."""
    async with database.write_session() as db:
        views = await db.execute(delete(QoeView).where(QoeView.last_ms < cutoff_ms))
        steps = await db.execute(delete(QoeStep).where(QoeStep.step_ms < cutoff_ms))
        await db.commit()
    return rows_changed(views) + rows_changed(steps)
