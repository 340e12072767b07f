"""Kick-off fan-out: one `event-url-change` to every viewer of a match at once.

`clients` websocket clients (spread over `generators` load-generator processes, see
fanout_client) join one event room; a staff call (POST /api/admin/socket/emit) sends one
`event-url-change` per round; each client notes when it arrived. Per round: delivered count
and latency from the call to each arrival (p50, p99, last). Per server process: RSS growth
per connection (RSS with the clients minus RSS after a warm-up, over the clients).

Scenarios, in one run on this machine, everything on 127.0.0.1:
- `touchline, 1 process`: the real app (server.app), in-process fan-out;
- `bare websockets`: fanout_baseline, the same clients and handshake, the physical baseline;
- `touchline, 2 processes + Redis`: two app processes sharing the room through a private
  redis-server, clients split between them, the call made on the first.

Aims (one process): p99 under 1 s, under 30 KB per connection.
"""

import asyncio
import json
import os
import subprocess
import sys
import time
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from .load import _percentile
from .servers import _REPO_ROOT, free_port, run_server

EVENT_ID = "5f1c0a8e2b3d4c5e6f7a8b9c"
SECRET = "fanout-bench-secret-of-at-least-32-bytes"
STAFF_EMAIL = "fanout-bench-staff@example.com"
AIM_P99_MS = 1000.0
AIM_KB_PER_CONNECTION = 30.0
WARMUP_CLIENTS = 20
TOUCHLINE = "touchline, 1 process"
BARE = "bare websockets"
CLUSTER = "touchline, 2 processes + Redis"


def log(msg: str) -> None:
    print(f"[bench fanout] {msg}", file=sys.stderr, flush=True)


# --- results -------------------------------------------------------------------------------------


@dataclass
class Round:
    number: int
    delivered: int
    p50_ms: float
    p99_ms: float
    last_ms: float


@dataclass
class FanoutResult:
    name: str
    clients: int
    connected: int = 0
    failed: int = 0
    connect_s: float = 0.0
    rss_growth_kib: list[int] = field(default_factory=list)  # per server process
    rounds: list[Round] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def kb_per_connection(self) -> float | None:
        if not self.connected or not self.rss_growth_kib:
            return None
        return sum(self.rss_growth_kib) * 1024 / self.connected / 1000

    def worst(self, attribute: str) -> float:
        return max((getattr(r, attribute) for r in self.rounds), default=float("nan"))

    @property
    def all_delivered(self) -> bool:
        return bool(self.rounds) and all(r.delivered == self.connected for r in self.rounds)


