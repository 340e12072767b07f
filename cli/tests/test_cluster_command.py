"""`touchline cluster` end to end: two server processes behind HAProxy on a fresh PostgreSQL
database and a private Redis. Both processes answer through the one port, a socket message sent
through the balancer reaches clients on either process, health counts every process's sockets,
a process killed with SIGKILL is replaced while the balancer keeps answering, and SIGTERM stops
everything.

Needs PostgreSQL, redis-server and haproxy (REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 turn skips into
failures, as in CI, whose .ci/run installs haproxy)."""

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import aiohttp
import pytest
import pytest_asyncio
import socketio

from cli.cluster.haproxy import UNAVAILABLE
from server.settings import PROJECT_ROOT
from server.tests.accounts import PASSWORD, create_user_at
from server.tests.conftest import _drop_postgres_database, _postgres_database
from server.tests.realtime.support import RedisServer, free_port, redis_server_binary

pytestmark = pytest.mark.asyncio(loop_scope="session")

TIMEOUT_S = 20


def haproxy_or_skip() -> None:
    if shutil.which("haproxy") is None and not os.path.exists("/usr/sbin/haproxy"):
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("haproxy is required here (Debian package haproxy; .ci/run installs it)")
        pytest.skip("haproxy is not installed")


async def eventually(check, timeout: float = TIMEOUT_S, every: float = 0.2):
    deadline = time.monotonic() + timeout
    while True:
        result = await check()
        if result or time.monotonic() > deadline:
            return result
        await asyncio.sleep(every)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def running(tmp_path_factory):
    haproxy_or_skip()
    redis_server = RedisServer(redis_server_binary()).start()
    name = _postgres_database()
    database_url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    port, first = free_port(), free_port()
    while first + 1 == port or not _free(first + 1):
        first = free_port()
    log = (tmp_path_factory.mktemp("cluster") / "cluster.log").open("w+")
    launcher = subprocess.Popen(  # noqa: ASYNC220 -- returns at once; the fixture then polls health
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
            redis_server.url,
            "--no-seed",
        ],
        cwd=PROJECT_ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "TOUCHLINE_ENVIRONMENT": "test", "TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS": "100000"},
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
            yield SimpleNamespace(url=url, http=http, launcher=launcher, log=log, staff=staff, ports=[first, first + 1])
    finally:
        if launcher.poll() is None:
            launcher.send_signal(signal.SIGTERM)
            try:
                launcher.wait(30)
            except subprocess.TimeoutExpired:
                launcher.kill()
        log.close()
        redis_server.stop()
        _drop_postgres_database(name)


def _free(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _output(log) -> str:
    log.flush()
    log.seek(0)
    return log.read()[-4000:]


async def staff_token(running) -> str:
    body = {"username": running.staff, "password": PASSWORD, "device_id": "cluster-cli", "device_name": "cluster"}
    async with running.http.post(f"{running.url}/api/user/login", json=body) as answer:
        assert answer.status == 200, await answer.text()
        return (await answer.json())["content"]["tokenData"]["access_token"]


async def test_both_processes_answer_through_the_balancer(running):
    served = set()
    for _ in range(6):  # new connections: HAProxy balances connections, a kept-alive one sticks
        async with running.http.get(f"{running.url}/api/config", headers={"Connection": "close"}) as answer:
            assert answer.status == 200
            served.add(answer.headers["X-Served-By"])
    assert served == {"p1", "p2"}


async def test_a_message_sent_through_the_balancer_reaches_sockets_on_both_processes(running):
    token = await staff_token(running)
    headers = {"Authorization": f"Bearer {token}"}
    body = {"title": "Cluster derby", "event_date": "2026-11-24T18:00:00Z", "sportType": "football"}
    async with running.http.post(f"{running.url}/api/admin/events", json=body, headers=headers) as answer:
        event_id = (await answer.json())["content"]["_id"]
    clients, inboxes = [], []
    try:
        for _ in range(4):  # round robin: both processes get some
            client = socketio.AsyncClient(reconnection=False)
            inbox: asyncio.Queue = asyncio.Queue()
            client.on("event-url-change", lambda data, inbox=inbox: inbox.put_nowait(data))
            await client.connect(
                running.url,
                transports=["websocket"],
                socketio_path="ws",
                headers={"Origin": running.url},
                wait_timeout=TIMEOUT_S,
            )
            assert '"ok": true' in await client.call("join-event-room", {"eventId": event_id}, timeout=TIMEOUT_S)
            clients.append(client)
            inboxes.append(inbox)

        async def counted() -> dict | None:
            async with running.http.get(f"{running.url}/api/health") as answer:
                sockets = (await answer.json())["content"]["sockets"]
            return sockets if sockets == {"scope": "cluster", "connected": 4, "processes": 2} else None

        assert await eventually(counted)
        async with running.http.post(f"{running.url}/api/admin/events/{event_id}/go_live", headers=headers) as answer:
            assert answer.status == 200
        stream = "https://cdn.example.com/derby/master.m3u8"
        async with running.http.post(
            f"{running.url}/api/admin/events/{event_id}/stream", json={"url": stream}, headers=headers
        ) as answer:
            assert answer.status == 200, await answer.text()
        for inbox in inboxes:  # going live told the room its first stream; then the switch
            urls = [(await asyncio.wait_for(inbox.get(), TIMEOUT_S))["eventUrl"] for _ in range(2)]
            assert urls[-1] == stream
    finally:
        for client in clients:
            await client.disconnect()


async def test_a_killed_process_is_replaced_and_the_balancer_keeps_answering(running):
    victim = await _pid_on(running.ports[0])
    os.kill(victim, signal.SIGKILL)
    failures = 0
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:  # HAProxy retries and redispatches: viewers see no error
        async with running.http.get(f"{running.url}/api/config") as answer:
            failures += answer.status != 200
        await asyncio.sleep(0.05)
    assert failures == 0

    async def replaced() -> bool:
        try:
            return await _pid_on(running.ports[0]) != victim
        except (OSError, aiohttp.ClientError, AssertionError):
            return False

    assert await eventually(replaced, timeout=60), _output(running.log)
    assert "exited with -9; starting it again" in _output(running.log)


def _listening(port: int) -> str:
    """What listens on `port` (ss's line, with the pid), empty when nothing does."""
    return subprocess.run(["ss", "-Htlnp", f"sport = :{port}"], capture_output=True, text=True, check=True).stdout


async def _pid_on(port: int) -> int:
    """The pid listening on `port` (the server process the cluster started there)."""
    out = await asyncio.to_thread(_listening, port)
    assert "pid=" in out, out
    return int(out.split("pid=")[1].split(",")[0])


async def test_sigterm_stops_the_balancer_and_every_process(running):
    running.launcher.send_signal(signal.SIGTERM)
    assert running.launcher.wait(40) == 0
    with pytest.raises(aiohttp.ClientError):
        async with running.http.get(f"{running.url}/api/health"):
            pass
    for port in running.ports:  # nothing listens any more (a bind could still meet TIME_WAIT)
        assert (await asyncio.to_thread(_listening, port)).strip() == ""


async def test_the_balancers_own_503_is_the_apis_error_envelope():
    assert set(UNAVAILABLE) == {"error", "message", "messageErrorCode"} and UNAVAILABLE["error"] is True
