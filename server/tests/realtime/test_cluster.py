"""Two whole Touchline servers (uvicorn processes started as in production) sharing a fresh
PostgreSQL database and a Redis: what is sent on one reaches websocket clients on the other,
whether it comes from the admin API or from `touchline socket emit`, and Redis may restart.

Needs PostgreSQL and redis-server (REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 turn skips into failures).
"""

import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import aiohttp
import jwt
import pytest
import pytest_asyncio
import socketio
from sqlalchemy import select

from server.auth.standing import STANDING_SECONDS
from server.migrate import upgrade
from server.models import new_id
from server.realtime.census import CENSUS_SECONDS
from server.services.live_alerts import TAKE_OVER_AFTER_SECONDS
from server.settings import PROJECT_ROOT
from server.tests.accounts import PASSWORD, create_user_at
from server.tests.conftest import _drop_postgres_database, _postgres_database
from server.tests.realtime.support import RedisServer, free_port, redis_server_binary

pytestmark = pytest.mark.asyncio(loop_scope="session")

EVENT = "e0e000000000000000000003"
STREAM = "/media/live/football.m3u8"
SECRET = "cluster-test-secret-of-at-least-32-bytes"
TIMEOUT_S = 10

# Events made here stay upcoming until a test puts them live (the kickoff job starts the past ones).
A_MONTH_AHEAD = (datetime.now(UTC) + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")


class ServerProcess:
    """`uvicorn server.app:asgi --factory` on a port of its own, output kept for failures."""

    def __init__(self, env: dict[str, str]):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115 -- lives as long as the server; stop() closes it
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            "server.app:asgi",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--ws-per-message-deflate",
            "false",
            "--no-access-log",
            "--log-level",
            "warning",
        ]
        self.process = subprocess.Popen(
            command,
            cwd=PROJECT_ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **env, "TOUCHLINE_PORT": str(self.port)},
        )

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()[-4000:]

    async def wait_ready(self, http: aiohttp.ClientSession, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.output()}")
            with contextlib.suppress(aiohttp.ClientError, OSError):
                async with http.get(f"{self.url}/api/health") as answer:
                    if answer.status == 200 and (await answer.json())["content"]["status"] == "ok":
                        return
            await asyncio.sleep(0.1)
        raise TimeoutError(f"server on {self.url} not healthy after {timeout} s:\n{self.output()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def cluster():
    redis_server = RedisServer(redis_server_binary()).start()
    name = _postgres_database()
    database_url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    servers: list[ServerProcess] = []
    try:
        await asyncio.to_thread(upgrade, database_url)  # alembic runs its own event loop
        staff, viewer = (
            await create_user_at(database_url, role="admin"),
            await create_user_at(database_url, role="viewer"),
        )
        env = {
            "TOUCHLINE_ENVIRONMENT": "test",
            "TOUCHLINE_DATABASE_URL": database_url,
            "REDIS_URL": redis_server.url,
            "TOUCHLINE_SECRET_KEY": SECRET,
            "TOUCHLINE_RESPONSE_VALIDATION": "true",
            "TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS": "100000",
            # Long enough that only the cross-process signal can explain a fresh answer.
            "TOUCHLINE_CATALOGUE_CACHE_SECONDS": "120",
        }
        servers = [ServerProcess(env), ServerProcess(env)]
        async with aiohttp.ClientSession() as http:
            for server in servers:
                await server.wait_ready(http)
            yield SimpleNamespace(
                a=servers[0],
                b=servers[1],
                redis=redis_server,
                http=http,
                staff=staff,
                viewer=viewer,
                database_url=database_url,
            )
    finally:
        for server in servers:
            server.stop()
        redis_server.stop()
        _drop_postgres_database(name)


@pytest_asyncio.fixture(loop_scope="session")
async def connect():
    """connect(server, token=None, origin=None) -> a connected client, disconnected after the test."""
    clients: list[socketio.AsyncClient] = []
    # One HTTP session for all of them: a client refused at the handshake leaves its own open.
    http = aiohttp.ClientSession()

    async def connect_(server: ServerProcess, token: str | None = None, origin: str | None = None):
        client = socketio.AsyncClient(reconnection=False, http_session=http)
        await client.connect(
            server.url,
            transports=["websocket"],
            socketio_path="ws",
            auth={"token": token} if token else None,
            headers={"Origin": origin} if origin else {},
            wait_timeout=TIMEOUT_S,
        )
        clients.append(client)
        return client

    yield connect_
    for client in clients:
        await client.disconnect()
    await http.close()


class Inbox:
    def __init__(self, client: socketio.AsyncClient):
        self._queue: asyncio.Queue = asyncio.Queue()
        client.on("*", lambda name, data: self._queue.put_nowait((name, data)))

    async def next(self) -> tuple[str, Any]:
        return await asyncio.wait_for(self._queue.get(), TIMEOUT_S)


async def watching(connect, server: ServerProcess) -> Inbox:
    client = await connect(server)
    inbox = Inbox(client)
    assert '"ok": true' in await client.call("join-event-room", {"eventId": EVENT}, timeout=TIMEOUT_S)
    return inbox


async def sign_in(cluster, server: ServerProcess, email: str) -> str:
    async with cluster.http.post(
        f"{server.url}/api/user/login",
        json={
            "username": email,
            "password": PASSWORD,
            "device_id": f"cluster-test-{new_id()}",
            "device_name": "cluster test",
        },
    ) as answer:
        body = await answer.json()
    assert answer.status == 200, body
    return body["content"]["tokenData"]["access_token"]


async def admin_emit(cluster, server: ServerProcess, token: str, body: dict) -> tuple[int, dict]:
    async with cluster.http.post(
        f"{server.url}/api/admin/socket/emit", json=body, headers={"Authorization": f"Bearer {token}"}
    ) as answer:
        return answer.status, await answer.json()


async def realtime_status(cluster, server: ServerProcess) -> str:
    async with cluster.http.get(f"{server.url}/api/health") as answer:
        return (await answer.json())["content"]["realtime"]["status"]


async def until_status(cluster, server: ServerProcess, status: str, timeout: float = TIMEOUT_S) -> None:
    async def reached() -> None:
        while await realtime_status(cluster, server) != status:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(reached(), timeout)


async def touchline(*args: str, **env: str) -> subprocess.CompletedProcess:
    """The CLI as an operator runs it: a process of its own."""
    clean = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TOUCHLINE_REDIS_URL")}
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "cli.main", *args],
        cwd=PROJECT_ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def live(title: str) -> dict:
    return {"status": "live", "title": title}