def round_stats(number: int, sent_at: float, arrivals: list[float]) -> Round:
    latencies = sorted((t - sent_at) * 1000 for t in arrivals)
    return Round(
        number,
        len(latencies),
        _percentile(latencies, 50),
        _percentile(latencies, 99),
        latencies[-1] if latencies else float("nan"),
    )


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def render(results: list[FanoutResult]) -> str:
    head = (
        f"{'scenario':<32} {'clients':>7} {'failed':>6} {'conn s':>6} {'round':>5} {'delivered':>9} "
        f"{'p50 ms':>8} {'p99 ms':>8} {'last ms':>8} {'KB/conn':>8}"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        kb = f"{r.kb_per_connection:8.1f}" if r.kb_per_connection is not None else "       -"
        for i, rnd in enumerate(r.rounds or [None]):
            first = i == 0
            name = r.name if first else ""
            numbers = f"{r.connected:>7} {r.failed:>6} {r.connect_s:>6.1f}" if first else " " * 21
            if rnd is None:
                lines.append(f"{name:<32} {numbers} {'-':>5} {'-':>9} {'-':>8} {'-':>8} {'-':>8} {kb}")
                continue
            lines.append(
                f"{name:<32} {numbers} {rnd.number:>5} {rnd.delivered:>9} {rnd.p50_ms:>8.1f} "
                f"{rnd.p99_ms:>8.1f} {rnd.last_ms:>8.1f} {kb if first else ''}"
            )
        lines += [f"  {r.name}: {e}" for e in r.errors]
    lines += verdicts(results)
    return "\n".join(lines)


def verdicts(results: list[FanoutResult]) -> list[str]:
    by_name = {r.name: r for r in results}
    lines = []
    touchline, bare = by_name.get(TOUCHLINE), by_name.get(BARE)
    if touchline and bare and touchline.rounds and bare.rounds:
        kb = (
            f", memory x{touchline.kb_per_connection / bare.kb_per_connection:.1f}"
            if touchline.kb_per_connection and bare.kb_per_connection
            else ""
        )
        lines.append(
            f"touchline / bare websockets (worst round): p50 x{touchline.worst('p50_ms') / bare.worst('p50_ms'):.1f}, "
            f"p99 x{touchline.worst('p99_ms') / bare.worst('p99_ms'):.1f}{kb}"
        )
    if touchline and touchline.rounds:
        p99 = touchline.worst("p99_ms")
        ok = p99 < AIM_P99_MS and touchline.all_delivered
        lines.append(
            f"{TOUCHLINE}: p99 {p99:.0f} ms, every client served: {touchline.all_delivered} "
            f"(aim < {AIM_P99_MS:.0f} ms) {'PASS' if ok else 'FAIL'}"
        )
        per_connection = touchline.kb_per_connection
        if per_connection is not None:
            lines.append(
                f"{TOUCHLINE}: {per_connection:.1f} KB per connection (aim < {AIM_KB_PER_CONNECTION:.0f} KB) "
                f"{'PASS' if per_connection < AIM_KB_PER_CONNECTION else 'FAIL'}"
            )
    return lines


# --- load generators -----------------------------------------------------------------------------


class Generators:
    """Load-generator processes; `spread` assigns each one a server URL."""

    def __init__(self):
        self.processes: list[asyncio.subprocess.Process] = []

    async def start(self, urls: list[str], clients: int, timeout: float) -> tuple[int, int, list[str], float]:
        started = time.monotonic()
        share, extra = divmod(clients, len(urls))
        for i, url in enumerate(urls):
            count = share + (1 if i < extra else 0)
            if count == 0:
                continue
            self.processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "server.bench.fanout_client",
                    "--url",
                    url,
                    "--event",
                    EVENT_ID,
                    "--count",
                    str(count),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    env={**os.environ, "PYTHONPATH": _REPO_ROOT},
                    limit=2**26,
                )
            )  # arrivals come as one line
        ready = [await self._line(p, timeout) for p in self.processes]
        errors = [e for r in ready for e in r["errors"]]
        return sum(r["ready"] for r in ready), sum(r["failed"] for r in ready), errors, time.monotonic() - started

    async def wait_round(self, number: int, timeout: float) -> None:
        """Until every generator saw round `number` reach all its clients (or `timeout`)."""

        async def one(process) -> None:
            while (await self._line(process, timeout)).get("round") != number:
                pass

        try:
            await asyncio.wait_for(asyncio.gather(*(one(p) for p in self.processes)), timeout)
        except TimeoutError:
            log(f"round {number}: not every client got the message within {timeout:.0f} s")

    async def collect(self, timeout: float) -> dict[int, list[float]]:
        arrivals: dict[int, list[float]] = {}
        for process in self.processes:
            assert process.stdin is not None  # started with stdin=PIPE
            process.stdin.write(b"collect\n")
            await process.stdin.drain()
            while "arrivals" not in (answer := await self._line(process, timeout)):
                pass
            for number, times in answer["arrivals"].items():
                arrivals.setdefault(int(number), []).extend(times)
        return arrivals

    async def stop(self) -> None:
        for process in self.processes:
            if process.returncode is None:
                assert process.stdin is not None  # started with stdin=PIPE
                try:
                    process.stdin.write(b"quit\n")
                    await process.stdin.drain()
                except (BrokenPipeError, ConnectionResetError):
                    pass
        for process in self.processes:
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
                await process.wait()
        self.processes.clear()

    @staticmethod
    async def _line(process, timeout: float) -> dict:
        raw = await asyncio.wait_for(process.stdout.readline(), timeout)
        if not raw:
            raise RuntimeError(f"load generator {process.pid} exited with {await process.wait()}")
        return json.loads(raw)


