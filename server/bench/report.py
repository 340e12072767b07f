"""Print the results table, ratios against the bare ASGI ceiling, and target verdicts."""

from collections.abc import Sequence

from .load import LoadResult

BARE = "bare ASGI"
TARGET_RPS = 1500.0
TARGET_P99_MS = 50.0


def _row(r: LoadResult, bare: LoadResult | None) -> str:
    ratio = f"{r.requests_per_s / bare.requests_per_s:6.3f}" if bare and r.mode == "saturated" else "     -"
    size = f"{r.body_bytes:6d}" if r.body_bytes else "     -"
    return (
        f"{r.name:<34} {r.mode:<12} {r.requests_per_s:9.0f} {r.p50_ms:8.2f} "
        f"{r.p99_ms:8.2f} {ratio} {r.errors:6d} {size}  {r.note}"
    )


def verdicts(results: list[LoadResult]) -> list[str]:
    """Throughput from the saturated run; p99 from the rated run (saturated p99 is queueing)."""
    lines = []
    for name in dict.fromkeys(r.name for r in results if r.name.startswith("event list")):
        rows = {r.mode: r for r in results if r.name == name}
        sat = rows.get("saturated")
        rated = next((r for m, r in rows.items() if m.startswith("rated")), None)
        if sat:
            ok = sat.requests_per_s >= TARGET_RPS and sat.errors == 0
            lines.append(
                f"{name}: throughput {sat.requests_per_s:.0f} req/s "
                f"(target >= {TARGET_RPS:.0f}, errors {sat.errors}) "
                f"{'PASS' if ok else 'FAIL'}"
            )
        if rated:
            ok = rated.p99_ms < TARGET_P99_MS and rated.errors == 0
            lines.append(
                f"{name}: p99 {rated.p99_ms:.1f} ms at {rated.mode} "
                f"(target < {TARGET_P99_MS:.0f} ms, errors {rated.errors}) "
                f"{'PASS' if ok else 'FAIL'}"
            )
    return lines


def render(results: list[LoadResult], skipped: Sequence[str] = ()) -> str:
    bare = next((r for r in results if r.name == BARE and r.mode == "saturated"), None)
    head = f"{'name':<34} {'mode':<12} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'xbare':>6} {'errors':>6} {'bytes':>6}"
    lines = [head, "-" * len(head)] + [_row(r, bare) for r in results]
    if bare:
        lines.append(f"xbare = req/s / bare ASGI req/s ({bare.requests_per_s:.0f}), saturated rows")
    lines += [f"skipped: {s}" for s in skipped]
    lines += verdicts(results)
    return "\n".join(lines)
