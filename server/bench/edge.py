"""`python -m server.bench.edge`: media through the edge (issue 30) against the same media from
Python, in one run on this machine.

One server process (uvicorn, the whole app) serves a media store of the bench's own: one asset
playing the `football` sample (2 s segments). nginx, one worker, runs the edge's configuration
(server.media.delivery.edge_nginx) in front of it. Every request carries a valid edge token in the
`tl_media` cookie, as a player's do after the master playlist.

- segment: one 720p segment of the live stream (~37 KB), wrk 1 thread, 32 connections, 10 s, from
  the server directly and through the edge (its cache warm). Aim: the edge at least 3x Python's
  rate.
- live playlist: a rendition's rewind window from a kickoff 10 minutes ago (300 segments), the
  same way: Python renders it once per segment period; the edge keeps it a second.
- kickoff (server.bench.edge_kickoff, locust): VIEWERS viewers arriving within two seconds on the
  live stream, each polling its playlist every 2 s and fetching each new segment, for 60 s through
  the edge. Reported from the edge's log: origin requests per segment (aim <= 1.05), Python
  requests per viewer per minute, and playlist staleness (how many finished segments newer than
  its newest one a viewer's playlist leaves out, p99; aim <= 1).
- memory: resident size of the edge (master and worker) and of the server after the runs.
"""

import argparse
import json
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from .fanout import rss_kib
from .load import LoadResult, run_wrk
from .servers import _REPO_ROOT, free_port, fresh_sqlite_database, run_server

WORK = Path(_REPO_ROOT) / "var" / "bench" / "edge"
SECRET = "touchline-bench-edge-secret-0123456789abcdef"
ASSET = "bench-football"
SAMPLE = "football"
RENDITION = "720p"
TARGET_RATIO = 3.0
KICKOFF_SECONDS_AGO = 600


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def media_store(root: Path) -> Path:
    """A store with one asset playing the sample (as the seed gives an event one)."""
    from server.media.assets.store import MediaStore
    from server.media.sources import samples
    from server.seed.fixtures import FIXTURES_DIR

    store = MediaStore(root)
    samples.provide(store, FIXTURES_DIR / "media", SAMPLE)
    store.link_sample(ASSET, SAMPLE)
    return root


def cookie(scope_path: str, lifetime: int = 3600) -> dict[str, str]:
    from server.media.delivery.edge_tokens import EDGE_COOKIE, issue_edge_token, scope_of

    scope = scope_of(scope_path)
    assert scope is not None
    token = issue_edge_token(scope, secret=SECRET, expires=int(time.time()) + lifetime)
    return {"Cookie": f"{EDGE_COOKIE}={token}"}


@contextmanager
def running_edge(origin_port: int, work: Path):
    """nginx with the edge's configuration in front of the server on `origin_port`; its port."""
    from server.ingest.serving import find_nginx
    from server.media.delivery import edge_nginx
    from server.media.delivery.edge_tokens import edge_key

    nginx = find_nginx()
    if nginx is None:
        raise SystemExit("nginx is not installed (scripts/system-deps bench installs it)")
    port = free_port()
    text = edge_nginx.config(port=port, origins=[origin_port], key=edge_key(SECRET), run_dir=work, cookie_seconds=3600)
    process = subprocess.Popen(edge_nginx.command(nginx, edge_nginx.write_config(work, text)))
    try:
        deadline = time.monotonic() + 10
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the edge did not start: {(work / 'edge' / 'error.log').read_text()[-2000:]}")
            time.sleep(0.05)
        yield process, port
    finally:
        process.terminate()
        process.wait(10)


