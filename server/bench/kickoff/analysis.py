"""Figures from one locust run of the kickoff load test: its per-request log (locust's
CsvRequestLogger) cut into the shape's phases, the verdict of a step, and the sign-in burst's
fairness. Exact percentiles over every request, not locust's rounded ones."""

import csv
import math
from dataclasses import asdict, dataclass
from pathlib import Path

from ..load import _percentile
from .mix import BURST_SIGN_IN, BURST_SIGNED_IN, NAMES

TARGET_P99_MS = 250.0
TARGET_ERROR_RATE = 0.001
# The users must offer at least this share of the peak's nominal rate while it is held: less means
# the generator (or the users' own waiting) fell behind, and a "held" verdict would flatter.
OFFERED_SHARE = 0.9
# Two burst sign-ins sent this far apart (the latency target) must be answered in that order to
# count as "in order"; closer ones are simultaneous to the people waiting. Two processes each keep
# their own first-come, first-served queue, so sign-ins sent a few milliseconds apart may swap.
ORDER_SLACK_S = 0.25
IN_ORDER_SHARE = 0.95


@dataclass
class Sample:
    at: float  # time.time() when the request was sent
    name: str
    ms: float
    ok: bool
    status: int = 0  # the HTTP status (0: none, a connection error)

    @property
    def done(self) -> float:
        return self.at + self.ms / 1000


@dataclass
class Figures:
    requests: int = 0
    errors: int = 0
    p50_ms: float = math.nan
    p99_ms: float = math.nan
    max_ms: float = math.nan
    rps: float = math.nan  # requests sent per second of the window, when it has one

    @property
    def error_rate(self) -> float:
        return self.errors / self.requests if self.requests else 0.0


def figures(samples: list[Sample], seconds: float | None = None) -> Figures:
    latencies = sorted(s.ms for s in samples)
    return Figures(
        requests=len(samples),
        errors=sum(not s.ok for s in samples),
        p50_ms=_percentile(latencies, 50),
        p99_ms=_percentile(latencies, 99),
        max_ms=latencies[-1] if latencies else math.nan,
        rps=len(samples) / seconds if seconds else math.nan,
    )


def read_requests(path: Path) -> list[Sample]:
    with path.open(newline="", encoding="utf-8") as f:
        return [
            Sample(
                float(row["timestamp"]),
                row["name"],
                float(row["response_time_ms"] or 0),
                not row["exception"],
                int(row.get("status_code") or 0),
            )
            for row in csv.DictReader(f)
        ]


@dataclass
class Step:
    """One run of the kickoff shape at one base rate."""

    base_viewers: int
    peak_viewers: int
    base_rps: float  # nominal: what the watching viewers ask
    peak_rps: float
    overall: Figures
    phases: dict[str, Figures]
    by_name: dict[str, Figures]
    generator_cpu_warning: bool
    held: bool = False
    why: str = ""

    def as_dict(self) -> dict:
        d = asdict(self)
        for f in [d["overall"], *d["phases"].values(), *d["by_name"].values()]:
            f["error_rate"] = f["errors"] / f["requests"] if f["requests"] else 0.0
        return d


