"""The kickoff load test (server/bench/kickoff): its arithmetic and verdicts, and one tiny locust
run of the whole mix against a real server, so `make bench` cannot rot unnoticed. No load is
measured here."""

import math

import pytest

from server.bench.kickoff import analysis
from server.bench.kickoff.__main__ import _next_viewers
from server.bench.kickoff.analysis import Sample
from server.bench.kickoff.mix import (
    BURST_SIGN_IN,
    BURST_SIGNED_IN,
    NAMES,
    PLAYLIST,
    SIGN_IN,
    VIEWER_RPS,
    peak_viewers,
    viewers_for,
)


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
    burst = [Sample(1006.0 + i * 0.1, BURST_SIGN_IN, 50.0 + i * 40, True, 200) for i in range(20)]
    burst += [Sample(s.at, BURST_SIGNED_IN, s.ms, True) for s in burst]
    others = _steady(10, 0, 12, 30)
    result = analysis.fairness(burst + others, _summary(), burst_at=6)
    assert result.fair and result.others_bounded
    assert result.sign_ins.requests == 20 and result.in_order == 1.0
    assert result.others_before.requests == 30  # 3 s .. 6 s
    slow_others = _steady(10, 0, 12, 30) + _steady(10, 6, 9, 400)
    assert not analysis.fairness(burst + slow_others, _summary(), burst_at=6).others_bounded


def test_a_shed_sign_in_asked_again_after_its_wait_is_still_fair_and_left_out_of_the_order():
    # Ten served in order; two shed at 3 s (503), each signed in on its second attempt.
    served = [Sample(1006.0 + i * 0.1, BURST_SIGN_IN, 100.0 + i * 300, True, 200) for i in range(10)]
    shed = [Sample(1007.0 + i * 0.1, BURST_SIGN_IN, 3000.0, False, 503) for i in range(2)]
    again = [Sample(1014.0 + i * 0.1, BURST_SIGN_IN, 80.0, True, 200) for i in range(2)]
    people = [Sample(s.at, BURST_SIGNED_IN, s.ms, True, 0) for s in served] + [
        Sample(1007.0 + i * 0.1, BURST_SIGNED_IN, 7100.0, True, 0) for i in range(2)
    ]
    result = analysis.fairness(served + shed + again + people + _steady(10, 0, 20, 30), _summary(), burst_at=6)
    assert result.fair
    assert result.shed == 2 and result.sign_ins.requests == 14 and result.sign_ins.errors == 2
    assert result.people.requests == 12 and result.people.errors == 0 and result.people.max_ms == 7100.0
    assert result.in_order == 1.0  # the shed attempts' answers are no queue order


def test_the_burst_is_not_fair_when_someone_never_signs_in_or_an_attempt_fails_otherwise():
    served = [Sample(1006.0 + i * 0.1, BURST_SIGN_IN, 100.0 + i * 40, True, 200) for i in range(10)]
    people = [Sample(s.at, BURST_SIGNED_IN, s.ms, True, 0) for s in served]
    given_up = Sample(1007.5, BURST_SIGNED_IN, 30_000.0, False, 0)
    assert not analysis.fairness(served + people + [given_up], _summary(), burst_at=6).fair
    broken = Sample(1007.5, BURST_SIGN_IN, 20.0, False, 500)
    assert not analysis.fairness(served + people + [broken], _summary(), burst_at=6).fair


def test_a_burst_persons_wait_is_no_request_of_the_step():
    samples = [*_steady(10, 0, 30, 20), Sample(1006.0, BURST_SIGNED_IN, 9000.0, True, 0)]
    step = analysis.step(samples, _summary(), base_seconds=10, ramp_seconds=5, hold_seconds=15)
    assert step.overall.requests == len(samples) - 1 and step.overall.max_ms < 9000


def _tiny_run(tmp_path, shape, viewers: int, plan_viewers: int, settings: dict[str, str] | None = None):
    """One short locust run of `shape` against a fresh single server process (with `settings`)."""
    from server.bench.kickoff import prepare
    from server.bench.kickoff.run import run_locust, single_process

    url = prepare.sqlite_database(tmp_path / "kickoff.db")
    event_id = prepare.live_event(url)
    plan = tmp_path / "plan.json"
    prepare.write_plan(plan, url, event_id, plan_viewers, burst=shape.burst)
    with single_process(url, settings) as base_url:
        return run_locust(base_url, plan, tmp_path, "tiny", viewers, shape)


def test_every_request_of_the_mix_runs_against_a_real_server(tmp_path):
    from server.bench.kickoff.run import Shape

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
    samples, summary = _tiny_run(tmp_path, shape, 3, peak_viewers(3, shape.factor))
    failed = [s for s in samples if not s.ok]
    assert not failed, failed[:5]
    counts = {name: sum(s.name == name for s in samples) for name in (*NAMES, BURST_SIGN_IN, BURST_SIGNED_IN)}
    assert all(counts.values()), counts
    assert counts[SIGN_IN] == 3 and counts[BURST_SIGN_IN] == 3 and counts[BURST_SIGNED_IN] == 3
    assert (summary["base_users"], summary["peak_users"]) == (3, 6)
    step = analysis.step(samples, summary, base_seconds=2, ramp_seconds=1, hold_seconds=3)
    assert step.overall.requests == len(samples) - 3 and step.overall.errors == 0


def test_burst_sign_ins_the_server_sheds_are_asked_again_after_retry_after_and_sign_in(tmp_path):
    from server.bench.kickoff.run import Shape

    # Four sign-ins at once, one hash at a time, and a wait bound shorter than two hashes: the
    # later ones are shed with 503 and Retry-After, then come back.
    shape = Shape(
        base_seconds=2,
        ramp_seconds=0,
        hold_seconds=0,
        factor=1,
        signin_share=0,
        socket_share=0,
        burst=4,
        burst_at=0.5,
        burst_spread=0,
    )
    settings = {"TOUCHLINE_ARGON2_SLOTS": "1", "TOUCHLINE_ARGON2_WAIT_SECONDS": "0.03"}
    samples, summary = _tiny_run(tmp_path, shape, 1, 1, settings)
    attempts = [s for s in samples if s.name == BURST_SIGN_IN]
    people = [s for s in samples if s.name == BURST_SIGNED_IN]
    assert any(s.status == 503 for s in attempts), attempts
    assert all(s.ok or s.status == 503 for s in attempts), attempts
    assert len(people) == 4 and all(s.ok for s in people), people
    # The ones shed waited at least the second Retry-After told them before signing in.
    assert max(s.ms for s in people) >= 1000
    result = analysis.fairness(samples, summary, burst_at=0.5)
    assert result.fair and result.shed >= 1
