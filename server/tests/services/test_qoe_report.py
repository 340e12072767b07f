"""An event's QoE figures from a scripted set of beacons, each checked against a reference
computed here from the script itself (nearest-rank percentiles, ratios, time-weighted bitrate)."""

import math
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from server.services import qoe_report, qoe_summaries
from server.settings import Settings
from server.tests import factories
from server.tests.qoe_beacons import row

pytestmark = pytest.mark.asyncio(loop_scope="session")

T0 = datetime(2026, 11, 30, 19, 0, tzinfo=UTC)
T0_MS = int(T0.timestamp() * 1000)


def reference_rank(values: list[int], share: float) -> int:
    """The smallest value with at least `share` of the values at or below it (by counting)."""
    return min(v for v in values if sum(1 for w in values if w <= v) >= share * len(values))


async def new_event(database) -> str:
    async with database.session() as db:
        made = factories.event(db, "Scripted QoE", status="live", when=T0)
        await db.commit()
        return made.id


async def store(database, rows) -> None:
    """As the beacons' intake stores them: the rows and their summaries."""
    async with database.session() as db:
        db.add_all(rows)
        await qoe_summaries.add(db, rows)
        await db.commit()


def script(event_id: str, seed: int = 7):
    """37 views: most start and play with stalls and switches; some fail (technical, business),
    some leave before the first frame; one view began before the period (only its playing counts)."""
    rng = random.Random(seed)
    rows: list = []
    expected: dict[str, Any] = {"startups": [], "technical": 0, "business": 0, "left": 0, "sessions": set()}
    stalled = played = weighted = 0
    for n in range(37):
        view, session = f"scripted-{n:03d}", f"session-{n % 29:03d}"
        at = T0_MS + n * 40_000
        rows.append(row(event_id, view, "start", at, session))
        expected["sessions"].add(session)
        fate = n % 9
        if fate == 0:  # a technical failure before the first frame, after a recovered error
            rows.append(
                row(event_id, view, "error", at + 500, session, code="networkError", fatal=False, business=False)
            )
            rows.append(
                row(event_id, view, "error", at + 900, session, code="networkError", fatal=True, business=False)
            )
            expected["technical"] += 1
            continue
        if fate == 1:  # refused by design: a paywall
            rows.append(row(event_id, view, "error", at + 300, session, code="forbidden", fatal=True, business=True))
            expected["business"] += 1
            continue
        if fate == 2:  # left before the first frame
            rows.append(row(event_id, view, "exit", at + 2_000, session, ms=0, before_start=True))
            expected["left"] += 1
            continue
        startup = rng.randint(300, 6_000)
        expected["startups"].append(startup)
        rows.append(row(event_id, view, "startup", at + startup, session, ms=startup, bitrate_kbps=800))
        bitrate = 800
        for k in range(rng.randint(1, 6)):
            if rng.random() < 0.4:
                stall = rng.randint(200, 4_000)
                rows.append(row(event_id, view, "rebuffer", at + startup + 15_000 * k + 100, session, ms=stall))
                stalled += stall
            if rng.random() < 0.3:
                bitrate = rng.choice([400, 800, 1_600, 2_800])
                rows.append(
                    row(event_id, view, "bitrate", at + startup + 15_000 * k + 200, session, bitrate_kbps=bitrate)
                )
            watched = rng.randint(5_000, 15_000)
            rows.append(
                row(
                    event_id,
                    view,
                    "watched",
                    at + startup + 15_000 * (k + 1),
                    session,
                    ms=watched,
                    bitrate_kbps=bitrate,
                )
            )
            played += watched
            weighted += watched * bitrate
        # A fatal error after the first frame is not a start failure.
        if fate == 3:
            rows.append(row(event_id, view, "error", at + startup + 16_000 * 7, session, code="mediaError", fatal=True))
    # Began before the period: its start is not a play of the period, its watching is.
    rows.append(row(event_id, "scripted-early", "start", T0_MS - 60_000, "session-early"))
    rows.append(row(event_id, "scripted-early", "watched", T0_MS + 5_000, "session-early", ms=10_000, bitrate_kbps=400))
    played += 10_000
    weighted += 10_000 * 400
    expected.update(stalled=stalled, played=played, weighted=weighted)
    return rows, expected


async def test_the_report_of_a_scripted_period_is_exactly_its_reference(database):
    event_id = await new_event(database)
    rows, expected = script(event_id)
    await store(database, rows)
    until = T0 + timedelta(hours=1)
    async with database.session() as db:
        report = await qoe_report.report(db, event_id, T0, until)
    startups = expected["startups"]
    assert report.plays == 37
    assert report.unique_viewers == len(expected["sessions"]) == 29
    assert (report.technical_failures, report.business_failures) == (expected["technical"], expected["business"])
    assert report.exits_before_video_start == expected["left"]
    assert report.startup_p50 == reference_rank(startups, 0.5)
    assert report.startup_p95 == reference_rank(startups, 0.95)
    assert report.rebuffer_ms == expected["stalled"] and report.watched_ms == expected["played"]
    assert report.rates.rebuffering_ratio == pytest.approx(
        expected["stalled"] / (expected["stalled"] + expected["played"])
    )
    assert report.average_bitrate_kbps == round(expected["weighted"] / expected["played"])
    assert report.rates.start_failure_rate == pytest.approx(expected["technical"] / 37)
    assert report.step_seconds == 30 and len(report.points) == 120
    assert report.points[0].at == T0 and report.points[1].at == T0 + timedelta(seconds=30)


