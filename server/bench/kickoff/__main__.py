"""`python -m server.bench.kickoff`: the kickoff load test, every configuration in one run
(see the package docstring for what it measures)."""

import argparse
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from .. import report as bench_report
from ..baselines import DEFAULT_BODY_BYTES
from ..load import LoadResult, run_wrk
from ..servers import _REPO_ROOT, run_server
from . import analysis, prepare
from .mix import FACTOR, RAMP_SECONDS, VIEWER_RPS, peak_viewers
from .run import Shape, cluster, run_locust, single_process

VAR = Path(_REPO_ROOT) / "var" / "bench"
WORKDIR = VAR / "kickoff"
OUTPUT = VAR / "kickoff.json"
PG_DATABASE = "touchline_kickoff_bench"
SQLITE = "1 process, SQLite"
POSTGRES = "1 process, PostgreSQL"
CLUSTER = "2 processes, PostgreSQL + Redis"
CONFIGURATIONS = {"sqlite": SQLITE, "postgres": POSTGRES, "cluster": CLUSTER}


def log(msg: str) -> None:
    print(f"[bench kickoff] {msg}", file=sys.stderr, flush=True)


@dataclass
class Outcome:
    name: str
    config: LoadResult | None = None  # GET /api/config, saturated, on the same servers
    steps: list[analysis.Step] = field(default_factory=list)
    fairness: analysis.Fairness | None = None
    error: str = ""

    @property
    def best(self) -> analysis.Step | None:
        held = [s for s in self.steps if s.held]
        return max(held, key=lambda s: s.base_viewers) if held else None

    @property
    def lowest_failed(self) -> analysis.Step | None:
        failed = [s for s in self.steps if not s.held]
        return min(failed, key=lambda s: s.base_viewers) if failed else None


def _next_viewers(lo: int | None, hi: int | None, current: int) -> int | None:
    """Double until a step fails, halve until one holds, then bisect (geometrically); None when
    the bracket is within 20 % (or a viewer)."""
    if lo is None and hi is None:
        return current
    if lo is None:
        assert hi is not None
        return hi // 2 if hi > 1 else None
    if hi is None:
        return lo * 2
    if hi - lo <= 1 or hi / lo <= 1.2:
        return None
    return round(math.sqrt(lo * hi))


def search(
    name: str, base_url: str, database_url: str, event_id: str, args: argparse.Namespace, outcome: Outcome
) -> None:
    """Steps of the kickoff shape, each at one base rate, within args.budget seconds."""
    shape = Shape(base_seconds=args.base_seconds, hold_seconds=args.hold_seconds)
    workdir = WORKDIR / _slug(name)
    deadline = time.monotonic() + args.budget
    lo: int | None = None
    hi: int | None = None
    viewers: int | None = args.start_viewers
    while viewers is not None and len(outcome.steps) < args.max_steps:
        if time.monotonic() + shape.seconds + 5 > deadline:
            log(f"{name}: time budget spent")
            break
        plan = workdir / "plan.json"
        prepare.write_plan(plan, database_url, event_id, peak_viewers(viewers, shape.factor))
        samples, summary = run_locust(base_url, plan, workdir, f"step-{viewers}", viewers, shape)
        step = analysis.step(
            samples,
            summary,
            base_seconds=shape.base_seconds,
            ramp_seconds=shape.ramp_seconds,
            hold_seconds=shape.hold_seconds,
        )
        outcome.steps.append(step)
        log(
            f"{name}: {step.base_rps:.1f} -> {step.peak_rps:.0f} req/s ({viewers} -> {step.peak_viewers} viewers): "
            f"p99 {step.overall.p99_ms:.0f} ms, errors {step.overall.error_rate:.2%}, "
            f"peak offered {step.phases['hold'].rps:.0f} req/s: {'held' if step.held else 'not held: ' + step.why}"
            + (" (generator above 90 % CPU)" if step.generator_cpu_warning else "")
        )
        if step.held:
            lo = viewers
        else:
            hi = viewers
        viewers = _next_viewers(lo, hi, viewers)


