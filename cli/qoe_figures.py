"""An event's quality of experience (GET /admin/events/{id}/qoe) in words, as `touchline qoe` and the
staff console both show it. None where the answer has no figure (each caller shows its own dash)."""

from collections.abc import Sequence


def percent_of(ratio: float | None) -> str | None:
    """0.012 → '1.2 %'; below a tenth of a percent, two decimals, so a small ratio is not shown as 0."""
    if ratio is None:
        return None
    percent = ratio * 100
    return f"{percent:.2f} %" if 0 < percent < 0.1 else f"{percent:.1f} %"


def startup_of(ms: int | None) -> str | None:
    """1180 → '1.18 s'."""
    return None if ms is None else f"{ms / 1000:.2f} s"


def startups_of(report: dict) -> str | None:
    """'p50 1.18 s · p95 3.42 s': the time from play intent to first frame."""
    p50, p95 = report["startupMs"]["p50"], report["startupMs"]["p95"]
    if p50 is None and p95 is None:
        return None
    return f"p50 {startup_of(p50) or '?'} · p95 {startup_of(p95) or '?'}"


def span_of(seconds: float) -> str:
    """183400 → '50 h 56 min', 2228 → '37 min 8 s', 600 → '10 min', 42 → '42 s'."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    if minutes:
        return f"{minutes} min" + (f" {secs} s" if secs else "")
    return f"{secs} s"


def failures_of(report: dict) -> str:
    failures = report["startFailures"]
    return f"{failures['technical']} technical · {failures['business']} business"


def rebuffering_of(report: dict) -> str | None:
    """'1.2 % (37 min 8 s stalled)': the share of viewing time spent stalled, and how long."""
    ratio = percent_of(report["rebufferingRatio"])
    return None if ratio is None else f"{ratio} ({span_of(report['rebufferSeconds'])} stalled)"


def average_bitrate_of(report: dict) -> str | None:
    kbps = report["averageBitrateKbps"]
    return None if kbps is None else f"{kbps:,} kbit/s"


def alert_of(alerts: dict) -> str | None:
    """What crosses its threshold ('rebuffering', 'start failures', or both), None when nothing does."""
    crossed = [
        words for key, words in (("rebuffering", "rebuffering"), ("startFailures", "start failures")) if alerts[key]
    ]
    return " and ".join(crossed) or None


def viewers_of(report: dict) -> list[float | None]:
    return [float(point["viewers"]) for point in report["series"]["points"]]


def rebuffering_series_of(report: dict) -> list[float | None]:
    """The steps' rebuffering ratios; None for a step in which nothing played."""
    return [point["rebufferingRatio"] for point in report["series"]["points"]]


def peak_of(values: Sequence[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return max(known) if known else None
