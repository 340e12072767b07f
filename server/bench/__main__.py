"""`python -m server.bench`: event list vs bare ASGI vs trivial Connexion, then the kick-off
socket fan-out (server.bench.fanout), one machine, one run. `--suite` runs one of them."""

import argparse
import http.client
import json
import sys
from pathlib import Path

from . import report
from .baselines import DEFAULT_BODY_BYTES
from .load import LoadResult, run_rated, run_wrk
from .servers import analyzed, run_server

LIST_PATH = "/api/event/list"
LIST_BODY = json.dumps(
    {
        "page": 0,
        "size": 10,
        "sort": "event_date",
        "order": "desc",
        "next": True,
        "count": False,
        "filters": {"status": ["archived"], "sportType": ["football"]},
    }
).encode()
JSON = {"Content-Type": "application/json"}
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/touchline_bench"
SQLITE_FILE = Path(__file__).resolve().parents[2] / "var" / "bench" / "events.db"


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def _prepare(database: str, fresh: bool) -> str:
    """Return the DATABASE_URL; `fresh` drops the bench database first.

    Otherwise it is reused: fill_events tops it up to --events and is a no-op when full.
    """
    if database == "sqlite":
        SQLITE_FILE.parent.mkdir(parents=True, exist_ok=True)
        if fresh:
            for suffix in ("", "-wal", "-shm"):
                SQLITE_FILE.with_name(SQLITE_FILE.name + suffix).unlink(missing_ok=True)
        return f"sqlite+aiosqlite:///{SQLITE_FILE}"
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = 'touchline_bench'").fetchone()
        if exists and fresh:
            conn.execute("DROP DATABASE touchline_bench WITH (FORCE)")
        if not exists or fresh:
            conn.execute("CREATE DATABASE touchline_bench")
    return PG_URL


def _fill(url: str, count: int) -> int:
    from server.seed.bulk import fill_events

    inserted = fill_events(url, count)
    analyzed(url)
    return inserted


def _probe(port: int, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers=JSON if body else {})
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, data


def _measure(
    server, name: str, method: str, path: str, body: bytes | None, args, results: list[LoadResult], rated: bool = True
) -> int | None:
    """Probe once (must be 200), then a saturated wrk run and a rated run."""
    status, data = _probe(server.port, method, path, body)
    if status != 200:
        raise RuntimeError(f"{name}: {method} {path} answered {status}: {data[:300]!r}")
    url = server.base_url + path
    headers = JSON if body else None
    log(f"{name}: wrk {args.connections} connections, {args.duration}s")
    sat = run_wrk(
        url,
        name,
        method=method,
        body=body,
        headers=headers,
        duration=args.duration,
        connections=args.connections,
        threads=args.threads,
    )
    sat.body_bytes = len(data)
    results.append(sat)
    if args.rate and rated:
        log(f"{name}: open loop at {args.rate:g} req/s, {args.duration}s")
        open_loop = run_rated(
            url,
            name,
            rate=args.rate,
            method=method,
            body=body,
            headers=headers,
            duration=args.duration,
            connections=args.connections,
        )
        open_loop.body_bytes = len(data)
        results.append(open_loop)
    return len(data)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench", description=__doc__)
    p.add_argument("--events", type=int, default=100_000)
    p.add_argument("--database", choices=("sqlite", "postgres", "both"), default="both")
    p.add_argument("--duration", type=int, default=10, help="seconds per measured run")
    p.add_argument("--connections", type=int, default=64)
    p.add_argument(
        "--threads", type=int, default=1, help="wrk threads (1 leaves a core to the server on small machines)"
    )
    p.add_argument("--rate", type=float, default=1500, help="open-loop req/s; 0 = skip")
    p.add_argument("--fresh", action="store_true", help="drop and rebuild the bench databases")
    p.add_argument("--baselines-only", action="store_true")
    p.add_argument("--suite", choices=("all", "catalogue", "fanout"), default="all")
    p.add_argument("--fanout-clients", type=int, default=5000, help="websocket clients in the room")
    p.add_argument("--fanout-generators", type=int, default=4, help="load-generator processes")
    p.add_argument("--fanout-rounds", type=int, default=3, help="messages sent, one at a time")
    args = p.parse_args(argv)
    if args.suite != "fanout":
        catalogue(args)
    if args.suite != "catalogue":
        from .fanout import report as fanout_report

        log(f"fan-out: {args.fanout_clients} clients, {args.fanout_generators} generators, {args.fanout_rounds} rounds")
        print(
            "\n== Kick-off fan-out\n" + fanout_report(args.fanout_clients, args.fanout_generators, args.fanout_rounds)
        )
    return 0


def catalogue(args) -> None:
    """The event list against the bare ASGI and trivial Connexion baselines."""
    results: list[LoadResult] = []
    skipped: list[str] = []
    body_bytes = None
    missing = "event list rows: --baselines-only" if args.baselines_only else None
    databases = [] if missing else (["sqlite", "postgres"] if args.database == "both" else [args.database])
    if missing:
        skipped.append(missing)
    for database in databases:
        name = f"event list ({database})"
        try:
            url = _prepare(database, args.fresh)
            log(f"{name}: filling up to {args.events} events")
            log(f"{name}: inserted {_fill(url, args.events)}")
            env = {"DATABASE_URL": url, "TOUCHLINE_RESPONSE_VALIDATION": "false"}
            with run_server("server.bench.servers:touchline_app", env) as server:
                size = _measure(server, name, "POST", LIST_PATH, LIST_BODY, args, results)
                body_bytes = body_bytes or size
            # The same page with the shared catalogue cache off: every request queries the database.
            uncached = {**env, "TOUCHLINE_CATALOGUE_CACHE_SECONDS": "0"}
            with run_server("server.bench.servers:touchline_app", uncached) as server:
                _measure(server, f"{name}, no cache", "POST", LIST_PATH, LIST_BODY, args, results, rated=False)
        except Exception as exc:  # one broken database must not hide the other rows
            log(f"{name}: {type(exc).__name__}: {exc}")
            last = [line for line in str(exc).splitlines() if line.strip()][-1:] or [""]
            skipped.append(f"{name}: {type(exc).__name__}: {last[0]} (details above)")

    # Baselines serve a body as large as the real page, so only framework cost differs.
    env = {"BENCH_BODY_BYTES": str(body_bytes or DEFAULT_BODY_BYTES)}
    for name, target, path in (
        (report.BARE, "server.bench.baselines:bare_asgi_app", "/"),
        ("trivial Connexion", "server.bench.baselines:connexion_app", "/api/ping"),
    ):
        with run_server(target, env) as server:
            _measure(server, name, "GET", path, None, args, results)

    print(report.render(results, skipped))


if __name__ == "__main__":
    sys.exit(main())
