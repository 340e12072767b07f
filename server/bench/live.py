"""`python -m server.bench.live`: live playlist requests per second on one server process.

Every viewer of a live event polls its live playlist every 2 seconds (the segment duration), so
one process serves `2 x requests per second` viewers' playlists. A seeded SQLite catalogue; the
URL is the one the event API hands an anonymous viewer for a free live game (its token beside the
path, which names the game's kickoff), served by the media route with the default 30-minute
rewind window (900 segments, ~45 KB, ~0.7 KB gzipped).

- saturated, gzip: wrk, 64 connections, `Accept-Encoding: gzip` as browsers and hls.js send.
- saturated, identity: the same without compression (the whole 45 KB each time).
- viewers: 4,000 viewers polling every 2 s, the target rate of 2,000/s, over 400 connections
  (each polls every 200 ms; first polls at random instants, so polls spread as real players'
  do). wrk measures each answer; a connection polls again one period after its previous answer
  (the Python open-loop generator, server.bench.load.run_rated, cannot offer 2,000/s on a
  small machine).
- new token every request: 10,000 distinct valid tokens in turn (every request checks its token
  in any case: a keyed MD5, server.media.delivery.edge_tokens).
  wrk picks each path in Lua, which costs wrk CPU on a small machine: compare it with the
  `scripted` row (the same script, one token), not with the plain rows.
- bare ASGI: uvicorn answering the same number of bytes with no work at all, the ceiling of
  this machine (the ratio to it is steadier than req/s on a shared machine).
"""

import argparse
import asyncio
import http.client
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .load import LoadResult, lua_script, lua_string, parse_wrk_output, run_wrk
from .servers import fresh_sqlite_database, run_server

DB_FILE = Path(__file__).resolve().parents[2] / "var" / "bench" / "live.db"
TARGET_RPS = 2000.0
TARGET_P99_MS = 50.0
POLL_SECONDS = 2
# A secret of the bench's own, so this process can sign tokens the server accepts.
SECRET = "touchline-bench-live-playlists-secret-0123456789"
GZIP = {"Accept-Encoding": "gzip"}


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


async def _prepare(url: str) -> str:
    """A seeded catalogue; the id of a free live game with a live stream (else a free channel)."""
    from sqlalchemy import select

    from server.db import Database
    from server.models import Event
    from server.seed.loader import seed

    database = Database(url)
    try:
        await seed(database.engine)
        async with database.session() as db:
            return (
                await db.execute(
                    select(Event.id)
                    .where(
                        Event.status.in_(("live", "channel")),
                        Event.media_type == "event",
                        Event.commerce_type == "commerce_free_media",
                        Event.hls_stream.like("/media/live/%"),
                    )
                    .order_by(Event.status.desc(), Event.event_date)
                    .limit(1)
                )
            ).scalar_one()
    finally:
        await database.dispose()


