"""An event's quality of experience over a period, from its players' beacons (issue 32 §2,
`GET /admin/events/{id}/qoe`). The definitions are the contract's (Conviva's dictionary):

- a view is one play attempt (a beacon `view` id); plays, start failures, exits before video
  start and startup times count the views that began (`start`) in the period;
- a start failure is a view with a fatal error and no first frame (technical, or business when
  the error says the refusal was by design); an exit before video start is a view left with
  neither a first frame nor a fatal error;
- stalled and watched time, and the bitrate weighted by the time watched at it, add up the
  beacons received in the period, whichever view they belong to.

It reads the summaries kept as beacons arrive (server.services.qoe_summaries): a row a view heard
in the period and a row a 10 s step of receipt time (the server's clock), so the period's stalled
and watched time starts at the step `since` falls in. The views are counted in SQL (the
percentiles read at their offset, the series by pairs of first and last step), and only the
period's steps come back as rows: a period of 100,000 beacons (10,000 views) takes about 50 ms
(`make bench`).
"""

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import QoeStep, QoeView
from ..settings import Settings
from .qoe_summaries import STEP_MS

MAX_POINTS = 120
MIN_STEP_SECONDS = 10
DEFAULT_PERIOD = timedelta(hours=2)
MAX_PERIOD = timedelta(days=7)
# Views that sent a beacon this recently, and have not ended, count as watching now (players send
# one every 15 s while they play).
CONCURRENT_MS = 30_000
# What the alerts and the outage watch look at: a live event's last few minutes.
RECENT = timedelta(minutes=5)


@dataclass(frozen=True)
class Rates:
    """A period's plays and what went wrong in them."""

    plays: int
    technical_failures: int
    business_failures: int
    rebuffer_ms: int
    watched_ms: int

    @property
    def start_failure_rate(self) -> float | None:
        """Technical start failures per play (None without plays)."""
        return self.technical_failures / self.plays if self.plays else None

    @property
    def rebuffering_ratio(self) -> float | None:
        total = self.rebuffer_ms + self.watched_ms
        return self.rebuffer_ms / total if total else None


@dataclass(frozen=True)
class Alerts:
    rebuffering: bool
    start_failures: bool

    @property
    def raised(self) -> bool:
        return self.rebuffering or self.start_failures


def alerts_of(rates: Rates, settings: Settings) -> Alerts:
    """Which thresholds the figures cross (none before the minimum number of plays)."""
    if rates.plays < settings.qoe_alert_min_plays:
        return Alerts(False, False)
    ratio, failures = rates.rebuffering_ratio, rates.start_failure_rate
    return Alerts(
        ratio is not None and ratio > settings.qoe_rebuffering_alert,
        failures is not None and failures > settings.qoe_start_failure_alert,
    )


def nearest_rank(sorted_values: list[int], share: float) -> int | None:
    """The smallest value with at least `share` of the values at or below it."""
    if not sorted_values:
        return None
    return sorted_values[max(0, math.ceil(share * len(sorted_values)) - 1)]


def epoch_ms(instant: datetime) -> int:
    return int(instant.timestamp() * 1000)


