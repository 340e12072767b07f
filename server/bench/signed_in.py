"""`python -m server.bench.signed_in`: signed-in viewers against anonymous ones, on SQLite and on
PostgreSQL, as ratios to `GET /api/config` on the same server and to a bare ASGI endpoint, all
measured in one run on this machine.

Each database gets a catalogue of synthetic games and one account signed in on many devices.
Signed-in requests take their bearer from a pool of those sessions in turn (many viewers, not one
token); refreshes spend a token from a pool and put the answer's new one back, so each is a real
rotation. The same reads then run with the shared catalogue cache off
(`TOUCHLINE_CATALOGUE_CACHE_SECONDS=0`): every request queries the database.
"""

import argparse
import asyncio
import http.client
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .accounts import REFRESH_LUA
from .load import _DONE, LoadResult, parse_wrk_output
from .servers import analyzed, fresh_sqlite_database, run_server

SQLITE_FILE = Path(__file__).resolve().parents[2] / "var" / "bench" / "signed_in.db"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_NAME = "touchline_bench_signed_in"
EVENTS = 2000
SESSIONS = 256
LIST_BODY = json.dumps(
    {"page": 0, "size": 10, "sort": "event_date", "order": "desc", "next": True, "filters": {"status": ["archived"]}}
)
# Targets of the kickoff issue, as ratios of GET /api/config on the same server.
TARGETS = {"event page, signed in": 0.5, "event list, signed in": 0.5, "token refresh": 0.25}
# wrk's Lua, for every row alike (so the generator costs the same whatever is measured): the
# requests are formatted once per thread, each carrying the next bearer of the pool ("" for none).
REQUESTS_LUA = r"""
local tokens = {%s}
local method, path, body = %s, %s, %s
local requests = {}
local next_request = 0
init = function(args)
  for n, token in ipairs(tokens) do
    local headers = {}
    if token ~= "" then headers["Authorization"] = "Bearer " .. token end
    if body then headers["Content-Type"] = "application/json" end
    requests[n] = wrk.format(method, path, headers, body)
  end
end
request = function()
  next_request = next_request %% #requests + 1
  return requests[next_request]
end
"""


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


@dataclass
class Viewers:
    access: list[str]
    refresh: list[str]


def _database_url(database: str) -> str:
    if database == "sqlite":
        return fresh_sqlite_database(SQLITE_FILE)
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_NAME}")
    url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{PG_NAME}"
    from server.migrate import upgrade

    upgrade(url)
    return url


async def _sign_in_many(url: str, count: int) -> Viewers:
    """One account signed in on `count` devices: their access and refresh tokens."""
    from server import clock
    from server.auth.passwords import Passwords
    from server.db import Database
    from server.models import User, new_id
    from server.services import sessions
    from server.settings import Settings

    settings = Settings(database_url=url)
    database = Database(url)
    policy = sessions.Policy.from_settings(settings.model_copy(update={"device_limit": count + 1}))
    viewers = Viewers([], [])
    try:
        async with database.session() as db:
            user = User(
                id=new_id(),
                email="signed-in@example.com",
                password_hash=await Passwords.from_settings(settings).hash("bench password 2026"),
                display_name="Bench",
                club_list=[],
                options={},
                email_verified_at=clock.now(),  # not a sign-up: nothing to confirm
            )
            db.add(user)
            await db.commit()
        for n in range(count):
            async with database.write_session() as db:
                result = await sessions.sign_in(
                    db, user.id, sessions.DeviceIn(f"d-{n}", f"d-{n}"), policy=policy, provider="credentials"
                )
            assert result.token_data is not None  # the device limit is above count
            viewers.access.append(result.token_data["access_token"])
            viewers.refresh.append(result.token_data["refresh_token"])
    finally:
        await database.dispose()
    return viewers


def _lua(value: str | None) -> str:
    return "nil" if value is None else json.dumps(value)


