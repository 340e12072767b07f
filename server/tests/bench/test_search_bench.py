"""The search benchmark's harness on a small SQLite database: every query is measured, each answer
is a real search (no load run)."""

import asyncio

from server.bench import search as bench
from server.migrate import upgrade
from server.seed.bulk import fill_events


def test_percentile_takes_the_nearest_rank():
    samples = [float(n) for n in range(1, 101)]
    assert bench.percentile(samples, 50) == 51.0
    assert bench.percentile(samples, 99) == 99.0
    assert bench.percentile([3.0], 99) == 3.0


def test_measure_times_both_operations_for_every_query(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'bench.db'}"
    upgrade(url)
    fill_events(url, 300)
    timings = asyncio.run(bench.measure(url, rounds=2))
    queries = {q for _, q in bench.QUERIES}
    for operation in ("search_all", "search_events", "search_all cpu", "search_events cpu"):
        assert set(timings[operation]) == queries
        assert all(len(samples) == 2 and all(ms >= 0 for ms in samples) for samples in timings[operation].values())