def _answers(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def rss_mb(pid: int, children: bool = False) -> float:
    """Resident size of `pid` (and of its children: nginx's worker), MB."""
    members = [pid]
    if children:
        members += [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return sum(rss_kib(member) for member in members) / 1000


def compare(name: str, path: str, origin: str, edge: str, headers: dict, duration: int) -> list[LoadResult]:
    rows = []
    for where, base in (("Python", origin), ("edge", edge)):
        result = run_wrk(f"{base}{path}", f"{name}, {where}", headers=headers, duration=duration, connections=32)
        log(f"{result.name}: {result.requests_per_s:,.0f} req/s, p99 {result.p99_ms:.2f} ms, errors {result.errors}")
        rows.append(result)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.bench.edge", description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10, help="Seconds per wrk run.")
    parser.add_argument("--viewers", type=int, default=1000, help="The kickoff's viewers.")
    parser.add_argument("--kickoff-seconds", type=int, default=60, help="How long the kickoff runs.")
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    args = parser.parse_args(argv)

    WORK.mkdir(parents=True, exist_ok=True)
    media = media_store(WORK / "media")
    database = fresh_sqlite_database(WORK / "edge.db")
    env = {"TOUCHLINE_DATABASE_URL": database, "TOUCHLINE_SECRET_KEY": SECRET, "TOUCHLINE_MEDIA_DIR": str(media)}
    kickoff = int(time.time()) - KICKOFF_SECONDS_AGO
    segment = f"/media/live/{ASSET}/from-{kickoff}/{RENDITION}/index0.ts"
    live = f"/media/live/{ASSET}/from-{kickoff}/{RENDITION}/live.m3u8"
    figures: dict = {}
    with (
        run_server("server.bench.servers:touchline_app", env=env, ready_path="/api/health") as server,
        running_edge(server.port, WORK) as (edge_process, edge_port),
    ):
        origin, edge = server.base_url, f"http://127.0.0.1:{edge_port}"
        rows = compare("segment", segment, origin, edge, cookie(segment[len("/media/") :]), args.duration)
        rows += compare("live playlist", live, origin, edge, cookie(live[len("/media/") :]), args.duration)
        from .edge_kickoff import run_kickoff

        kickoff_figures = run_kickoff(
            edge,
            WORK,
            asset=ASSET,
            kickoff=kickoff,
            media=media,
            viewers=args.viewers,
            seconds=args.kickoff_seconds,
            cookie=cookie(f"live/{ASSET}/"),
        )
        figures["memory_mb"] = {
            "edge": round(rss_mb(edge_process.pid, children=True), 1),
            "server": round(rss_mb(server.pid), 1),
        }
    figures["rows"] = [row.__dict__ for row in rows]
    figures["kickoff"] = kickoff_figures
    for name in ("segment", "live playlist"):
        python, through_edge = (r for r in rows if r.name.startswith(f"{name},"))
        ratio = through_edge.requests_per_s / python.requests_per_s if python.requests_per_s else 0.0
        figures[f"{name} ratio"] = round(ratio, 2)
    report(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


def report(figures: dict) -> None:
    print("\nMedia through the edge (nginx, one worker) and from Python (one process), wrk -t1 -c32")
    print(f"{'':28} {'req/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for row in figures["rows"]:
        print(
            f"{row['name']:28} {row['requests_per_s']:>10,.0f} {row['p50_ms']:>8.2f} {row['p99_ms']:>8.2f} "
            f"{row['errors']:>7}"
        )
    verdict = "meets" if figures["segment ratio"] >= TARGET_RATIO else "misses"
    print(f"segments: the edge serves {figures['segment ratio']}x Python's rate ({verdict} the aim of {TARGET_RATIO}x)")
    print(f"live playlists: the edge serves {figures['live playlist ratio']}x Python's rate")
    kickoff = figures["kickoff"]
    print(
        f"\nKickoff through the edge: {kickoff['viewers']} viewers for {kickoff['seconds']} s "
        f"({kickoff['requests']:,} requests, {kickoff['failures']} failed)"
    )
    print(
        f"  origin requests per segment   {kickoff['origin_per_segment']:.3f} (aim <= 1.05; "
        f"{kickoff['segments']} segments fetched)"
    )
    print(f"  origin requests per playlist window  {kickoff['origin_per_playlist_period']:.2f} per 2 s")
    print(f"  Python requests per viewer per minute  {kickoff['python_per_viewer_minute']:.3f}")
    print(
        f"  playlist staleness  p50 {kickoff['staleness_p50']} p99 {kickoff['staleness_p99']} max "
        f"{kickoff['staleness_max']} segments (aim: p99 <= 1)"
    )
    memory = figures["memory_mb"]
    print(f"memory after the runs: edge {memory['edge']} MB (master and worker), server {memory['server']} MB")


if __name__ == "__main__":
    sys.exit(main())