# --- fan-out between the processes -------------------------------------------------------------


async def test_each_server_reports_its_redis_fanout_as_ok(cluster):
    for server in (cluster.a, cluster.b):
        assert await realtime_status(cluster, server) == "ok"
    assert cluster.redis.numsub("touchline:socketio") == 2


async def test_a_client_on_one_server_gets_what_the_admin_api_of_the_other_sends(cluster, connect):
    inbox = await watching(connect, cluster.a)
    token = await sign_in(cluster, cluster.b, cluster.staff)
    status, body = await admin_emit(
        cluster,
        cluster.b,
        token,
        {"event": "event-url-change", "room": f"event:{EVENT}", "payload": {"eventUrl": STREAM}},
    )
    assert status == 200 and body["content"]["manager"] == "redis", body
    assert await inbox.next() == ("event-url-change", {"eventId": EVENT, "eventUrl": STREAM})


async def test_a_client_on_one_server_gets_what_the_cli_sends_through_redis(cluster, connect):
    inbox = await watching(connect, cluster.a)
    result = await touchline(
        "socket",
        "emit",
        "update-event",
        "--room",
        f"event:{EVENT}",
        "--data",
        '{"status": "live", "title": "from the CLI"}',
        REDIS_URL=cluster.redis.url,
    )
    assert result.returncode == 0, result.stderr
    assert "2 server process(es) received it" in result.stdout
    assert await inbox.next() == ("update-event", {"eventId": EVENT, **live("from the CLI")})