# --- servers -------------------------------------------------------------------------------------


def prepare_database(directory: Path) -> tuple[str, str]:
    """A fresh SQLite database with a signed-in staff account; returns (url, access token)."""
    from server import clock
    from server.db import Database
    from server.migrate import upgrade
    from server.models import User, new_id
    from server.services import sessions
    from server.settings import Settings

    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "fanout.db"
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    url = f"sqlite+aiosqlite:///{path}"
    upgrade(url)
    policy = sessions.Policy.from_settings(
        Settings(environment="test", secret_key=SECRET, database_url=url, access_token_lifetime=3600)
    )

    async def sign_in_staff() -> str:
        database = Database(url)
        try:
            async with database.session() as db:
                user = User(
                    id=new_id(),
                    email=STAFF_EMAIL,
                    password_hash=None,
                    display_name="Bench",
                    role="admin",
                    club_list=[],
                    options={},
                    email_verified_at=clock.now(),  # not a sign-up: nothing to confirm
                )
                db.add(user)
                await db.commit()
            async with database.write_session() as db:
                result = await sessions.sign_in(
                    db,
                    user.id,
                    sessions.DeviceIn("fanout-bench", "fanout bench"),
                    policy=policy,
                    provider="credentials",
                )
            assert result.token_data is not None  # a new account's first device: under the limit
            return result.token_data["access_token"]
        finally:
            await database.dispose()

    return url, asyncio.run(sign_in_staff())


def touchline_env(database_url: str, redis_url: str | None = None) -> dict:
    env = {
        "TOUCHLINE_ENVIRONMENT": "test",
        "TOUCHLINE_DATABASE_URL": database_url,
        "TOUCHLINE_INGEST_ENABLED": "false",  # no nginx-rtmp beside the measured servers
        "TOUCHLINE_SECRET_KEY": SECRET,
        "TOUCHLINE_RESPONSE_VALIDATION": "false",
        "TOUCHLINE_ACCESS_TOKEN_LIFETIME": "3600",
        # Every simulated viewer connects from this machine's one address.
        "TOUCHLINE_SOCKET_CONNECTIONS_PER_ADDRESS": "0",
    }
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


@contextmanager
def bare_server():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "server.bench.fanout_baseline", "--port", str(port)],
        env={**os.environ, "PYTHONPATH": _REPO_ROOT},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                import http.client

                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/health")
                conn.getresponse().read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the bare websockets server did not start") from None
                time.sleep(0.1)
        yield port, process.pid
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def redis_server():
    import shutil

    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (Debian package redis-server)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=port, socket_connect_timeout=0.5).ping()
                break
            except redis.exceptions.RedisError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def ws_url(port: int) -> str:
    return f"ws://127.0.0.1:{port}/ws/?EIO=4&transport=websocket"


# --- one scenario ---------------------------------------------------------------------------------


async def measure(
    name: str,
    ports_pids: list[tuple[int, int]],
    trigger,
    *,
    clients: int,
    generators: int,
    rounds: int,
    timeout: float,
    settle: float = 1.0,
) -> FanoutResult:
    """Warm up, connect `clients` spread over the servers, send `rounds` messages (`settle`
    seconds apart), collect."""
    result = FanoutResult(name, clients)
    urls = [ws_url(port) for port, _ in ports_pids]
    warmup = Generators()  # first connections and a first message: imports, caches, pools
    try:
        await warmup.start(urls, WARMUP_CLIENTS * len(urls), timeout)
        await trigger(0)
        await warmup.wait_round(0, timeout=15)
    finally:
        await warmup.stop()
    await asyncio.sleep(settle / 2)
    before = [rss_kib(pid) for _, pid in ports_pids]
    load = Generators()
    try:
        spread = [urls[i % len(urls)] for i in range(max(generators, len(urls)))]
        log(f"{name}: connecting {clients} clients from {len(spread)} processes")
        result.connected, result.failed, result.errors, result.connect_s = await load.start(spread, clients, timeout)
        log(f"{name}: {result.connected} joined in {result.connect_s:.1f} s ({result.failed} failed)")
        await asyncio.sleep(settle)  # let the accept backlog and the allocator settle
        result.rss_growth_kib = [rss_kib(pid) - b for (_, pid), b in zip(ports_pids, before, strict=True)]
        sent_at: dict[int, float] = {}
        for number in range(1, rounds + 1):
            sent_at[number] = time.monotonic()
            await trigger(number)
            await load.wait_round(number, timeout=15)
            await asyncio.sleep(settle)
        arrivals = await load.collect(timeout)
        result.rounds = [round_stats(n, sent_at[n], arrivals.get(n, [])) for n in sent_at]
    finally:
        await load.stop()
    return result


