"""`touchline cluster` end to end: two server processes behind HAProxy on a fresh PostgreSQL
database and a private Redis. Both processes answer through the one port, a socket message sent
through the balancer reaches clients on either process, health counts every process's sockets,
a process killed with SIGKILL is replaced while the balancer keeps answering, and SIGTERM stops
everything.

The tests share one cluster and each begins once both processes are in rotation (a killed one is
started again); stopping everything needs a cluster of its own.

Needs PostgreSQL, redis-server and haproxy (REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 turn skips into
failures, as in CI, whose .ci/run installs haproxy)."""

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest.mock import ANY

import aiohttp
import pytest
import pytest_asyncio
import socketio

from cli.cluster.haproxy import UNAVAILABLE, config, error_pages
from cli.cluster.processes import Supervisor
from cli.commands.cluster import _no_edge_because, _start_edge
from server.media.delivery.edge_tokens import issue_edge_token
from server.settings import Settings
from server.tests.realtime.support import RedisServer, redis_server_binary

from .cluster_support import TIMEOUT_S, Cluster, eventually, listening, pid_on, running_cluster, settled

pytestmark = pytest.mark.asyncio(loop_scope="session")


@contextlib.asynccontextmanager
async def cluster_on_its_own_redis(tmp_dir: Path) -> AsyncIterator[Cluster]:
    redis_server = RedisServer(redis_server_binary()).start()
    try:
        async with running_cluster(tmp_dir, redis_server.url) as cluster:
            yield cluster
    finally:
        redis_server.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def shared_cluster(tmp_path_factory) -> AsyncIterator[Cluster]:
    async with cluster_on_its_own_redis(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster


@pytest_asyncio.fixture(loop_scope="session")
async def running(shared_cluster: Cluster) -> Cluster:
    """The shared cluster with both processes healthy and in HAProxy's rotation."""
    await settled(shared_cluster)
    return shared_cluster


async def staff_token(running) -> str:
    return await running.staff_token()


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
    # Kick-off tomorrow: a date already past would let the cluster's kickoff job start it first.
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = {"title": "Cluster derby", "event_date": tomorrow, "sportType": "football"}
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
    victim = await pid_on(running.ports[0])
    os.kill(victim, signal.SIGKILL)

    async def stopped_listening() -> bool:
        sockets = (await asyncio.to_thread(listening, running.ports[0])).splitlines()
        # A listening socket that no process holds is the dead one's, which the kernel releases
        # after the process's other files: until then it still accepts connections.
        return all("pid=" in line and f"pid={victim}," not in line for line in sockets)

    # Until the kernel has closed the dying process's socket, it still accepts connections: those
    # get HAProxy's 502 (a process killed under a request), which clients retry. A busy machine
    # makes that moment longer, so the requests start after it.
    assert await eventually(stopped_listening, every=0.01)
    gone_at = time.monotonic()
    failures = []
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:  # HAProxy retries and redispatches: viewers see no error
        async with running.http.get(f"{running.url}/api/config") as answer:
            if answer.status != 200:
                failures.append((answer.status, round(time.monotonic() - gone_at, 2), await answer.text()))
        await asyncio.sleep(0.05)
    assert failures == [], running.output()

    async def replaced() -> bool:
        try:
            return await pid_on(running.ports[0]) != victim
        except (OSError, aiohttp.ClientError, AssertionError):
            return False

    assert await eventually(replaced, timeout=60), running.output()
    assert "exited with -9; starting it again" in running.output()


async def logged(cluster: Cluster, path: str, count: int) -> list[str]:
    """The upstreams of the edge's log lines for `path`, once there are `count` (nginx writes a
    request's line after its answer has gone)."""

    async def lines() -> list[str]:
        found = [upstream for asked, upstream in cluster.edge_log() if asked == path]
        return found if len(found) >= count else []

    return await eventually(lines, timeout=10) or [u for asked, u in cluster.edge_log() if asked == path]


async def test_streams_go_through_the_edge_which_keeps_one_copy_of_a_segment_for_every_token(running):
    """HAProxy sends the streams' paths to the media edge (server/media/delivery/edge_nginx.py): a second viewer's
    token gets the first one's cached copy, and a process is asked for the segment once."""
    segment = "vod/football/720p/index1.ts"
    tokens = [
        issue_edge_token("vod/football/", secret=Settings().secret_key, expires=int(time.time()) + lifetime)
        for lifetime in (60, 90)
    ]
    statuses = []
    for token in tokens:
        async with running.http.get(f"{running.url}/media/{segment}?token={token}") as answer:
            statuses.append((answer.status, answer.headers.get("X-Cache-Status")))
            assert "X-Served-By" not in answer.headers  # the edge answered, not a process through HAProxy
    assert statuses == [(200, "MISS"), (200, "HIT")]
    asked = await logged(running, f"/media/{segment}", 2)
    assert len(asked) == 2 and asked[1] == "-"  # the HIT never reached a process
    assert asked[0] in {f"127.0.0.1:{port}" for port in running.ports}


async def test_an_expired_altered_or_other_assets_token_is_refused_by_the_edge_alone(running):
    segment = "vod/football/720p/index2.ts"
    secret = Settings().secret_key
    good = issue_edge_token("vod/football/", secret=secret, expires=int(time.time()) + 60)
    refusals = {
        "expired": (
            issue_edge_token("vod/football/", secret=secret, expires=int(time.time()) - 1),
            "stream_token_expired",
        ),
        "altered": (good[:-2] + ("AA" if not good.endswith("AA") else "BB"), "stream_access_denied"),
        "another asset's": (
            issue_edge_token("vod/hockey/", secret=secret, expires=int(time.time()) + 60),
            "stream_access_denied",
        ),
        "none": ("", "stream_access_denied"),
    }
    for what, (token, code) in refusals.items():
        async with running.http.get(f"{running.url}/media/{segment}?token={token}") as answer:
            assert answer.status == 403, what
            assert (await answer.json()) == {"error": True, "message": ANY, "messageErrorCode": code}, what
            assert "X-Served-By" not in answer.headers, what
    asked = await logged(running, f"/media/{segment}", len(refusals))
    assert asked == ["-"] * len(refusals)  # none reached a process


async def test_sigterm_stops_the_balancer_and_every_process(tmp_path):
    async with cluster_on_its_own_redis(tmp_path) as running:
        running.launcher.send_signal(signal.SIGTERM)
        assert running.launcher.wait(40) == 0
        with pytest.raises(aiohttp.ClientError):
            async with running.http.get(f"{running.url}/api/health"):
                pass
        for port in running.ports:  # nothing listens any more (a bind could still meet TIME_WAIT)
            assert (await asyncio.to_thread(listening, port)).strip() == ""


async def test_the_balancers_own_503_is_the_apis_error_envelope():
    assert set(UNAVAILABLE) == {"error", "message", "messageErrorCode"} and UNAVAILABLE["error"] is True


async def test_the_balancers_own_502_503_and_504_are_the_apis_error_envelope(tmp_path):
    # A process killed under a request gives 502: a client gets the envelope it retries on.
    pages = error_pages(tmp_path)
    assert sorted(pages) == [502, 503, 504]
    configured = config(8080, [8081, 8082], pages)
    for status, page in pages.items():
        assert f"errorfile {status} {page}" in configured
        head, body = page.read_bytes().decode().split("\r\n\r\n")
        assert head.startswith(f"HTTP/1.1 {status} ") and "Content-Type: application/json" in head
        assert json.loads(body) == UNAVAILABLE and f"Content-Length: {len(body)}" in head


async def test_no_nginx_edge_runs_for_tokens_a_cdn_checks(tmp_path):
    """The edge's nginx checks `secure_link` tokens alone: with the CDN's flavour the processes
    check them (HAProxy sends them the streams), and the cluster says why its edge is off."""
    cdn = Settings(stream_token_flavour="akamai")
    assert _start_edge(Supervisor(tmp_path), cdn, tmp_path, [1], None, {}) is None
    assert _no_edge_because(cdn) == "akamai stream tokens are for a CDN to check"
    assert not (tmp_path / "edge").exists()
