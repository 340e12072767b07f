"""`python -m server.bench.qoe`: quality-of-experience beacons (issue 32), on one process.

- intake: POST /api/qoe/beacons on one server process (uvicorn, SQLite), batches of 10 beacons
  sent by wrk for 10 s (the budgets raised so no batch is refused); batches and beacons a second.
- report: `GET /admin/events/{id}/qoe`'s reading (server.services.qoe_report.report) over an event
  with 100,000 beacons of 10,000 views spread over two hours; the median of 7 runs, on SQLite and,
  when its server answers, PostgreSQL. Aim < 100 ms.
"""

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .load import run_wrk
from .servers import analyzed, fresh_sqlite_database, run_server

DB_FILE = Path(__file__).resolve().parents[2] / "var" / "bench" / "qoe.db"
BEACONS = 100_000
PER_VIEW = 10
TARGET_MS = 100.0
T0 = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


async def _event(url: str) -> str:
    from server.db import Database
    from server.tests import factories

    database = Database(url)
    try:
        async with database.session() as db:
            event = factories.event(db, "Bench QoE FC vs Beacon Town", status="live", when=T0)
            await db.commit()
            return event.id
    finally:
        await database.dispose()


def _rows(event_id: str, count: int) -> list[dict]:
    """`count` beacons: views of a start, a first frame, stalls and watched time over two hours."""
    from server.models import new_id

    rng = random.Random(32)
    kinds = ["start", "startup", "watched", "rebuffer", "watched", "bitrate", "watched", "watched", "watched", "exit"]
    rows = []
    for n in range(count):
        view, kind = f"bench-view-{n // PER_VIEW:06d}", kinds[n % PER_VIEW]
        received = T0 + timedelta(seconds=(n // PER_VIEW) * 0.72 + (n % PER_VIEW) * 15)
        rows.append(
            {
                "id": new_id(),
                "event_id": event_id,
                "view": view,
                "viewer_session": f"bench-session-{(n // PER_VIEW) % 7000:05d}",
                "kind": kind,
                "asset": None,
                "rendition": "720p",
                "player": "hls.js",
                "player_version": "1.7.4",
                "ms": rng.randint(300, 15_000) if kind in ("startup", "watched", "rebuffer", "exit") else None,
                "bitrate_kbps": 2800 if kind in ("startup", "watched", "bitrate") else None,
                "code": None,
                "fatal": None,
                "business": None,
                "before_start": False if kind == "exit" else None,
                "occurred": received,
                "received_ms": int(received.timestamp() * 1000),
            }
        )
    return rows


async def _fill(url: str, count: int) -> str:
    from sqlalchemy import insert

    from server.db import Database
    from server.models import QoeBeacon
    from server.services import qoe_summaries

    event_id = await _event(url)
    database = Database(url)
    try:
        rows = _rows(event_id, count)
        async with database.session() as db:
            for start in range(0, len(rows), 5000):
                await db.execute(insert(QoeBeacon), rows[start : start + 5000])
            # The summaries as the intake keeps them (server.services.qoe_summaries).
            for start in range(0, len(rows), 5000):
                await qoe_summaries.add(db, [QoeBeacon(**row) for row in rows[start : start + 5000]])
            await db.commit()
        return event_id
    finally:
        await database.dispose()


async def _time_report(url: str, event_id: str, runs: int = 7) -> tuple[float, int]:
    from server.db import Database
    from server.services import qoe_report

    database = Database(url)
    times, plays = [], 0
    try:
        for _ in range(runs):
            async with database.session() as db:
                began = time.perf_counter()
                report = await qoe_report.report(db, event_id, T0, T0 + timedelta(hours=2, minutes=30))
                times.append((time.perf_counter() - began) * 1000)
                plays = report.plays
        return statistics.median(times[1:]), plays  # the first warms the page cache
    finally:
        await database.dispose()


def _report(url: str, name: str) -> float:
    log(f"report ({name}): filling {BEACONS} beacons")
    event_id = asyncio.run(_fill(url, BEACONS))
    url = analyzed(url)
    ms, plays = asyncio.run(_time_report(url, event_id))
    print(f"{'QoE report, ' + name:<36} {BEACONS:>9} {plays:>7} {ms:>9.1f}")
    return ms


def _intake(seconds: int) -> tuple[float, float]:
    url = fresh_sqlite_database(DB_FILE)
    event_id = asyncio.run(_event(url))
    beacons = [
        {
            "view": "bench-intake-view",
            "type": "watched",
            "event": event_id,
            "asset": None,
            "rendition": "720p",
            "player": "hls.js",
            "playerVersion": "1.7.4",
            "at": "2026-11-30T19:00:00Z",
            "ms": 10_000,
            "bitrateKbps": 2800,
        }
    ] * 10
    body = json.dumps({"anonymousId": "bench-intake-browser", "beacons": beacons}).encode()
    env = {
        "DATABASE_URL": url,
        "TOUCHLINE_RESPONSE_VALIDATION": "false",
        "TOUCHLINE_QOE_BATCHES_PER_ADDRESS": "100000000",
        "TOUCHLINE_QOE_BATCHES_PER_VIEW": "100000000",
    }
    with run_server("server.bench.servers:touchline_app", env) as server:
        result = run_wrk(
            f"{server.base_url}/api/qoe/beacons",
            "qoe intake",
            method="POST",
            body=body,
            headers={"Content-Type": "application/json"},
            duration=seconds,
            connections=16,
        )
    if result.errors:
        log(f"qoe intake: {result.errors} errors or refusals")
    return result.requests_per_s, result.requests_per_s * len(beacons)


def main(argv: list[str] | None = None) -> int:
    from server.checks import pg_database

    p = argparse.ArgumentParser(prog="python -m server.bench.qoe", description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=int, default=10)
    args = p.parse_args(argv)
    if shutil.which("wrk"):
        log("beacon intake on one process")
        batches, beacons = _intake(args.seconds)
        print(f"QoE beacon intake, one process: {batches:.0f} batches/s, {beacons:.0f} beacons/s")
    else:
        print("QoE beacon intake: skipped (wrk is not installed: make bench installs it)")
    print(f"{'QoE report over':<36} {'beacons':>9} {'plays':>7} {'median ms':>9}")
    worst = _report(fresh_sqlite_database(DB_FILE), "sqlite")
    if pg_database.server_reachable(pg_database.DEFAULT_SERVER_URL):
        with pg_database.fresh_database(pg_database.DEFAULT_SERVER_URL, prefix="touchline_bench_qoe") as url:
            from server.migrate import upgrade

            upgrade(url)
            worst = max(worst, _report(url, "postgresql"))
    verdict = "PASS" if worst < TARGET_MS else "FAIL"
    print(f"QoE report of {BEACONS} beacons in {worst:.1f} ms at worst (aim < {TARGET_MS:.0f} ms) {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
