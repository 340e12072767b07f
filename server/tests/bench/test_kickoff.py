"""The kickoff load test (server/bench/kickoff): its arithmetic and verdicts, and one tiny locust
run of the whole mix against a real server, so `make bench` cannot rot unnoticed. No load is
measured here."""

import math

import pytest

from server.bench.kickoff import analysis
from server.bench.kickoff.__main__ import _next_viewers
from server.bench.kickoff.analysis import Sample
from server.bench.kickoff.mix import BURST_SIGN_IN, NAMES, PLAYLIST, SIGN_IN, VIEWER_RPS, peak_viewers, viewers_for


def test_a_rate_is_a_number_of_watching_viewers_and_the_kickoff_multiplies_it():
    assert round(VIEWER_RPS, 9) == 0.6
    assert viewers_for(6 * VIEWER_RPS) == 6
    assert viewers_for(0.01) == 1
    assert peak_viewers(8) == 100


def test_the_search_doubles_until_a_step_fails_then_bisects():
    assert _next_viewers(None, None, 8) == 8
    assert _next_viewers(8, None, 8) == 16
    assert _next_viewers(None, 8, 8) == 4
    assert _next_viewers(8, 32, 32) == 16
    assert _next_viewers(10, 12, 12) is None  # within 20 %
    assert _next_viewers(None, 1, 1) is None


def _summary(**fields) -> dict:
    summary = {"started_at": 1000.0, "base_users": 2, "peak_users": 25, "viewer_rps": 0.6}
    return {**summary, "generator_cpu_warning": False, **fields}


def _steady(rps: float, start: float, end: float, ms: float, name: str = PLAYLIST) -> list[Sample]:
    count = round((end - start) * rps)
    return [Sample(1000.0 + start + i / rps, name, ms, True) for i in range(count)]


def test_a_step_holds_with_p99_and_errors_under_target_and_the_peak_offered():
    samples = _steady(1.2, 0, 10, 20) + _steady(30, 10, 15, 40) + _steady(15, 15, 30, 20)
    step = analysis.step(samples, _summary(), base_seconds=10, ramp_seconds=5, hold_seconds=15)
    assert step.held, step.why
    assert step.peak_rps == pytest.approx(15)
    assert step.phases["hold"].rps == pytest.approx(15)
    assert list(step.by_name) == [PLAYLIST] and step.by_name[PLAYLIST].requests == len(samples)


def test_a_step_fails_on_p99_on_errors_and_when_the_peak_was_not_offered():
    slow = _steady(15, 15, 30, 20)
    for s in slow[:: len(slow) // 4]:
        s.ms = 900
    step = analysis.step(slow, _summary(), base_seconds=10, ramp_seconds=5, hold_seconds=15)
    assert not step.held and "p99 900 ms" in step.why
    failing = _steady(15, 15, 30, 20)
    failing[0].ok = False
    step = analysis.step(failing, _summary(), base_seconds=10, ramp_seconds=5, hold_seconds=15)
    assert "errors 0.44%" in step.why
    step = analysis.step(_steady(10, 15, 30, 20), _summary(), base_seconds=10, ramp_seconds=5, hold_seconds=15)
    assert step.why == "offered 10 of 15 req/s at the peak"


def test_sign_ins_in_order_counts_pairs_sent_far_enough_apart():
    fifo = [Sample(float(i), BURST_SIGN_IN, 100.0 * i, True) for i in range(5)]
    assert analysis.in_send_order(fifo) == 1.0
    lifo = [Sample(float(i), BURST_SIGN_IN, 2000.0 * (5 - i), True) for i in range(5)]
    assert analysis.in_send_order(lifo) == 0.0
    together = [Sample(0.0, BURST_SIGN_IN, 300.0, True), Sample(0.1, BURST_SIGN_IN, 10.0, True)]
    assert math.isnan(analysis.in_send_order(together))  # 100 ms apart: simultaneous


def test_the_burst_is_fair_and_the_rest_bounded_when_answered_in_order_and_fast():
    burst = [Sample(1006.0 + i * 0.1, BURST_SIGN_IN, 50.0 + i * 40, True) for i in range(20)]
    others = _steady(10, 0, 12, 30)
    result = analysis.fairness(burst + others, _summary(), burst_at=6)
    assert result.fair and result.others_bounded
    assert result.sign_ins.requests == 20 and result.in_order == 1.0
    assert result.others_before.requests == 30  # 3 s .. 6 s
    slow_others = _steady(10, 0, 12, 30) + _steady(10, 6, 9, 400)
    assert not analysis.fairness(burst + slow_others, _summary(), burst_at=6).others_bounded


def test_every_request_of_the_mix_runs_against_a_real_server(tmp_path):
    from server.bench.kickoff import prepare
    from server.bench.kickoff.run import Shape, run_locust, single_process

    url = prepare.sqlite_database(tmp_path / "kickoff.db")
    event_id = prepare.live_event(url)
    # Half the viewers sign in and half hold a socket, so three base viewers cover every kind.
    shape = Shape(
        base_seconds=2,
        ramp_seconds=1,
        hold_seconds=3,
        factor=2,
        signin_share=0.5,
        socket_share=0.5,
        burst=3,
        burst_at=1,
        burst_spread=0.3,
    )
    plan = tmp_path / "plan.json"
    prepare.write_plan(plan, url, event_id, peak_viewers(3, shape.factor), burst=shape.burst)
    with single_process(url) as base_url:
        samples, summary = run_locust(base_url, plan, tmp_path, "tiny", 3, shape)
    failed = [s for s in samples if not s.ok]
    assert not failed, failed[:5]
    counts = {name: sum(s.name == name for s in samples) for name in (*NAMES, BURST_SIGN_IN)}
    assert all(counts.values()), counts
    assert counts[SIGN_IN] == 3 and counts[BURST_SIGN_IN] == 3
    assert (summary["base_users"], summary["peak_users"]) == (3, 6)
    step = analysis.step(samples, summary, base_seconds=2, ramp_seconds=1, hold_seconds=3)
    assert step.overall.requests == len(samples) and step.overall.errors == 0
