"""A kickoff through the media edge (issue 30's benchmark): VIEWERS viewers arriving at once on one
live stream, as players poll it, through nginx in front of one server process.

locust runs the viewers (`locustfile.py`, in a subprocess of its own: it patches the standard
library with gevent); the edge's access log says which requests reached the origin."""

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from statistics import quantiles

from ..servers import _REPO_ROOT

LOCUSTFILE = Path(__file__).with_name("locustfile.py")
SPAWN_SECONDS = 2  # every viewer arrives within the first two seconds


def run_kickoff(
    edge: str, work: Path, *, asset: str, kickoff: int, media: Path, viewers: int, seconds: int, cookie: dict
) -> dict:
    """Run the viewers against `edge` for `seconds`; the figures (module docstring)."""
    access_log = work / "edge" / "access.log"
    access_log.write_text("")  # what the wrk runs before left there is not the kickoff's (nginx appends)
    staleness_file = work / "staleness.json"
    staleness_file.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHONPATH": _REPO_ROOT,
        "EDGE_ASSET": asset,
        "EDGE_KICKOFF": str(kickoff),
        "EDGE_MEDIA": str(media),
        "EDGE_COOKIE": cookie["Cookie"],
        "EDGE_STALENESS": str(staleness_file),
    }
    command = [
        *(sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--host", edge),
        *("--users", str(viewers), "--spawn-rate", str(viewers / SPAWN_SECONDS), "--run-time", f"{seconds}s"),
        *("--only-summary", "--loglevel", "WARNING", "--json"),
    ]
    answer = subprocess.run(command, env=env, capture_output=True, text=True, timeout=seconds + 60, check=False)
    try:
        stats = json.loads(answer.stdout)
    except ValueError:
        raise RuntimeError(f"locust failed:\n{answer.stdout[-2000:]}\n{answer.stderr[-2000:]}") from None
    staleness = json.loads(staleness_file.read_text()) if staleness_file.exists() else []
    return figures(access_log.read_text(), stats, staleness, viewers=viewers, seconds=seconds)


def figures(access_log: str, stats: list[dict], staleness: list[int], *, viewers: int, seconds: int) -> dict:
    """The kickoff's figures from the edge's log lines (edge_nginx's `edge` format: address,
    request, status, cache status, upstream address, time) and locust's per-request stats."""
    origin: Counter = Counter()
    asked: set[str] = set()
    for line in access_log.splitlines():
        try:
            request = line.split('"')[1]
            fields = line.split('"')[2].split()
        except IndexError:
            continue
        path = request.split()[1].split("?")[0] if len(request.split()) > 1 else ""
        if path.endswith(".ts"):
            asked.add(path)
        if len(fields) >= 3 and fields[2] != "-":
            origin[path] += 1
    segment_origin = sum(n for path, n in origin.items() if path.endswith(".ts"))
    playlist_origin = sum(n for path, n in origin.items() if path.endswith("live.m3u8"))
    ordered = sorted(staleness) or [0]
    cuts = quantiles(ordered, n=100) if len(ordered) > 1 else [ordered[0]] * 99
    return {
        "viewers": viewers,
        "seconds": seconds,
        "requests": sum(entry["num_requests"] for entry in stats),
        "failures": sum(entry["num_failures"] for entry in stats),
        "segments": len(asked),
        "origin_per_segment": segment_origin / len(asked) if asked else 0.0,
        "origin_per_playlist_period": playlist_origin / (seconds / 2),
        "python_per_viewer_minute": sum(origin.values()) / viewers / (seconds / 60),
        "staleness_p50": round(cuts[49]),
        "staleness_p99": round(cuts[98]),
        "staleness_max": ordered[-1],
    }
