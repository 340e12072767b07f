"""`python -m server.bench.search`: search latency over 100,000 events, on SQLite and PostgreSQL.

Each database is made by the migrations and filled by the bulk filler (reused when already
full), then every query of QUERIES runs `--rounds` times through the services the handlers call
(`search_all`, the search page's groups and first events, and `search_events`, its further
pages), on a read session as the handlers open it. The target is a p99 under 50 ms.

Wall-clock time is what a viewer waits; on a machine busy with other work it includes waiting for
a core, so this process's CPU time is reported beside it (on SQLite that is all of the search's
work; on PostgreSQL the server's share is not in it).
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

from ..db import Database
from ..migrate import upgrade
from ..seed.bulk import fill_events
from ..services import search
from ..services.paging import PageQuery
from .servers import _REPO_ROOT, analyzed

VAR = Path(_REPO_ROOT) / "var" / "bench"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/touchline_bench_search"
EVENTS = 100_000
TARGET_P99_MS = 50.0
# (what it tries, the query): names from the seed's fixtures, which the bulk games are played by.
QUERIES = (
    ("whole word", "ashford"),
    ("prefix", "ash"),
    ("typo", "asford"),
    ("two words", "harbor mariners"),
    ("word and typo", "rovers asford"),
    ("sport", "football"),
    ("sport typo", "fotball"),
    ("two letters", "fc"),
    ("nothing", "zzqxv"),
    ("inside a word", "ford"),
)


def log(msg: str) -> None:
    print(f"[bench search] {msg}", file=sys.stderr, flush=True)


def prepare(database: str, events: int) -> str:
    if database == "sqlite":
        VAR.mkdir(parents=True, exist_ok=True)
        url = f"sqlite+aiosqlite:///{VAR / 'search.db'}"
    else:
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'touchline_bench_search'").fetchone():
                conn.execute("CREATE DATABASE touchline_bench_search")
        url = PG_URL
    upgrade(url)
    added = fill_events(url, events)
    log(f"{database}: {added} events added (of {events})")
    return analyzed(url)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def measure(url: str, rounds: int) -> dict[str, dict[str, list[float]]]:
    """Milliseconds per call, by operation and query; CPU milliseconds under "<operation> cpu"."""
    database = Database(url)
    out: dict[str, dict[str, list[float]]] = {
        "search_all": {},
        "search_events": {},
        "search_all cpu": {},
        "search_events cpu": {},
    }
    try:
        for _, q in QUERIES:  # warm: the names' snapshot, statement caches, the OS's file cache
            async with database.read_session() as db:
                await search.search_all(db, q, 5, PageQuery(0, 5, next=True))
        for round_ in range(rounds):
            for _, q in QUERIES:
                for operation in ("search_all", "search_events"):
                    started, cpu = time.perf_counter(), time.process_time()
                    async with database.read_session() as db:
                        if operation == "search_all":
                            await search.search_all(db, q, 5, PageQuery(0, 5, next=True))
                        else:
                            await search.search_events(db, q, (), PageQuery(round_ % 3, 10, next=True))
                    out[operation].setdefault(q, []).append((time.perf_counter() - started) * 1000)
                    out[f"{operation} cpu"].setdefault(q, []).append((time.process_time() - cpu) * 1000)
    finally:
        await database.dispose()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.search", description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=EVENTS)
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--databases", default="sqlite,postgres")
    args = p.parse_args(argv)
    lines = [
        f"{args.events} events, {args.rounds} rounds of {len(QUERIES)} queries; target p99 < {TARGET_P99_MS:g} ms;"
        f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start"
    ]
    report: dict[str, dict] = {}
    failed = False
    for database in args.databases.split(","):
        url = prepare(database, args.events)
        log(f"{database}: measuring")
        timings = asyncio.run(measure(url, args.rounds))
        lines.append(f"\n{database}: {'query':<16} {'search_all p50/p99 ms':>22} {'search_events p50/p99 ms':>25}")
        for kind, q in QUERIES:
            every, events = timings["search_all"][q], timings["search_events"][q]
            lines.append(
                f"  {kind + ' (' + q + ')':<30} {statistics.median(every):8.2f} / {percentile(every, 99):6.2f}"
                f" {statistics.median(events):12.2f} / {percentile(events, 99):6.2f}"
            )
        for operation, by_query in timings.items():
            samples = [t for values in by_query.values() for t in values]
            p50, p99 = statistics.median(samples), percentile(samples, 99)
            report[f"{database} {operation}"] = {"p50_ms": p50, "p99_ms": p99}
            if operation.endswith(" cpu"):
                lines.append(f"  {operation} time of this process, every query: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
                continue
            verdict = "PASS" if p99 < TARGET_P99_MS else "FAIL"
            failed = failed or p99 >= TARGET_P99_MS
            lines.append(f"  {operation}, every query: p50 {p50:.2f} ms, p99 {p99:.2f} ms  {verdict}")
    VAR.mkdir(parents=True, exist_ok=True)
    (VAR / "search.json").write_text(json.dumps(report, indent=2))
    print("\n== Search latency\n" + "\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