async def test_a_client_on_one_server_gets_what_the_cli_sends_through_the_other_servers_api(cluster, connect):
    inbox = await watching(connect, cluster.a)
    result = await touchline(
        "socket",
        "emit",
        "update-event",
        "--room",
        f"event:{EVENT}",
        "--data",
        '{"status": "live", "title": "via the API"}',
        TOUCHLINE_API_URL=cluster.b.url,
        TOUCHLINE_STAFF_EMAIL=cluster.staff,
        TOUCHLINE_STAFF_PASSWORD=PASSWORD,
    )
    assert result.returncode == 0, result.stderr
    assert "(fan-out: redis)" in result.stdout
    assert await inbox.next() == ("update-event", {"eventId": EVENT, **live("via the API")})


# --- handshake rules on the real app ----------------------------------------------------------


async def test_a_server_accepts_pages_of_its_own_origin_and_refuses_others(cluster, connect):
    for own in (cluster.a.url, f"http://localhost:{cluster.a.port}"):
        assert (await connect(cluster.a, origin=own)).connected
    for other in (cluster.b.url, "https://elsewhere.example"):  # the other server is another origin
        with pytest.raises(socketio.exceptions.ConnectionError):
            await connect(cluster.a, origin=other)


async def test_a_session_signed_out_on_one_server_cannot_open_the_socket_on_the_other(cluster, connect):
    token = await sign_in(cluster, cluster.a, cluster.viewer)
    assert (await connect(cluster.b, token=token)).connected
    async with cluster.http.post(
        f"{cluster.a.url}/api/user/logout", headers={"Authorization": f"Bearer {token}"}
    ) as answer:
        assert answer.status == 200
    with pytest.raises(socketio.exceptions.ConnectionError):
        await connect(cluster.b, token=token)


async def test_a_logout_on_one_server_ends_the_sessions_socket_on_the_other_at_once(cluster, connect):
    """Through Redis: the other server disconnects the session's socket before its STANDING_SECONDS
    belief would have run out. (Its stream stops within one token lifetime: the bound of
    server/tests/media/delivery/test_stream_revocation.py.)"""
    token = await sign_in(cluster, cluster.a, cluster.viewer)
    claims = jwt.decode(token, options={"verify_signature": False})
    socket = await connect(cluster.b, token=token)
    gone = asyncio.Event()
    socket.on("disconnect", lambda *reason: gone.set())
    assert '"ok": true' in await socket.call("join-user-room", {"userId": claims["sub"]}, timeout=TIMEOUT_S)
    bearer = {"Authorization": f"Bearer {token}"}
    logged_out = time.monotonic()
    async with cluster.http.post(f"{cluster.a.url}/api/user/logout", headers=bearer) as answer:
        assert answer.status == 200
    await asyncio.wait_for(gone.wait(), STANDING_SECONDS)
    assert time.monotonic() - logged_out < STANDING_SECONDS


# --- what every process shares -------------------------------------------------------------------


async def health_of(cluster, server: ServerProcess) -> dict:
    async with cluster.http.get(f"{server.url}/api/health") as answer:
        return (await answer.json())["content"]


async def test_health_counts_the_sockets_of_both_servers(cluster, connect):
    for server in (cluster.a, cluster.b, cluster.b):
        await watching(connect, server)
    # Each process writes its counts every 2 s (server.realtime.census); both then see all three.
    deadline = time.monotonic() + TIMEOUT_S
    seen: list[dict] = []
    while time.monotonic() < deadline:
        seen = [(await health_of(cluster, server))["sockets"] for server in (cluster.a, cluster.b)]
        if all(s == {"scope": "cluster", "connected": 3, "processes": 2} for s in seen):
            break
        await asyncio.sleep(0.2)
    assert seen == [{"scope": "cluster", "connected": 3, "processes": 2}] * 2


