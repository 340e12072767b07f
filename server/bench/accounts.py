"""`python -m server.bench.accounts`: token refreshes and sign-ins per second, one process, SQLite.

Refresh: wrk keeps a pool of live refresh tokens (one session each); every request spends one
and the answer's new token goes back into the pool, so each request is a real rotation, never a
duplicate inside the grace window. Sign-in: one account signing in on one device (argon2id
verify plus a new session); argon2 is slow on purpose, so its parameters and the time of one
hash are printed beside it.
"""

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .load import _DONE, LoadResult, parse_wrk_output, run_wrk
from .servers import fresh_sqlite_database, run_server

DB_FILE = Path(__file__).resolve().parents[2] / "var" / "bench" / "accounts.db"
PASSWORD = "bench password 2026"
TARGET_REFRESH_RPS = 1000.0
JSON = {"Content-Type": "application/json"}
# wrk's Lua: take a token from the pool for each request, put the answer's new one back.
REFRESH_LUA = r"""
local pool = {%s}
request = function()
  local token = table.remove(pool)
  if token == nil then token = "rt_pool_empty" end
  local body = '{"grant_type":"token-exchange",' ..
    '"subject_token_type":"urn:ietf:params:oauth:token-type:refresh_token",' ..
    '"subject_token":"' .. token .. '"}'
  return wrk.format("POST", "/api/oauth2/token", {["Content-Type"] = "application/json"}, body)
end
response = function(status, headers, body)
  local token = body:match('"refresh_token":"([^"]+)"')
  if token then table.insert(pool, token) end
end
"""


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


async def _prepare(url: str, sessions_wanted: int) -> tuple[list[str], str, dict]:
    """A fresh database with one account and `sessions_wanted` signed-in sessions."""
    from server import clock
    from server.auth.passwords import Passwords
    from server.db import Database
    from server.models import User, new_id
    from server.services import sessions
    from server.settings import Settings

    settings = Settings(database_url=url)
    passwords = Passwords.from_settings(settings)
    timings = []
    for _ in range(5):
        began = time.perf_counter()
        password_hash = await passwords.hash(PASSWORD)
        timings.append(time.perf_counter() - began)
    database = Database(url)
    policy = sessions.Policy.from_settings(settings.model_copy(update={"device_limit": sessions_wanted + 1}))
    tokens = []
    try:
        async with database.session() as db:
            user = User(
                id=new_id(),
                email="bench@example.com",
                password_hash=password_hash,
                display_name="Bench",
                club_list=[],
                options={},
                email_verified_at=clock.now(),  # not a sign-up: nothing to confirm
            )
            db.add(user)
            await db.commit()
        for n in range(sessions_wanted):
            async with database.write_session() as db:
                result = await sessions.sign_in(
                    db, user.id, sessions.DeviceIn(f"bench-{n}", f"bench-{n}"), policy=policy, provider="credentials"
                )
            assert result.token_data is not None  # the device limit is above sessions_wanted
            tokens.append(result.token_data["refresh_token"])
    finally:
        await database.dispose()
    argon2 = {**passwords.parameters, "hash_ms_median": statistics.median(timings) * 1e3}
    return tokens, "bench@example.com", argon2


def _wrk_refresh(url: str, tokens: list[str], duration: int, connections: int) -> LoadResult:
    script = REFRESH_LUA % ",".join(f'"{t}"' for t in tokens) + _DONE
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    try:
        cmd = [
            "wrk",
            "-t",
            "1",
            "-c",
            str(connections),
            "-d",
            f"{duration}s",
            "--timeout",
            "5s",
            "--latency",
            "-s",
            f.name,
            url,
        ]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        return parse_wrk_output(out, "token refresh (sqlite)")
    finally:
        os.unlink(f.name)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.accounts", description=__doc__.splitlines()[0])
    p.add_argument("--duration", type=int, default=10)
    p.add_argument("--connections", type=int, default=64)
    args = p.parse_args(argv)

    url = fresh_sqlite_database(DB_FILE)
    # Two tokens per connection: one in flight, one waiting, so the pool never runs dry.
    tokens, email, argon2 = asyncio.run(_prepare(url, args.connections * 2))
    env = {
        "DATABASE_URL": url,
        "TOUCHLINE_RESPONSE_VALIDATION": "false",
        "TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS": "100000000",
        "TOUCHLINE_LOGIN_FAILURES_PER_ACCOUNT": "100000000",
    }
    results = []
    with run_server("server.bench.servers:touchline_app", env) as server:
        log(f"token refresh: wrk {args.connections} connections, {args.duration}s")
        results.append(_wrk_refresh(server.base_url + "/", tokens, args.duration, args.connections))
        body = json.dumps(
            {"username": email, "password": PASSWORD, "device_id": "bench-0", "device_name": "bench-0"}
        ).encode()
        log(f"sign-in: wrk {args.connections} connections, {args.duration}s")
        results.append(
            run_wrk(
                server.base_url + "/api/user/login",
                "sign-in (sqlite)",
                method="POST",
                body=body,
                headers=JSON,
                duration=args.duration,
                connections=args.connections,
                warmup=0,
            )
        )
    print(f"{'name':<28} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}")
    for r in results:
        print(f"{r.name:<28} {r.requests_per_s:9.0f} {r.p50_ms:8.2f} {r.p99_ms:8.2f} {r.errors:6d}")
    print(
        f"argon2id: m={argon2['memory_kib']} KiB, t={argon2['time_cost']}, p={argon2['parallelism']}; "
        f"one hash {argon2['hash_ms_median']:.1f} ms (median of 5); at most one hash per core at a time"
    )
    refresh = results[0]
    verdict = "PASS" if refresh.requests_per_s >= TARGET_REFRESH_RPS and refresh.errors == 0 else "FAIL"
    print(
        f"token refresh: {refresh.requests_per_s:.0f} req/s (target >= {TARGET_REFRESH_RPS:.0f}, "
        f"errors {refresh.errors}) {verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
