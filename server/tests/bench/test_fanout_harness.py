"""The fan-out benchmark's harness (server/bench/fanout.py): its arithmetic and report, and one
tiny run of every scenario, so `make bench` cannot rot unnoticed. No load is measured here."""

import os

import pytest

from server.bench import fanout
from server.bench.fanout import BARE, CLUSTER, TOUCHLINE, FanoutResult, Round, render, round_stats, rss_kib
from server.tests.realtime.support import redis_server_binary


def test_round_latencies_count_from_the_send_to_each_arrival():
    stats = round_stats(1, 10.0, [10.0 + ms / 1000 for ms in range(1, 101)])  # 1..100 ms
    assert (stats.delivered, stats.p50_ms, stats.p99_ms, stats.last_ms) == pytest.approx((100, 50, 99, 100))


def test_a_round_nobody_received_has_no_latencies():
    stats = round_stats(2, 10.0, [])
    assert stats.delivered == 0 and stats.last_ms != stats.last_ms  # NaN


def test_memory_per_connection_is_the_rss_growth_of_all_servers_over_the_connections():
    result = FanoutResult(CLUSTER, clients=1000, connected=1000, rss_growth_kib=[10_000, 20_000])
    assert result.kb_per_connection == pytest.approx(30_000 * 1024 / 1000 / 1000)


def test_rss_of_a_live_process_is_read_from_proc():
    assert rss_kib(os.getpid()) > 1000


def test_the_report_compares_with_the_baseline_and_judges_the_aims():
    touchline = FanoutResult(
        TOUCHLINE, 100, connected=100, rss_growth_kib=[4000], rounds=[Round(1, 100, 200.0, 1200.0, 1300.0)]
    )
    bare = FanoutResult(BARE, 100, connected=100, rss_growth_kib=[1000], rounds=[Round(1, 100, 50.0, 100.0, 120.0)])
    text = render([touchline, bare])
    assert "p50 x4.0, p99 x12.0, memory x4.0" in text
    assert "p99 1200 ms, every client served: True (aim < 1000 ms) FAIL" in text
    assert "41.0 KB per connection (aim < 30 KB) FAIL" in text


@pytest.mark.asyncio(loop_scope="session")
async def test_every_scenario_runs_end_to_end_with_a_handful_of_clients(tmp_path):
    redis_server_binary()  # the Redis scenario needs it (REQUIRE_REDIS=1 fails instead of skipping)
    results, skipped = await fanout.run_all(clients=6, generators=2, rounds=2, timeout=60, workdir=tmp_path, settle=0.1)
    assert skipped == []
    assert [r.name for r in results] == [TOUCHLINE, BARE, CLUSTER]
    for result in results:
        assert (result.connected, result.failed) == (6, 0), result.errors
        assert [r.number for r in result.rounds] == [1, 2]
        assert result.all_delivered, result.rounds
        assert all(0 < r.p50_ms <= r.p99_ms <= r.last_ms < 15_000 for r in result.rounds)
        assert result.kb_per_connection is not None
    assert len(results[2].rss_growth_kib) == 2  # both server processes are measured