async def followers_of_a_new_team(cluster, emails: list[str]) -> str:
    """A team the accounts `emails` follow, each opted in to go-live mails; the team's id."""
    from server.db import Database
    from server.models import Follow, Team, User

    database = Database(cluster.database_url)
    try:
        async with database.session() as db:
            team = Team(name="Cluster Rovers", short_name="CRO", sport_type="football", color="#123456")
            db.add(team)
            await db.flush()
            for user in (await db.scalars(select(User).where(User.email.in_(emails)))).all():
                user.options = {"liveAlertMail": True}
                db.add(Follow(user_id=user.id, type="team", reference_id=team.id, created=user.created))
            await db.commit()
            return team.id
    finally:
        await database.dispose()


async def live_alert_mails_to(cluster, email: str) -> int:
    from server.db import Database
    from server.models import OutboxMail

    database = Database(cluster.database_url)
    try:
        async with database.session() as db:
            return len(
                (
                    await db.scalars(
                        select(OutboxMail).where(OutboxMail.to_address == email, OutboxMail.kind == "live_alert")
                    )
                ).all()
            )
    finally:
        await database.dispose()


async def test_a_followed_event_going_live_alerts_every_tab_on_both_servers_once_and_mails_once(cluster, connect):
    fan, on_the_page = await create_user_at(cluster.database_url), await create_user_at(cluster.database_url)
    team = await followers_of_a_new_team(cluster, [fan, on_the_page])
    # A staff account of its own: the shared one's devices are counted by the other tests.
    own_staff = await create_user_at(cluster.database_url, role="admin")
    staff = {"Authorization": f"Bearer {await sign_in(cluster, cluster.a, own_staff)}"}
    body = {"title": f"Alert {new_id()[:6]}", "event_date": A_MONTH_AHEAD, "sportType": "football"}
    async with cluster.http.post(
        f"{cluster.a.url}/api/admin/events", json={**body, "homeTeamId": team}, headers=staff
    ) as answer:
        assert answer.status == 200, await answer.text()
        event_id = (await answer.json())["content"]["_id"]
    tabs: list[tuple[str, list[tuple[str, Any]]]] = []
    for email, server in ((fan, cluster.a), (fan, cluster.b), (on_the_page, cluster.b)):
        token = await sign_in(cluster, server, email)
        user_id = jwt.decode(token, options={"verify_signature": False})["sub"]
        client = await connect(server, token)
        heard: list[tuple[str, Any]] = []
        client.on("*", lambda name, data, heard=heard: heard.append((name, data)))
        assert '"ok": true' in await client.call("join-user-room", {"userId": user_id}, timeout=TIMEOUT_S)
        if email == on_the_page:
            assert '"ok": true' in await client.call("join-event-room", {"eventId": event_id}, timeout=TIMEOUT_S)
        tabs.append((email, heard))
    # Server b writes who has which event's page open to Redis every CENSUS_SECONDS; a reads it.
    await asyncio.sleep(CENSUS_SECONDS * 1.5)
    async with cluster.http.post(f"{cluster.a.url}/api/admin/events/{event_id}/go_live", headers=staff) as answer:
        assert answer.status == 200

    def alerts(heard: list[tuple[str, Any]]) -> list[Any]:
        return [data for name, data in heard if name == "followed-event-live" and data["eventId"] == event_id]

    deadline = time.monotonic() + TIMEOUT_S
    while not all(alerts(heard) for _, heard in tabs):
        assert time.monotonic() < deadline, f"not every tab heard the alert: {tabs}"
        await asyncio.sleep(0.05)
    # The live-alerts job of either server would take an unsent alert over after a few seconds.
    await asyncio.sleep(TAKE_OVER_AFTER_SECONDS + 1)
    assert [len(alerts(heard)) for _, heard in tabs] == [1, 1, 1]
    assert alerts(tabs[0][1])[0]["title"] == body["title"]
    assert await live_alert_mails_to(cluster, fan) == 1
    assert await live_alert_mails_to(cluster, on_the_page) == 0  # its page was open on the other server