def _wrk_script(url: str, name: str, script: str, duration: int, connections: int, warmup: int = 1) -> LoadResult:
    """wrk with `script` on one thread (the other core is the server's); `warmup` seconds first,
    not reported (pools and caches fill)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script + _DONE)
    try:

        def wrk(seconds: int) -> str:
            cmd = ["wrk", "-t", "1", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "5s", "-s", f.name, url]
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout

        if warmup:
            wrk(warmup)
        return parse_wrk_output(wrk(duration), name)
    finally:
        os.unlink(f.name)


def _check(port: int, method: str, path: str, body: str | None, bearer: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"} if body else {}
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"{method} {path} answered {response.status}: {data[:300]!r}")
    return json.loads(data)


def _measure_database(database: str, args) -> list[LoadResult]:
    url = _database_url(database)
    from server.seed.bulk import fill_events

    log(f"{database}: {fill_events(url, args.events)} events, {args.sessions} sessions")
    analyzed(url)
    viewers = asyncio.run(_sign_in_many(url, args.sessions))
    env = {
        "DATABASE_URL": url,
        "TOUCHLINE_RESPONSE_VALIDATION": "false",
        "TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS": "100000000",
        "TOUCHLINE_LOGIN_FAILURES_PER_ACCOUNT": "100000000",
    }
    results: list[LoadResult] = []

    def run(name: str, server, method: str, path: str, body: str | None = None, signed_in: bool = False) -> None:
        log(f"{database}: {name}")
        _check(server.port, method, path, body, viewers.access[0] if signed_in else None)
        tokens = ",".join(json.dumps(t) for t in (viewers.access if signed_in else [""]))
        script = REQUESTS_LUA % (tokens, _lua(method), _lua(path), _lua(body))
        label = f"{name} ({database})"
        results.append(_wrk_script(server.base_url + path, label, script, args.duration, args.connections))

    with run_server("server.bench.servers:touchline_app", env) as server:
        listed = _check(server.port, "POST", "/api/event/list", LIST_BODY)["content"]["entries"]
        page = f"/api/event/get_by_id/id/{listed[0]['_id']}"
        run("config", server, "GET", "/api/config")
        run("event page, anonymous", server, "GET", page)
        run("event page, signed in", server, "GET", page, signed_in=True)
        run("event list, anonymous", server, "POST", "/api/event/list", LIST_BODY)
        run("event list, signed in", server, "POST", "/api/event/list", LIST_BODY, signed_in=True)
        log(f"{database}: token refresh")
        script = REFRESH_LUA % ",".join(json.dumps(t) for t in viewers.refresh)
        results.append(
            # No warm-up: the tokens it rotated would die with it, and their reuse ends the sessions.
            _wrk_script(
                server.base_url + "/", f"token refresh ({database})", script, args.duration, args.connections, warmup=0
            )
        )
    with run_server("server.bench.servers:touchline_app", {**env, "TOUCHLINE_CATALOGUE_CACHE_SECONDS": "0"}) as server:
        run("event page, anonymous, no cache", server, "GET", page)
        run("event list, anonymous, no cache", server, "POST", "/api/event/list", LIST_BODY)
        run("event list, signed in, no cache", server, "POST", "/api/event/list", LIST_BODY, signed_in=True)
    return results


def _bare(args) -> LoadResult:
    with run_server("server.bench.baselines:bare_asgi_app", {"BENCH_BODY_BYTES": "2000"}) as server:
        log("bare ASGI")
        script = REQUESTS_LUA % ('""', _lua("GET"), _lua("/"), _lua(None))
        return _wrk_script(server.base_url + "/", "bare ASGI", script, args.duration, args.connections)


def render(results: list[LoadResult], bare: LoadResult, cores: int) -> str:
    head = f"{'name':<44} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'xconfig':>7} {'xbare':>6} {'errors':>6}"
    lines = [f"cores: {cores}", head, "-" * len(head)]
    configs = {r.name.rsplit(" (", 1)[1]: r for r in results if r.name.startswith("config (")}
    verdicts = []
    for r in [bare, *results]:
        database = r.name.rsplit(" (", 1)[1] if " (" in r.name else None
        config = configs.get(database) if database else None
        ratio = r.requests_per_s / config.requests_per_s if config else None
        lines.append(
            f"{r.name:<44} {r.requests_per_s:8.0f} {r.p50_ms:7.2f} {r.p99_ms:7.2f} "
            f"{(f'{ratio:7.2f}' if ratio is not None else '      -')} "
            f"{r.requests_per_s / bare.requests_per_s:6.3f} {r.errors:6d}"
        )
        target = TARGETS.get(r.name.rsplit(" (", 1)[0])
        if target is not None and ratio is not None:
            ok = ratio >= target and r.errors == 0
            verdicts.append(f"{r.name}: {ratio:.2f} of config (target >= {target}) {'PASS' if ok else 'FAIL'}")
    return "\n".join([*lines, "xconfig = req/s / GET /api/config req/s on the same server", *verdicts])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.signed_in", description=__doc__.splitlines()[0])
    p.add_argument("--database", choices=("sqlite", "postgres", "both"), default="both")
    p.add_argument("--events", type=int, default=EVENTS)
    p.add_argument("--sessions", type=int, default=SESSIONS)
    p.add_argument("--duration", type=int, default=8)
    p.add_argument("--connections", type=int, default=64)
    args = p.parse_args(argv)
    databases = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    results = [r for database in databases for r in _measure_database(database, args)]
    print("\n== Signed-in hot paths\n" + render(results, _bare(args), os.cpu_count() or 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
