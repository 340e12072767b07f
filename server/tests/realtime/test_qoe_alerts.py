"""`qoe-alert` to an event's QoE room when its last five minutes cross a threshold, and when they
come back under: on each change only, whichever process runs the job."""

import pytest

from server import clock
from server.realtime.qoe_alerts import check_live_events
from server.services import qoe_summaries
from server.services.qoe_report import epoch_ms
from server.tests import factories
from server.tests.mailbox import recording_socket
from server.tests.qoe_beacons import row

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def live_event(database, status: str = "live") -> str:
    async with database.session() as db:
        made = factories.event(db, "Alerting FC vs Stalling Town", status=status, when=clock.now())
        await db.commit()
        return made.id


async def plays(database, event_id: str, count: int, *, stall_ms: int = 0, fatal: int = 0, ago_ms: int = 60_000):
    """`count` views heard `ago_ms` ago, each playing 10 s after stalling `stall_ms`; the first
    `fatal` of them fail before their first frame instead."""
    at = epoch_ms(clock.now()) - ago_ms
    rows = []
    for n in range(count):
        view = f"alert-{event_id[-6:]}-{ago_ms}-{n}"
        rows.append(row(event_id, view, "start", at))
        if n < fatal:
            rows.append(row(event_id, view, "error", at + 1, code="networkError", fatal=True, business=False))
            continue
        rows.append(row(event_id, view, "startup", at + 2, ms=900))
        if stall_ms:
            rows.append(row(event_id, view, "rebuffer", at + 3, ms=stall_ms))
        rows.append(row(event_id, view, "watched", at + 4, ms=10_000, bitrate_kbps=2800))
    async with database.session() as db:
        db.add_all(rows)
        await qoe_summaries.add(db, rows)
        await db.commit()


def alerts_for(recorder, event_id: str) -> list[dict]:
    return [data for name, data, room in recorder.sent if name == "qoe-alert" and room == f"qoe:{event_id}"]


async def test_stalling_viewers_raise_one_alert_then_one_all_clear(database, settings):
    event_id = await live_event(database)
    with recording_socket() as recorder:
        await plays(database, event_id, 6, stall_ms=2_000)  # 2 s stalled per 12 s: 17%
        await check_live_events(database, settings)
        await check_live_events(database, settings)  # no change: nothing more
        [raised] = alerts_for(recorder, event_id)
        assert raised["raised"] and raised["rebuffering"] and not raised["startFailures"]
        assert raised["plays"] == 6 and raised["rebufferingRatio"] == pytest.approx(12_000 / 72_000)
        await plays(database, event_id, 30, ago_ms=30_000)  # smooth plays dilute it under 5%
        await check_live_events(database, settings)
    raised_then_clear = alerts_for(recorder, event_id)
    assert [a["raised"] for a in raised_then_clear] == [True, False]


async def test_technical_start_failures_raise_the_alert(database, settings):
    event_id = await live_event(database)
    with recording_socket() as recorder:
        await plays(database, event_id, 10, fatal=3)
        await check_live_events(database, settings)
    [raised] = alerts_for(recorder, event_id)
    assert raised["startFailures"] and not raised["rebuffering"]
    assert raised["startFailureRate"] == pytest.approx(0.3)


async def test_too_few_plays_or_a_quiet_event_say_nothing(database, settings):
    few, quiet, archived = (
        await live_event(database),
        await live_event(database),
        await live_event(database, "archived"),
    )
    with recording_socket() as recorder:
        await plays(database, few, settings.qoe_alert_min_plays - 1, fatal=settings.qoe_alert_min_plays - 1)
        await plays(database, archived, 10, fatal=10)
        await check_live_events(database, settings)
    assert alerts_for(recorder, few) == alerts_for(recorder, quiet) == alerts_for(recorder, archived) == []


async def test_beacons_older_than_five_minutes_no_longer_count(database, settings):
    event_id = await live_event(database)
    with recording_socket() as recorder:
        await plays(database, event_id, 10, fatal=10, ago_ms=6 * 60_000)
        await check_live_events(database, settings)
    assert alerts_for(recorder, event_id) == []