async def run_all(
    clients: int = 5000,
    generators: int = 4,
    rounds: int = 3,
    timeout: float = 120,
    scenarios: tuple[str, ...] = (TOUCHLINE, BARE, CLUSTER),
    workdir: Path | None = None,
    settle: float = 1.0,
) -> tuple[list[FanoutResult], list[str]]:
    """Run `scenarios` one after the other; returns their results and the ones that could not
    run (with why). `workdir` holds the SQLite database (default var/bench)."""
    workdir = workdir or Path(_REPO_ROOT) / "var" / "bench"
    results: list[FanoutResult] = []
    skipped: list[str] = []
    database_url = token = None
    if TOUCHLINE in scenarios or CLUSTER in scenarios:
        database_url, token = await asyncio.to_thread(prepare_database, workdir)

    async with aiohttp.ClientSession() as http:

        def api_trigger(port: int):
            async def trigger(number: int) -> None:
                body = {
                    "event": "event-url-change",
                    "room": f"event:{EVENT_ID}",
                    "payload": {"eventUrl": f"/media/live/{EVENT_ID}/index.m3u8?round={number}"},
                }
                async with http.post(
                    f"http://127.0.0.1:{port}/api/admin/socket/emit",
                    json=body,
                    headers={"Authorization": f"Bearer {token}"},
                ) as answer:
                    if answer.status != 200:
                        raise RuntimeError(f"emit answered {answer.status}: {await answer.text()}")

            return trigger

        for name in scenarios:
            try:
                async with AsyncExitStack() as stack:
                    if name == TOUCHLINE:
                        assert database_url is not None  # prepared above for this scenario
                        server = stack.enter_context(
                            run_server("server.bench.servers:touchline_app", touchline_env(database_url), "/api/health")
                        )
                        targets, trigger = [(server.port, server.pid)], api_trigger(server.port)
                    elif name == BARE:
                        port, pid = stack.enter_context(bare_server())

                        async def trigger(number: int, port=port) -> None:
                            async with http.get(
                                f"http://127.0.0.1:{port}/emit", params={"eventId": EVENT_ID, "round": str(number)}
                            ) as answer:
                                await answer.read()

                        targets = [(port, pid)]
                    else:
                        assert database_url is not None  # prepared above for this scenario
                        redis_url = stack.enter_context(redis_server())
                        env = touchline_env(database_url, redis_url)
                        servers = [
                            stack.enter_context(run_server("server.bench.servers:touchline_app", env, "/api/health"))
                            for _ in range(2)
                        ]
                        targets, trigger = [(s.port, s.pid) for s in servers], api_trigger(servers[0].port)
                    results.append(
                        await measure(
                            name,
                            targets,
                            trigger,
                            clients=clients,
                            generators=generators,
                            rounds=rounds,
                            timeout=timeout,
                            settle=settle,
                        )
                    )
            except Exception as exc:  # one broken scenario must not hide the others
                log(f"{name}: {type(exc).__name__}: {exc}")
                skipped.append(f"{name}: {type(exc).__name__}: {exc}")
    return results, skipped


def report(clients: int = 5000, generators: int = 4, rounds: int = 3) -> str:
    results, skipped = asyncio.run(run_all(clients, generators, rounds))
    return render(results) + "".join(f"\nskipped: {s}" for s in skipped)
