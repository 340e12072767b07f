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
and watched time starts at the step `since` falls in. A period of 100,000 beacons reads about
10,000 view rows and 720 steps (`make bench`).
"""

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Select, select
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


def _views(event_id: str, since_ms: int, until_ms: int) -> Select[Any]:
    """The views heard in the period (QoeView: a row a view)."""
    return select(
        QoeView.viewer_session,
        QoeView.began_ms,
        QoeView.startup_ms,
        QoeView.fatal,
        QoeView.business,
        QoeView.left_before_start,
        QoeView.ended,
        QoeView.first_ms,
        QoeView.last_ms,
    ).where(QoeView.event_id == event_id, QoeView.last_ms >= since_ms, QoeView.first_ms < until_ms)


def _steps(event_id: str, since_ms: int, until_ms: int) -> Select[Any]:
    """The period's 10 s steps (QoeStep), from the one it starts in."""
    first = since_ms // STEP_MS * STEP_MS
    return select(QoeStep.step_ms, QoeStep.rebuffer_ms, QoeStep.watched_ms, QoeStep.rated_ms, QoeStep.bitrate_ms).where(
        QoeStep.event_id == event_id, QoeStep.step_ms >= first, QoeStep.step_ms < until_ms
    )


def _began_in(row: Any, since_ms: int, until_ms: int) -> bool:
    return row.began_ms is not None and since_ms <= row.began_ms < until_ms


def _rates(views: list[Any], steps: list[Any], since_ms: int, until_ms: int) -> Rates:
    plays = [v for v in views if _began_in(v, since_ms, until_ms)]
    return Rates(
        plays=len(plays),
        technical_failures=sum(1 for v in plays if v.startup_ms is None and v.fatal and not v.business),
        business_failures=sum(1 for v in plays if v.startup_ms is None and v.business),
        rebuffer_ms=sum(int(s.rebuffer_ms) for s in steps),
        watched_ms=sum(int(s.watched_ms) for s in steps),
    )


async def _read(db: AsyncSession, event_id: str, since_ms: int, until_ms: int) -> tuple[list[Any], list[Any]]:
    views = list((await db.execute(_views(event_id, since_ms, until_ms))).all())
    steps = list((await db.execute(_steps(event_id, since_ms, until_ms))).all())
    return views, steps


async def rates(db: AsyncSession, event_id: str, since: datetime, until: datetime) -> Rates:
    """Plays, start failures and stalled and watched time of `event_id` over the period."""
    since_ms, until_ms = epoch_ms(since), epoch_ms(until)
    return _rates(*await _read(db, event_id, since_ms, until_ms), since_ms, until_ms)


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
    views, steps = await _read(db, event_id, since_ms, until_ms)
    rates_ = _rates(views, steps, since_ms, until_ms)
    plays = [v for v in views if _began_in(v, since_ms, until_ms)]
    startups = sorted(v.startup_ms for v in plays if v.startup_ms is not None)
    step = step_seconds(since, until)
    step_ms, count = step * 1000, math.ceil((until_ms - since_ms) / (step * 1000))
    # Views heard in each step: +1 where a view's first beacon falls, -1 after its last one's step.
    heard = [0] * (count + 1)
    for v in views:
        heard[max(0, (v.first_ms - since_ms) // step_ms)] += 1
        heard[min(count, (v.last_ms - since_ms) // step_ms + 1)] -= 1
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
    rated = sum(int(s.rated_ms) for s in steps)
    weighted = sum(int(s.bitrate_ms) for s in steps)
    return Report(
        event_id=event_id,
        since=since,
        until=until,
        plays=rates_.plays,
        unique_viewers=len({v.viewer_session for v in plays}),
        technical_failures=rates_.technical_failures,
        business_failures=rates_.business_failures,
        exits_before_video_start=sum(1 for v in plays if v.startup_ms is None and not v.fatal and v.left_before_start),
        startup_p50=nearest_rank(startups, 0.5),
        startup_p95=nearest_rank(startups, 0.95),
        rebuffer_ms=rates_.rebuffer_ms,
        watched_ms=rates_.watched_ms,
        average_bitrate_kbps=round(weighted / rated) if rated else None,
        concurrent_viewers=sum(
            1 for v in views if not v.ended and v.last_ms >= until_ms - CONCURRENT_MS and v.first_ms < until_ms
        ),
        step_seconds=step,
        points=tuple(points[:MAX_POINTS]),
    )