def step(
    samples: list[Sample],
    summary: dict,
    *,
    base_seconds: float,
    ramp_seconds: float,
    hold_seconds: float,
) -> Step:
    """Figures for the whole run and each phase; held = p99 and errors under target over every
    request of the run, and the peak really offered while it was held."""
    # A burst person's whole wait is a figure of the fairness check, not a request.
    samples = [s for s in samples if s.name != BURST_SIGNED_IN]
    t0 = summary["started_at"]
    bounds = {
        "base": (0.0, base_seconds),
        "kickoff": (base_seconds, base_seconds + ramp_seconds),
        "hold": (base_seconds + ramp_seconds, base_seconds + ramp_seconds + hold_seconds),
    }
    phases = {
        phase: figures([s for s in samples if start <= s.at - t0 < end], end - start)
        for phase, (start, end) in bounds.items()
    }
    names = [n for n in NAMES if any(s.name == n for s in samples)]
    result = Step(
        base_viewers=summary["base_users"],
        peak_viewers=summary["peak_users"],
        base_rps=summary["base_users"] * summary["viewer_rps"],
        peak_rps=summary["peak_users"] * summary["viewer_rps"],
        overall=figures(samples),
        phases=phases,
        by_name={n: figures([s for s in samples if s.name == n]) for n in names},
        generator_cpu_warning=summary["generator_cpu_warning"],
    )
    reasons = []
    if not samples:
        reasons.append("no requests")
    if not result.overall.p99_ms < TARGET_P99_MS:
        reasons.append(f"p99 {result.overall.p99_ms:.0f} ms")
    if result.overall.error_rate >= TARGET_ERROR_RATE:
        reasons.append(f"errors {result.overall.error_rate:.2%}")
    hold = phases["hold"].rps
    if not hold >= OFFERED_SHARE * result.peak_rps:
        reasons.append(f"offered {hold:.0f} of {result.peak_rps:.0f} req/s at the peak")
    result.held = not reasons
    result.why = ", ".join(reasons)
    return result


@dataclass
class Fairness:
    """A sign-in burst on top of watching viewers."""

    viewers: int
    viewers_rps: float
    sign_ins: Figures  # every attempt; a shed one counts as an error here
    shed: int  # attempts answered 503 with Retry-After (no hash could start in time), then asked again
    people: Figures  # each person, first attempt to token, waits included; error: never signed in
    sign_ins_per_s: float  # attempts signed in per second while the burst lasted
    in_order: float  # share of served attempt pairs sent ORDER_SLACK_S apart answered in the order sent
    others_before: Figures
    others_during: Figures
    generator_cpu_warning: bool
    others_bounded: bool = False
    fair: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


def in_send_order(burst: list[Sample], slack: float = ORDER_SLACK_S) -> float:
    """Share of pairs (sent at least `slack` apart) whose answers came in the order sent:
    1.0 is a first-come, first-served queue."""
    ordered = sorted(burst, key=lambda s: s.at)
    kept = pairs = 0
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.at - a.at < slack:
                continue
            pairs += 1
            kept += a.done <= b.done
    return kept / pairs if pairs else math.nan


def fairness(samples: list[Sample], summary: dict, *, burst_at: float) -> Fairness:
    """Sign-ins of the burst against everything else: before the burst (the 5 s before it, after
    the first arrivals) and while it lasted (first sign-in sent to last one answered)."""
    t0 = summary["started_at"]
    burst = [s for s in samples if s.name == BURST_SIGN_IN]
    shed = [s for s in burst if s.status == 503]
    served = [s for s in burst if s.status != 503]
    people = [s for s in samples if s.name == BURST_SIGNED_IN]
    others = [s for s in samples if s.name not in (BURST_SIGN_IN, BURST_SIGNED_IN)]
    start = min((s.at for s in burst), default=t0 + burst_at)
    end = max((s.done for s in burst + people), default=start)
    before_from = max(t0 + 3.0, t0 + burst_at - 5.0)
    result = Fairness(
        viewers=summary["base_users"],
        viewers_rps=summary["base_users"] * summary["viewer_rps"],
        sign_ins=figures(burst, end - start or None),
        shed=len(shed),
        people=figures(people),
        sign_ins_per_s=sum(s.ok for s in burst) / (end - start) if end > start else math.nan,
        in_order=in_send_order(served),
        others_before=figures([s for s in others if before_from <= s.at < t0 + burst_at], t0 + burst_at - before_from),
        others_during=figures([s for s in others if start <= s.at <= end], end - start or None),
        generator_cpu_warning=summary["generator_cpu_warning"],
    )
    during = result.others_during
    result.others_bounded = during.requests > 0 and during.p99_ms < TARGET_P99_MS and during.errors == 0
    # First come, first served, and nobody given up on: every person signed in, the ones shed too
    # (after the wait they were told), and no attempt failed otherwise.
    result.fair = (
        result.people.requests > 0
        and result.people.errors == 0
        and all(s.ok for s in served)
        and result.in_order >= IN_ORDER_SHARE
    )
    return result