def fairness_check(
    name: str, base_url: str, database_url: str, event_id: str, args: argparse.Namespace, outcome: Outcome
) -> None:
    """Watching viewers at half the highest peak held (steady, no kickoff), then a sign-in burst."""
    best = outcome.best
    viewers = max(1, best.peak_viewers // 2) if best else args.start_viewers
    shape = Shape(
        base_seconds=args.burst_at + args.burst_spread + 4,
        ramp_seconds=0,
        hold_seconds=0,
        factor=1,
        signin_share=0,  # the burst is the only sign-ins: both groups stay apart
        burst=args.burst,
        burst_at=args.burst_at,
        burst_spread=args.burst_spread,
    )
    workdir = WORKDIR / _slug(name)
    plan = workdir / "plan.json"
    prepare.write_plan(plan, database_url, event_id, viewers, burst=args.burst)
    samples, summary = run_locust(base_url, plan, workdir, "sign-in-burst", viewers, shape)
    outcome.fairness = result = analysis.fairness(samples, summary, burst_at=args.burst_at)
    log(
        f"{name}: sign-in burst of {args.burst} over {args.burst_spread:g} s on {result.viewers_rps:.0f} req/s: "
        f"sign-ins p99 {result.sign_ins.p99_ms:.0f} ms, {result.in_order:.0%} in order, {result.shed} shed, "
        f"everyone signed in within {result.people.max_ms:.0f} ms: {result.people.errors == 0}; others p99 "
        f"{result.others_before.p99_ms:.0f} ms before, {result.others_during.p99_ms:.0f} ms during"
    )


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def measure_config(base_url: str, name: str, args: argparse.Namespace) -> LoadResult:
    """The trivial operation on the same servers: GET /api/config, wrk, saturated."""
    import http.client

    host, port = base_url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request("GET", "/api/config")
    body = conn.getresponse().read()
    conn.close()
    result = run_wrk(base_url + "/api/config", f"GET /api/config ({name})", duration=args.wrk_seconds, connections=64)
    result.body_bytes = len(body)
    log(f"{name}: GET /api/config {result.requests_per_s:.0f} req/s")
    return result


def run_configuration(
    key: str,
    args: argparse.Namespace,
    databases: dict[str, str],
    event_ids: dict[str, str],
) -> Outcome:
    name = CONFIGURATIONS[key]
    outcome = Outcome(name)
    try:
        kind = "sqlite" if key == "sqlite" else "postgres"
        if kind not in databases:
            log(f"{name}: seeding the {kind} database")
            if kind == "sqlite":
                databases[kind] = prepare.sqlite_database(WORKDIR / "kickoff.db")
            else:
                databases[kind] = prepare.postgres_database(PG_DATABASE)
            event_ids[kind] = prepare.live_event(databases[kind])
        url, event_id = databases[kind], event_ids[kind]
        servers: Callable[[], AbstractContextManager[str]] = (
            (lambda: cluster(url, WORKDIR / "cluster")) if key == "cluster" else (lambda: single_process(url))
        )
        with servers() as base_url:
            outcome.config = measure_config(base_url, name, args)
            _warm_up(base_url, url, event_id, name)
            search(name, base_url, url, event_id, args, outcome)
            if args.burst:
                fairness_check(name, base_url, url, event_id, args, outcome)
    except Exception as exc:  # one broken configuration must not hide the others
        log(f"{name}: {type(exc).__name__}: {exc}")
        last = [line for line in str(exc).splitlines() if line.strip()][:1] or [""]
        outcome.error = f"{type(exc).__name__}: {last[0]}"
    return outcome


def _warm_up(base_url: str, database_url: str, event_id: str, name: str) -> None:
    """A few seconds of every request kind, not reported: imports, pools and caches of a
    freshly started server would otherwise count against the first step."""
    workdir = WORKDIR / _slug(name)
    plan = workdir / "plan.json"
    prepare.write_plan(plan, database_url, event_id, 6)
    shape = Shape(base_seconds=4, ramp_seconds=0, hold_seconds=0, factor=1, signin_share=0.5, socket_share=0.5)
    run_locust(base_url, plan, workdir, "warm-up", 6, shape)


def bare_asgi(args: argparse.Namespace, body_bytes: int) -> LoadResult:
    with run_server("server.bench.baselines:bare_asgi_app", {"BENCH_BODY_BYTES": str(body_bytes)}) as server:
        result = run_wrk(f"{server.base_url}/", bench_report.BARE, duration=args.wrk_seconds, connections=64)
    log(f"bare ASGI: {result.requests_per_s:.0f} req/s")
    return result


def render(outcomes: list[Outcome], bare: LoadResult | None, cores: int | None, args: argparse.Namespace) -> str:
    bare_rps = bare.requests_per_s if bare else math.nan
    lines = [
        f"== Kickoff load test: {cores} cores; base rate for {args.base_seconds:g} s, "
        f"{FACTOR:g}x within {RAMP_SECONDS:g} s, held {args.hold_seconds:g} s; "
        f"held = p99 < {analysis.TARGET_P99_MS:.0f} ms and errors < {analysis.TARGET_ERROR_RATE:.1%} "
        "over the whole run",
        f"   a watching viewer asks {VIEWER_RPS:.1f} req/s (live playlist every 2 s, event page and list every 20 s); "
        "arriving viewers refresh (or 5 % sign in), open the page, the master playlist and the list, "
        "20 % join the room",
        f"bare ASGI (same bytes as GET /api/config): {bare_rps:.0f} req/s saturated (wrk, 64 connections)",
    ]
    head = (
        f"{'configuration':<33} {'config/s':>8} {'base/s':>7} {'peak/s':>7} {'viewers':>8} {'offered':>8} "
        f"{'p50 ms':>7} {'p99 ms':>7} {'errors':>7} {'xconfig':>7} {'xbare':>7}"
    )
    lines += [head, "-" * len(head)]
    for o in outcomes:
        config_rps = o.config.requests_per_s if o.config else math.nan
        best = o.best
        if best is None:
            lowest = o.lowest_failed
            why = o.error or (
                f"not even {lowest.base_rps:.1f} req/s held: {lowest.why}" if lowest else "no step ran (--budget)"
            )
            lines.append(f"{o.name:<33} {config_rps:8.0f}  none held  {why}")
            continue
        offered = best.phases["hold"].rps
        lines.append(
            f"{o.name:<33} {config_rps:8.0f} {best.base_rps:7.1f} {best.peak_rps:7.0f} {best.peak_viewers:8d} "
            f"{offered:8.0f} {best.overall.p50_ms:7.1f} {best.overall.p99_ms:7.0f} {best.overall.error_rate:7.2%} "
            f"{offered / config_rps:7.3f} {offered / bare_rps:7.4f}"
        )
    lines.append(
        "config/s: GET /api/config saturated on the same servers; base/s, peak/s: the highest base rate held and "
        f"{FACTOR:g}x it (nominal); offered: req/s measured while the peak was held; xconfig, xbare: offered / "
        "config/s, / bare ASGI"
    )
    for o in outcomes:
        first_fail = o.lowest_failed
        if first_fail is not None:
            lines.append(
                f"{o.name}: next step {first_fail.base_rps:.1f} -> {first_fail.peak_rps:.0f} req/s not held: "
                f"{first_fail.why}" + (" (generator above 90 % CPU)" if first_fail.generator_cpu_warning else "")
            )
        best = o.best
        if best is not None:
            parts = [f"{n} {f.p99_ms:.0f}" for n, f in best.by_name.items()]
            lines.append(f"{o.name}: p99 ms by request at the best step: " + ", ".join(parts))
    lines.append("")
    head = (
        f"{'sign-in burst':<33} {'load/s':>6} {'n':>4} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'in/s':>5} "
        f"{'order':>6} {'shed':>5} {'signed in p99':>13} {'max':>6} {'fair':>5} {'others p99 before':>17} "
        f"{'during':>7} {'bounded':>8}"
    )
    lines += [head, "-" * len(head)]
    for o in outcomes:
        f = o.fairness
        if f is None:
            continue
        s = f.sign_ins
        lines.append(
            f"{o.name:<33} {f.viewers_rps:6.0f} {f.people.requests:4d} "
            f"{s.p50_ms:7.0f} {s.p99_ms:7.0f} {s.max_ms:7.0f} "
            f"{f.sign_ins_per_s:5.0f} {f.in_order:6.1%} {f.shed:5d} {f.people.p99_ms:13.0f} {f.people.max_ms:6.0f} "
            f"{'PASS' if f.fair else 'FAIL':>5} "
            f"{f.others_before.p99_ms:17.0f} {f.others_during.p99_ms:7.0f} {'PASS' if f.others_bounded else 'FAIL':>8}"
            + ("  (generator above 90 % CPU)" if f.generator_cpu_warning else "")
        )
    lines.append(
        f"{args.burst} sign-ins sent over {args.burst_spread:g} s on top of viewers watching at half the peak held; "
        "n: people signing in; p50/p99/max: each attempt's answer; "
        "in/s: sign-ins answered per second; "
        f"order: share of served sign-ins sent {analysis.ORDER_SLACK_S * 1000:.0f} ms or more apart answered in that "
        "order; shed: attempts answered 503 with Retry-After (no hash could start within the wait bound), "
        "asked again after that wait as the webapp does; signed in p99/max: first attempt "
        f"to token, waits included; fair: everyone signed in and >= {analysis.IN_ORDER_SHARE:.0%} in order; "
        f"bounded: the other requests' p99 while the burst lasted < {analysis.TARGET_P99_MS:.0f} ms, without errors"
    )
    return "\n".join(lines)


def as_json(outcomes: list[Outcome], bare: LoadResult | None, cores: int | None, args: argparse.Namespace) -> dict:
    def load(r: LoadResult | None) -> dict | None:
        return None if r is None else {"requests_per_s": r.requests_per_s, "p50_ms": r.p50_ms, "p99_ms": r.p99_ms}

    bare_rps = bare.requests_per_s if bare else math.nan
    configurations = []
    for o in outcomes:
        best = o.best
        config_rps = o.config.requests_per_s if o.config else math.nan
        offered = best.phases["hold"].rps if best else math.nan
        configurations.append(
            {
                "name": o.name,
                "error": o.error or None,
                "get_config": load(o.config),
                "held": None
                if best is None
                else {
                    "base_rps": best.base_rps,
                    "peak_rps": best.peak_rps,
                    "peak_viewers": best.peak_viewers,
                    "offered_rps": offered,
                    "p99_ms": best.overall.p99_ms,
                    "error_rate": best.overall.error_rate,
                    "x_config": offered / config_rps,
                    "x_bare": offered / bare_rps,
                },
                "steps": [s.as_dict() for s in o.steps],
                "sign_in_burst": o.fairness.as_dict() if o.fairness else None,
            }
        )
    return {
        "cores": cores,
        "targets": {"p99_ms": analysis.TARGET_P99_MS, "error_rate": analysis.TARGET_ERROR_RATE},
        "shape": {
            "base_seconds": args.base_seconds,
            "ramp_seconds": RAMP_SECONDS,
            "hold_seconds": args.hold_seconds,
            "factor": FACTOR,
            "viewer_rps": VIEWER_RPS,
        },
        "bare_asgi": load(bare),
        "configurations": configurations,
    }


def _finite(value):
    """JSON without NaN (which is not JSON)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.kickoff", description=__doc__)
    p.add_argument(
        "--configurations", default="sqlite,postgres,cluster", help="comma-separated: " + ", ".join(CONFIGURATIONS)
    )
    p.add_argument("--start-viewers", type=int, default=8, help="base viewers of the first step")
    p.add_argument("--base-seconds", type=float, default=10)
    p.add_argument("--hold-seconds", type=float, default=15)
    p.add_argument("--budget", type=float, default=200, help="seconds of steps per configuration")
    p.add_argument("--max-steps", type=int, default=7)
    p.add_argument("--burst", type=int, default=150, help="sign-ins of the fairness check; 0 = skip it")
    p.add_argument("--burst-at", type=float, default=6)
    p.add_argument("--burst-spread", type=float, default=2)
    p.add_argument("--wrk-seconds", type=int, default=5)
    args = p.parse_args(argv)
    keys = [k.strip() for k in args.configurations.split(",") if k.strip()]
    unknown = set(keys) - set(CONFIGURATIONS)
    if unknown:
        p.error(f"unknown configurations: {', '.join(sorted(unknown))}")

    cores = os.cpu_count()
    WORKDIR.mkdir(parents=True, exist_ok=True)
    databases: dict[str, str] = {}
    event_ids: dict[str, str] = {}
    outcomes: list[Outcome] = []
    try:
        for key in keys:
            outcomes.append(run_configuration(key, args, databases, event_ids))
    finally:
        if "postgres" in databases:
            prepare.drop_postgres_database(PG_DATABASE)
    # The bare endpoint answers as many bytes as GET /api/config: only the framework's cost differs.
    size = next((o.config.body_bytes for o in outcomes if o.config and o.config.body_bytes), DEFAULT_BODY_BYTES)
    bare = bare_asgi(args, size)
    print(render(outcomes, bare, cores, args))
    OUTPUT.write_text(json.dumps(_finite(as_json(outcomes, bare, cores, args)), indent=2))
    log(f"written {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
