"""`touchline cluster` for the end-to-end tests: two server processes behind HAProxy on a fresh
PostgreSQL database and the Redis a test gives it, started as an operator starts it, with the
helpers the tests share (waiting, the pid behind a port, the launcher's output).

Needs PostgreSQL and haproxy (REQUIRE_POSTGRES=1 turns a missing haproxy into a failure, as in
CI, whose .ci/run installs it)."""

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

import aiohttp
import pytest

from server.settings import PROJECT_ROOT
from server.tests.accounts import PASSWORD, create_user_at
from server.tests.conftest import _drop_postgres_database, _postgres_database
from server.tests.realtime.support import free_port

TIMEOUT_S = 20

T = TypeVar("T")


def haproxy_or_skip() -> None:
    if shutil.which("haproxy") is None and not os.path.exists("/usr/sbin/haproxy"):
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("haproxy is required here (Debian package haproxy; .ci/run installs it)")
        pytest.skip("haproxy is not installed")


async def eventually(check: Callable[[], Awaitable[T]], timeout: float = TIMEOUT_S, every: float = 0.2) -> T:
    """`check()`'s first truthy result, or its last one once `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        result = await check()
        if result or time.monotonic() > deadline:
            return result
        await asyncio.sleep(every)


@dataclass
class Cluster:
    """A running `touchline cluster`: `url` is HAProxy's, `ports` the server processes' (p1, p2)."""

    url: str
    http: aiohttp.ClientSession
    launcher: subprocess.Popen
    log: IO[str]
    staff: str  # an admin's e-mail address (password PASSWORD)
    ports: list[int]
    database_url: str
    var_dir: Path
    tokens: dict[str, str] = field(default_factory=dict)

    def output(self) -> str:
        return _output(self.log)

    def edge_log(self) -> list[tuple[str, str]]:
        """The media edge's access log: (path, upstream) per request, upstream "-" for one that
        never reached a process (server.media.delivery.edge_nginx's log format)."""
        log = self.var_dir / "cluster" / self.url.rsplit(":", 1)[1] / "edge" / "access.log"
        lines = log.read_text().splitlines() if log.exists() else []
        return [(line.split(" ")[2].split("?")[0], line.split(" ")[-2]) for line in lines]

    async def staff_token(self) -> str:
        if "staff" not in self.tokens:
            body = {"username": self.staff, "password": PASSWORD, "device_id": "cluster-cli", "device_name": "cluster"}
            async with self.http.post(f"{self.url}/api/user/login", json=body) as answer:
                assert answer.status == 200, await answer.text()
                self.tokens["staff"] = (await answer.json())["content"]["tokenData"]["access_token"]
        return self.tokens["staff"]


@contextlib.asynccontextmanager
async def running_cluster(tmp_dir: Path, redis_url: str, env: dict[str, str] | None = None) -> AsyncIterator[Cluster]:
    """`touchline cluster --workers 2` on a database of its own, until the block ends (SIGTERM)."""
    haproxy_or_skip()
    name = _postgres_database()
    database_url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    port, first = free_port(), free_port()
    while first + 1 == port or not _free(first + 1):
        first = free_port()
    log = (tmp_dir / "cluster.log").open("w+")
    launcher = subprocess.Popen(  # noqa: ASYNC220 -- returns at once; the caller then polls health
        [
            sys.executable,
            "-m",
            "cli.main",
            "cluster",
            "--workers",
            "2",
            "--port",
            str(port),
            "--first-process-port",
            str(first),
            "--database-url",
            database_url,
            "--redis-url",
            redis_url,
            "--no-seed",
        ],
        cwd=PROJECT_ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={
            **os.environ,
            "TOUCHLINE_ENVIRONMENT": "test",
            "TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS": "100000",
            # Its media, logs and run files (the edge's access log among them) are the test's.
            "TOUCHLINE_VAR_DIR": str(tmp_dir),
            **(env or {}),
        },
    )
    try:
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}"

            async def up() -> bool:
                assert launcher.poll() is None, _output(log)
                try:
                    async with http.get(f"{url}/api/health") as answer:
                        return answer.status == 200
                except aiohttp.ClientError:
                    return False

            assert await eventually(up, timeout=120), _output(log)
            staff = await create_user_at(database_url, role="admin")
            yield Cluster(url, http, launcher, log, staff, [first, first + 1], database_url, tmp_dir)
    finally:
        if launcher.poll() is None:
            launcher.send_signal(signal.SIGTERM)
            try:
                launcher.wait(30)
            except subprocess.TimeoutExpired:
                launcher.kill()
        log.close()
        _drop_postgres_database(name)


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _output(log: IO[str]) -> str:
    log.flush()
    log.seek(0)
    return log.read()[-4000:]


def listening(port: int) -> str:
    """What listens on `port` (ss's line, with the pid), empty when nothing does."""
    return subprocess.run(["ss", "-Htlnp", f"sport = :{port}"], capture_output=True, text=True, check=True).stdout


async def pid_on(port: int) -> int:
    """The pid listening on `port` (the server process the cluster started there)."""
    out = await asyncio.to_thread(listening, port)
    assert "pid=" in out, out
    return int(out.split("pid=")[1].split(",")[0])


async def health_of(http: aiohttp.ClientSession, url: str) -> dict[str, Any] | None:
    """GET url/api/health's content, None when it does not answer 200."""
    try:
        async with http.get(f"{url}/api/health", timeout=aiohttp.ClientTimeout(total=5)) as answer:
            return (await answer.json())["content"] if answer.status == 200 else None
    except (TimeoutError, aiohttp.ClientError):
        return None


async def settled(cluster: Cluster) -> None:
    """Until both processes are healthy (fan-out subscribed) and in HAProxy's rotation: a killed
    one is started again, and HAProxy takes it back after a health check."""

    async def both_ok() -> bool:
        reports = [await health_of(cluster.http, f"http://127.0.0.1:{port}") for port in cluster.ports]
        return all(report is not None and report["status"] == "ok" for report in reports)

    assert await eventually(both_ok, timeout=60), cluster.output()

    async def both_in_rotation() -> bool:
        served = set()
        for _ in range(4):
            with contextlib.suppress(aiohttp.ClientError):
                async with cluster.http.get(f"{cluster.url}/api/config", headers={"Connection": "close"}) as answer:
                    served.add(answer.headers.get("X-Served-By"))
        return served == {"p1", "p2"}

    assert await eventually(both_in_rotation, timeout=30), cluster.output()