async def test_the_dashboard_counts_an_event_rooms_sockets_on_both_servers(cluster, connect):
    token = await sign_in(cluster, cluster.a, cluster.staff)
    headers = {"Authorization": f"Bearer {token}"}
    body = {"title": f"Census {new_id()[:6]}", "event_date": "2026-11-24T18:00:00Z", "sportType": "football"}
    async with cluster.http.post(f"{cluster.a.url}/api/admin/events", json=body, headers=headers) as answer:
        event_id = (await answer.json())["content"]["_id"]
    async with cluster.http.post(f"{cluster.a.url}/api/admin/events/{event_id}/go_live", headers=headers) as answer:
        assert answer.status == 200
    for server in (cluster.a, cluster.b):
        client = await connect(server)
        assert '"ok": true' in await client.call("join-event-room", {"eventId": event_id}, timeout=TIMEOUT_S)

    async def room_count() -> tuple[str, int, int | None]:
        """The monitor's socket scope and processes counted, and the room's count."""
        async with cluster.http.get(f"{cluster.b.url}/api/admin/monitor", headers=headers) as answer:
            content = (await answer.json())["content"]
        room = next((e["sockets"] for e in content["liveEvents"] if e["_id"] == event_id), None)
        return content["sockets"]["scope"], content["sockets"]["processes"], room

    # Each process writes its counts every 2 s: on a busy machine one may be late for a moment,
    # and the monitor counts one process until it writes again.
    wanted = ("cluster", 2, 2)
    deadline = time.monotonic() + TIMEOUT_S
    while (seen := await room_count()) != wanted and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert seen == wanted


async def test_a_staff_change_on_one_server_clears_the_anonymous_cache_of_the_other(cluster):
    token = await sign_in(cluster, cluster.a, cluster.staff)
    headers = {"Authorization": f"Bearer {token}"}
    body = {"title": "Before the change", "event_date": A_MONTH_AHEAD, "sportType": "football"}
    async with cluster.http.post(f"{cluster.a.url}/api/admin/events", json=body, headers=headers) as answer:
        event_id = (await answer.json())["content"]["_id"]

    async def title_on_b() -> str:
        async with cluster.http.get(f"{cluster.b.url}/api/event/get_by_id/id/{event_id}") as answer:
            return (await answer.json())["content"]["title"]

    assert await title_on_b() == "Before the change"  # now cached on b for 120 s
    async with cluster.http.patch(
        f"{cluster.a.url}/api/admin/events/{event_id}", json={"title": "After the change"}, headers=headers
    ) as answer:
        assert answer.status == 200
    deadline = time.monotonic() + TIMEOUT_S  # the signal crosses Redis in milliseconds; b's cache lasts 120 s
    while await title_on_b() != "After the change" and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert await title_on_b() == "After the change"


# --- Redis goes away and comes back (last: it restarts the shared Redis) ------------------------


async def test_when_redis_restarts_health_goes_down_then_ok_and_delivery_resumes(cluster, connect):
    inbox = await watching(connect, cluster.a)
    token = await sign_in(cluster, cluster.b, cluster.staff)
    try:
        cluster.redis.kill()
        for server in (cluster.a, cluster.b):
            await until_status(cluster, server, "down")
        async with cluster.http.get(f"{cluster.a.url}/api/health") as answer:
            assert answer.status == 200 and (await answer.json())["content"]["status"] == "degraded"
        # Sent while Redis is down: the server keeps it and publishes it once Redis is back.
        status, _ = await admin_emit(
            cluster,
            cluster.b,
            token,
            {"event": "update-event", "room": f"event:{EVENT}", "payload": live("during the outage")},
        )
        assert status == 200
    finally:
        cluster.redis.start()

    for server in (cluster.a, cluster.b):
        await until_status(cluster, server, "ok")
    assert await inbox.next() == ("update-event", {"eventId": EVENT, **live("during the outage")})
    status, _ = await admin_emit(
        cluster,
        cluster.b,
        token,
        {"event": "update-event", "room": f"event:{EVENT}", "payload": live("after the outage")},
    )
    assert status == 200
    assert await inbox.next() == ("update-event", {"eventId": EVENT, **live("after the outage")})
    assert cluster.redis.numsub("touchline:socketio") == 2