def _get(base_url: str, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    host, port = base_url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def _stream_url(base_url: str, event_id: str) -> str:
    status, _, body = _get(base_url, f"/api/event/get_by_id/id/{event_id}")
    if status != 200:
        raise RuntimeError(f"event answer {status}: {body[:300]!r}")
    url = json.loads(body)["content"]["content"]["HLSStream"]
    if not url or not url.startswith("/media/live/") or "?token=" not in url:
        raise RuntimeError(f"not a signed live stream URL: {url!r}")
    return url


def _first_rendition(base_url: str, master: str) -> str:
    """The first rendition's live playlist beside a live master (what players poll), with the
    master's token in the query."""
    path, _, query = master.partition("?")
    status, _, body = _get(base_url, master)
    if status != 200:
        raise RuntimeError(f"live master answered {status}: {body[:300]!r}")
    variant = next(line for line in body.decode().splitlines() if line and not line.startswith("#"))
    return f"{path.rsplit('/', 1)[0]}/{variant}?{query}"


def _tokens(url: str, count: int) -> list[str]:
    """`url` with `count` other valid tokens, each of its own expiry (the same scope)."""
    import time

    from server.media.delivery.edge_tokens import issue_edge_token, scope_of

    path = url.partition("?")[0]
    scope = scope_of(path.removeprefix("/media/"))
    assert scope is not None
    now = int(time.time())
    return [f"{path}?token={issue_edge_token(scope, secret=SECRET, expires=now + 600 + n)}" for n in range(count)]


def _run_wrk_script(
    url: str, script: str, name: str, *, duration: int, connections: int, warmup: int = 0
) -> LoadResult:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    try:

        def wrk(seconds: int) -> str:
            cmd = [
                "wrk",
                "-t",
                "1",
                "-c",
                str(connections),
                "-d",
                f"{seconds}s",
                "--timeout",
                "5s",
                "--latency",
                "-s",
                f.name,
                url,
            ]
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout

        if warmup:
            wrk(warmup)
        return parse_wrk_output(wrk(duration), name)
    finally:
        os.unlink(f.name)


def _run_wrk_viewers(
    url: str, name: str, *, viewers: int, period_s: float, connections: int, headers: dict, duration: int
) -> LoadResult:
    """`viewers` each asking every `period_s`, over `connections` connections (as a CDN edge or HTTP/2
    would pool them): each connection sends one request every `period_s * connections / viewers`
    (wrk's delay(); wrk keeps its timers in a list, so thousands of connections would load wrk
    more than the server)."""
    period = max(1, round(period_s * 1000 * connections / viewers))
    script = (
        f"local period, connections, started = {period}, {connections}, 0\n"
        "delay = function()\n"
        "  if started < connections then started = started + 1; return math.random(0, period - 1) end\n"
        "  return period\nend\n" + lua_script("GET", None, headers)
    )
    result = _run_wrk_script(url, script, name, duration=duration, connections=connections, warmup=2)
    result.mode = f"{viewers} viewers"
    return result


def _run_wrk_paths(
    base_url: str, paths: list[str], name: str, *, headers: dict, duration: int, connections: int
) -> LoadResult:
    """wrk cycling through `paths` (run_wrk asks for one URL)."""
    table = ",\n".join(lua_string(p.encode()) for p in paths)
    script = (
        f"local paths = {{\n{table}\n}}\nlocal n = 0\n"
        "request = function()\n  n = n % #paths + 1\n"
        "  return wrk.format(nil, paths[n])\nend\n" + lua_script("GET", None, headers)
    )
    return _run_wrk_script(base_url + paths[0], script, name, duration=duration, connections=connections, warmup=2)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.live", description=__doc__.splitlines()[0])
    p.add_argument("--duration", type=int, default=10)
    p.add_argument("--connections", type=int, default=64)
    p.add_argument(
        "--viewers",
        type=int,
        default=round(TARGET_RPS * POLL_SECONDS),
        help="viewers polling every 2 s in the viewers run",
    )
    p.add_argument("--viewer-connections", type=int, default=400, help="connections the viewers' polls share")
    args = p.parse_args(argv)

    url = fresh_sqlite_database(DB_FILE)
    log("seeding the catalogue")
    event_id = asyncio.run(_prepare(url))
    env = {"DATABASE_URL": url, "TOUCHLINE_SECRET_KEY": SECRET, "TOUCHLINE_RESPONSE_VALIDATION": "false"}
    results: list[LoadResult] = []
    with run_server("server.bench.servers:touchline_app", env) as server:
        master = _stream_url(server.base_url, event_id)
        path = _first_rendition(server.base_url, master)
        status, headers, body = _get(server.base_url, path, GZIP)
        if status != 200 or headers.get("content-type") != "application/vnd.apple.mpegurl":
            raise RuntimeError(f"live playlist answered {status} {headers}: {body[:300]!r}")
        plain = _get(server.base_url, path)[2]
        log(f"live playlist: {plain.count(b'#EXTINF')} segments, {len(plain)} bytes, {len(body)} gzipped")
        target = server.base_url + path

        log(f"saturated (gzip): wrk {args.connections} connections, {args.duration}s")
        r = run_wrk(target, "live playlist, gzip", headers=GZIP, duration=args.duration, connections=args.connections)
        r.body_bytes = len(body)
        results.append(r)
        log("saturated (identity)")
        r = run_wrk(target, "live playlist, identity", duration=args.duration, connections=args.connections)
        r.body_bytes = len(plain)
        results.append(r)
        log(f"viewers: {args.viewers} polling every {POLL_SECONDS} s ({args.viewers / POLL_SECONDS:.0f}/s)")
        results.append(
            _run_wrk_viewers(
                target,
                "live playlist, gzip",
                viewers=args.viewers,
                period_s=POLL_SECONDS,
                connections=args.viewer_connections,
                headers=GZIP,
                duration=args.duration,
            )
        )
        log("saturated, through a wrk script choosing the path: one token, then a new token each request")
        results.append(
            _run_wrk_paths(
                server.base_url,
                [path],
                "live playlist, scripted",
                headers=GZIP,
                duration=args.duration,
                connections=args.connections,
            )
        )
        results.append(
            _run_wrk_paths(
                server.base_url,
                _tokens(path, 10_000),
                "live playlist, new token each",
                headers=GZIP,
                duration=args.duration,
                connections=args.connections,
            )
        )
    with run_server("server.bench.baselines:bare_asgi_app", {"BENCH_BODY_BYTES": str(len(body))}) as server:
        log("bare ASGI, the same bytes")
        bare = run_wrk(
            f"{server.base_url}/", "bare ASGI, same bytes", duration=args.duration, connections=args.connections
        )
        bare.body_bytes = len(body)
        results.append(bare)

    print(f"{'name':<32} {'mode':<12} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} {'bytes':>6}")
    for r in results:
        size = f"{r.body_bytes:6d}" if r.body_bytes else "     -"
        print(
            f"{r.name:<32} {r.mode:<12} {r.requests_per_s:9.0f} {r.p50_ms:8.2f} {r.p99_ms:8.2f} {r.errors:6d} "
            f"{size}  {r.note}"
        )
    saturated, rated = results[0], results[2]
    print(f"live playlist (gzip) / bare ASGI: {saturated.requests_per_s / bare.requests_per_s:.2f}")
    ok = saturated.requests_per_s >= TARGET_RPS and saturated.errors == 0
    print(
        f"live playlist: {saturated.requests_per_s:.0f} req/s on one process = "
        f"{saturated.requests_per_s * POLL_SECONDS:.0f} viewers polling every {POLL_SECONDS} s "
        f"(target >= {TARGET_RPS:.0f} req/s) {'PASS' if ok else 'FAIL'}"
    )
    offered = args.viewers / POLL_SECONDS
    ok = rated.p99_ms < TARGET_P99_MS and rated.errors == 0 and rated.requests_per_s >= 0.9 * offered
    print(
        f"live playlist: {rated.mode} polling every {POLL_SECONDS} s: {rated.requests_per_s:.0f} req/s, "
        f"p50 {rated.p50_ms:.1f} ms, p99 {rated.p99_ms:.1f} ms (target < {TARGET_P99_MS:.0f} ms, "
        f"errors {rated.errors}) {'PASS' if ok else 'FAIL'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