def instant_of(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def period(since: datetime | None, until: datetime | None, now: datetime) -> tuple[datetime, datetime]:
    """The period asked for, or its defaults; raises ValueError for one that cannot be."""
    until = until or now
    try:
        since = since or until - DEFAULT_PERIOD
    except OverflowError:
        raise ValueError("until is too early to count two hours back from: give since too") from None
    if since >= until:
        raise ValueError("since must be before until")
    if until - since > MAX_PERIOD:
        raise ValueError("a period is at most seven days")
    return since, until


def step_seconds(since: datetime, until: datetime) -> int:
    """A period in at most MAX_POINTS steps, each a whole number of the summaries' 10 s steps."""
    tens = math.ceil((until - since).total_seconds() / MAX_POINTS / MIN_STEP_SECONDS)
    return max(1, tens) * MIN_STEP_SECONDS


def _plays(event_id: str, since_ms: int, until_ms: int) -> ColumnElement[bool]:
    """The views that began in the period."""
    return and_(QoeView.event_id == event_id, QoeView.began_ms >= since_ms, QoeView.began_ms < until_ms)


def _count(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _steps(event_id: str, since_ms: int, until_ms: int) -> Select[Any]:
    """The period's 10 s steps (QoeStep), from the one it starts in."""
    first = since_ms // STEP_MS * STEP_MS
    return select(QoeStep.step_ms, QoeStep.rebuffer_ms, QoeStep.watched_ms, QoeStep.rated_ms, QoeStep.bitrate_ms).where(
        QoeStep.event_id == event_id, QoeStep.step_ms >= first, QoeStep.step_ms < until_ms
    )


@dataclass(frozen=True)
class _Plays:
    count: int
    technical: int
    business: int
    left: int
    sessions: int
    started: int  # plays with a first frame


async def _read_plays(db: AsyncSession, event_id: str, since_ms: int, until_ms: int) -> _Plays:
    no_frame = QoeView.startup_ms.is_(None)
    row = (
        await db.execute(
            select(
                func.count(),
                _count(and_(no_frame, QoeView.fatal == 1, QoeView.business == 0)),
                _count(and_(no_frame, QoeView.business == 1)),
                _count(and_(no_frame, QoeView.fatal == 0, QoeView.left_before_start == 1)),
                func.count(func.distinct(QoeView.viewer_session)),
                func.count(QoeView.startup_ms),
            ).where(_plays(event_id, since_ms, until_ms))
        )
    ).one()
    return _Plays(*(int(value) for value in row))


async def _read(db: AsyncSession, event_id: str, since_ms: int, until_ms: int) -> tuple[_Plays, list[Any]]:
    plays = await _read_plays(db, event_id, since_ms, until_ms)
    steps = list((await db.execute(_steps(event_id, since_ms, until_ms))).all())
    return plays, steps


def _rates(plays: _Plays, steps: list[Any]) -> Rates:
    return Rates(
        plays=plays.count,
        technical_failures=plays.technical,
        business_failures=plays.business,
        rebuffer_ms=sum(int(s.rebuffer_ms) for s in steps),
        watched_ms=sum(int(s.watched_ms) for s in steps),
    )


async def rates(db: AsyncSession, event_id: str, since: datetime, until: datetime) -> Rates:
    """Plays, start failures and stalled and watched time of `event_id` over the period."""
    return _rates(*await _read(db, event_id, epoch_ms(since), epoch_ms(until)))


async def _startup_rank(
    db: AsyncSession, event_id: str, since_ms: int, until_ms: int, count: int, share: float
) -> int | None:
    """The nearest-rank percentile of the plays' startup times, read at its offset in SQL."""
    if not count:
        return None
    offset = max(0, math.ceil(share * count) - 1)
    return await db.scalar(
        select(QoeView.startup_ms)
        .where(_plays(event_id, since_ms, until_ms), QoeView.startup_ms.is_not(None))
        .order_by(QoeView.startup_ms)
        .offset(offset)
        .limit(1)
    )


async def recent_rates(db: AsyncSession, event_id: str, now: datetime) -> Rates:
    """The rates of the last few minutes (RECENT): what alerts and the outage watch judge."""
    return await rates(db, event_id, now - RECENT, now)


@dataclass(frozen=True)
class Point:
    at: datetime
    viewers: int
    rebuffering_ratio: float | None


@dataclass(frozen=True)
class Report:
    event_id: str
    since: datetime
    until: datetime
    plays: int
    unique_viewers: int
    technical_failures: int
    business_failures: int
    exits_before_video_start: int
    startup_p50: int | None
    startup_p95: int | None
    rebuffer_ms: int
    watched_ms: int
    average_bitrate_kbps: int | None
    concurrent_viewers: int
    step_seconds: int
    points: tuple[Point, ...]

    @property
    def rates(self) -> Rates:
        return Rates(self.plays, self.technical_failures, self.business_failures, self.rebuffer_ms, self.watched_ms)


async def report(db: AsyncSession, event_id: str, since: datetime, until: datetime) -> Report:
    """The whole report of `event_id` over the period (see the module's definitions)."""
    since_ms, until_ms = epoch_ms(since), epoch_ms(until)
    plays, steps = await _read(db, event_id, since_ms, until_ms)
    rates_ = _rates(plays, steps)
    step = step_seconds(since, until)
    step_ms, count = step * 1000, math.ceil((until_ms - since_ms) / (step * 1000))
    # Views heard in each step: +1 where a view's first beacon falls, -1 after its last one's step,
    # counted in SQL by (first step, last step) pairs.
    first_step = ((QoeView.first_ms - since_ms) // step_ms).label("first_step")
    last_step = ((QoeView.last_ms - since_ms) // step_ms).label("last_step")
    spans = await db.execute(
        select(first_step, last_step, func.count())
        .where(QoeView.event_id == event_id, QoeView.last_ms >= since_ms, QoeView.first_ms < until_ms)
        .group_by(first_step, last_step)
    )
    heard = [0] * (count + 1)
    for first, last, views in spans:
        heard[max(0, int(first))] += views
        heard[min(count, int(last) + 1)] -= views
    stalled, played = [0] * count, [0] * count
    for s in steps:
        index = min(count - 1, max(0, (s.step_ms - since_ms) // step_ms))
        stalled[index] += s.rebuffer_ms
        played[index] += s.watched_ms
    points, viewers = [], 0
    for index in range(count):
        viewers += heard[index]
        total = stalled[index] + played[index]
        points.append(Point(instant_of(since_ms + index * step_ms), viewers, stalled[index] / total if total else None))
    concurrent = await db.scalar(
        select(func.count()).where(
            QoeView.event_id == event_id,
            QoeView.last_ms >= until_ms - CONCURRENT_MS,
            QoeView.first_ms < until_ms,
            QoeView.ended == 0,
        )
    )
    rated = sum(int(s.rated_ms) for s in steps)
    weighted = sum(int(s.bitrate_ms) for s in steps)
    return Report(
        event_id=event_id,
        since=since,
        until=until,
        plays=rates_.plays,
        unique_viewers=plays.sessions,
        technical_failures=rates_.technical_failures,
        business_failures=rates_.business_failures,
        exits_before_video_start=plays.left,
        startup_p50=await _startup_rank(db, event_id, since_ms, until_ms, plays.started, 0.5),
        startup_p95=await _startup_rank(db, event_id, since_ms, until_ms, plays.started, 0.95),
        rebuffer_ms=rates_.rebuffer_ms,
        watched_ms=rates_.watched_ms,
        average_bitrate_kbps=round(weighted / rated) if rated else None,
        concurrent_viewers=int(concurrent or 0),
        step_seconds=step,
        points=tuple(points[:MAX_POINTS]),
    )