async def test_the_series_counts_the_views_heard_in_each_step(database):
    event_id = await new_event(database)
    # Steps of 10 s: a view counts in each step from its first beacon's to its last's; the second
    # step stalls half the time.
    await store(
        database,
        [
            row(event_id, "step-a", "start", T0_MS + 1_000),
            row(event_id, "step-a", "watched", T0_MS + 15_000, ms=5_000),
            row(event_id, "step-a", "rebuffer", T0_MS + 16_000, ms=5_000),
            row(event_id, "step-b", "start", T0_MS + 20_000),
            row(event_id, "step-b", "watched", T0_MS + 21_000, ms=1_000),
            row(event_id, "step-c", "watched", T0_MS + 59_999, ms=10_000),
            row(event_id, "step-c", "watched", T0_MS + 75_000, ms=15_000),
        ],
    )
    async with database.session() as db:
        report = await qoe_report.report(db, event_id, T0, T0 + timedelta(minutes=10))
    assert report.step_seconds == 10
    viewers = [p.viewers for p in report.points[:8]]
    assert viewers == [1, 1, 1, 0, 0, 1, 1, 1]
    assert report.points[2].rebuffering_ratio == 0
    assert report.points[1].rebuffering_ratio == pytest.approx(5_000 / 10_000)
    assert report.points[3].rebuffering_ratio is None


async def test_concurrent_viewers_are_the_views_heard_lately_that_have_not_left(database):
    event_id = await new_event(database)
    until_ms = T0_MS + 600_000
    await store(
        database,
        [
            row(event_id, "now-a", "watched", until_ms - 10_000, ms=15_000),
            row(event_id, "now-b", "watched", until_ms - 29_000, ms=15_000),
            row(event_id, "now-c", "watched", until_ms - 20_000, ms=15_000),
            row(event_id, "now-c", "exit", until_ms - 5_000, ms=1_000),
            row(event_id, "gone-d", "watched", until_ms - 31_000, ms=15_000),
        ],
    )
    async with database.session() as db:
        report = await qoe_report.report(db, event_id, T0, T0 + timedelta(minutes=10))
    assert report.concurrent_viewers == 2


async def test_an_empty_period_has_no_percentiles_or_ratios(database):
    event_id = await new_event(database)
    async with database.session() as db:
        report = await qoe_report.report(db, event_id, T0, T0 + timedelta(minutes=5))
    assert (report.plays, report.startup_p50, report.startup_p95, report.average_bitrate_kbps) == (0, None, None, None)
    assert report.rates.rebuffering_ratio is None and report.rates.start_failure_rate is None


async def test_rates_agree_with_the_report(database):
    event_id = await new_event(database)
    rows, _ = script(event_id, seed=11)
    await store(database, rows)
    async with database.session() as db:
        report = await qoe_report.report(db, event_id, T0, T0 + timedelta(hours=1))
        rates = await qoe_report.rates(db, event_id, T0, T0 + timedelta(hours=1))
    assert rates == report.rates


async def test_alerts_wait_for_enough_plays_then_follow_the_thresholds():
    settings = Settings(qoe_alert_min_plays=5, qoe_rebuffering_alert=0.05, qoe_start_failure_alert=0.2)
    few = qoe_report.Rates(plays=4, technical_failures=4, business_failures=0, rebuffer_ms=9, watched_ms=1)
    assert not qoe_report.alerts_of(few, settings).raised
    stalls = qoe_report.Rates(plays=5, technical_failures=1, business_failures=3, rebuffer_ms=60, watched_ms=940)
    assert qoe_report.alerts_of(stalls, settings) == qoe_report.Alerts(rebuffering=True, start_failures=False)
    failing = qoe_report.Rates(plays=10, technical_failures=3, business_failures=0, rebuffer_ms=0, watched_ms=1)
    assert qoe_report.alerts_of(failing, settings) == qoe_report.Alerts(rebuffering=False, start_failures=True)


async def test_nearest_rank_of_a_few_values():
    assert qoe_report.nearest_rank([], 0.5) is None
    assert qoe_report.nearest_rank([7], 0.95) == 7
    values = list(range(1, 21))  # 1..20
    assert qoe_report.nearest_rank(values, 0.5) == 10 and qoe_report.nearest_rank(values, 0.95) == 19
    assert qoe_report.nearest_rank(values, 0.95) == reference_rank(values, 0.95)
    assert math.isclose(qoe_report.step_seconds(T0, T0 + timedelta(days=7)), 5040)


async def test_beacons_and_their_summaries_are_deleted_after_the_retention(database, settings):
    from sqlalchemy import func, select

    from server import clock
    from server.models import QoeBeacon, QoeStep, QoeView
    from server.services import qoe_beacons

    event_id = await new_event(database)
    now_ms = qoe_report.epoch_ms(clock.now())
    old_ms = now_ms - (settings.qoe_retention_days + 1) * 86_400_000
    await store(
        database,
        [
            row(event_id, "retired", "watched", old_ms, ms=10_000),
            row(event_id, "kept", "watched", now_ms - 60_000, ms=10_000),
        ],
    )
    await qoe_beacons.delete_expired(database, settings)
    async with database.session() as db:
        views = set(await db.scalars(select(QoeView.view).where(QoeView.event_id == event_id)))
        beacons = set(await db.scalars(select(QoeBeacon.view).where(QoeBeacon.event_id == event_id)))
        steps = await db.scalar(select(func.count()).select_from(QoeStep).where(QoeStep.event_id == event_id))
    assert views == beacons == {"kept"} and steps == 1
