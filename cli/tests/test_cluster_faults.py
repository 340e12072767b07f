"""Faults in `touchline cluster` (two server processes behind HAProxy on PostgreSQL and a private
Redis), under a steady stream of requests through the balancer:

- one process killed with SIGKILL: the socket clients it had are back in their event's room
  within 5 s and get the next stream switch, purchases in flight are neither lost nor doubled,
  refreshes in flight sign nobody out;
- Redis stopped and started again: REST keeps answering, health says degraded and then ok, every
  process resubscribes, and a stream switch sent during the outage is delivered late, as
  server.realtime.fanout documents.

One cluster for the module: a killed process is started again by `touchline cluster`, and each
test begins once both processes are back in rotation. To kill a process while calls are in the
part that matters (a purchase recorded but not paid, a refresh committed but not answered), a
test stops it (SIGSTOP), looks in the database for what stays there, and then SIGKILLs it.
Loopback only.

Needs PostgreSQL, redis-server and haproxy (REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 turn skips into
failures, as in CI)."""

import asyncio
import contextlib
import hashlib
import os
import signal
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import aiohttp
import pytest
import pytest_asyncio
import socketio
from sqlalchemy import select

from server.models import PaymentCharge, Purchase, RefreshToken
from server.payments import SandboxProvider
from server.tests import commerce
from server.tests.accounts import PASSWORD, bearer, create_user, create_user_at, new_device
from server.tests.billing import database_at, store_card
from server.tests.media_dir import as_sample
from server.tests.realtime.support import RedisServer, redis_server_binary

from .cluster_support import TIMEOUT_S, Cluster, eventually, health_of, pid_on, running_cluster, settled

pytestmark = pytest.mark.asyncio(loop_scope="session")

REJOIN_WITHIN_S = 5.0
FIRST_STREAM = "/media/live/football.m3u8"

H = TypeVar("H")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def cluster(tmp_path_factory) -> AsyncIterator[tuple[Cluster, RedisServer]]:
    redis_server = RedisServer(redis_server_binary()).start()
    try:
        async with running_cluster(tmp_path_factory.mktemp("cluster-faults"), redis_server.url) as running:
            yield running, redis_server
    finally:
        redis_server.stop()


@pytest_asyncio.fixture(loop_scope="session")
async def steady(cluster) -> Cluster:
    """The cluster with both processes healthy (fan-out subscribed) and in HAProxy's rotation."""
    running, _ = cluster
    await settled(running)
    return running


@pytest_asyncio.fixture(loop_scope="session")
async def database(steady: Cluster):
    """The cluster's database, to prepare data on and check what the processes wrote."""
    async with database_at(steady.database_url) as db:
        yield db


# --- what the tests drive ------------------------------------------------------------------------


@dataclass
class Load:
    """`clients` concurrent clients requesting `paths` in turn through the balancer, each request
    on a new connection (HAProxy balances connections). Every answer is kept with its time."""

    cluster: Cluster
    paths: list[str]
    headers: dict[str, str] = field(default_factory=dict)
    clients: int = 4
    answers: list[tuple[float, int | str]] = field(default_factory=list)
    _tasks: list[asyncio.Task] = field(default_factory=list)

    async def _client(self, index: int) -> None:
        turn = index
        while True:
            path = self.paths[turn % len(self.paths)]
            turn += 1
            outcome: int | str
            try:
                async with self.cluster.http.get(
                    f"{self.cluster.url}{path}",
                    headers={**self.headers, "Connection": "close"},
                    timeout=aiohttp.ClientTimeout(total=10),
                ) as answer:
                    await answer.read()
                    outcome = answer.status
            except (TimeoutError, aiohttp.ClientError) as error:
                outcome = type(error).__name__
            self.answers.append((time.monotonic(), outcome))
            await asyncio.sleep(0.02)

    def __enter__(self) -> "Load":
        self._tasks = [asyncio.ensure_future(self._client(index)) for index in range(self.clients)]
        return self

    def __exit__(self, *_exc: object) -> None:
        for task in self._tasks:
            task.cancel()

    def between(self, start: float, end: float) -> Counter:
        return Counter(outcome for at, outcome in self.answers if start <= at <= end)


class RoomClient:
    """A socket client as the webapp runs it: reconnects by itself and joins its event's room
    again on every connection. Notes when it lost its connection and when it joined."""

    def __init__(self, cluster: Cluster, event_id: str):
        self.cluster, self.event_id = cluster, event_id
        # The webapp's settings (webapp/src/realtime/socket.ts): endless retries 1-5 s apart, with jitter.
        self.client = socketio.AsyncClient(
            reconnection=True, reconnection_attempts=0, reconnection_delay=1, reconnection_delay_max=5
        )
        self.dropped: list[float] = []
        self.joined: list[float] = []
        self.urls: list[tuple[float, str]] = []
        self._joining: set[asyncio.Task] = set()
        self.client.on("connect", self._on_connect)
        self.client.on("disconnect", lambda *_: self.dropped.append(time.monotonic()))
        self.client.on("event-url-change", lambda data: self.urls.append((time.monotonic(), data["eventUrl"])))

    def _on_connect(self) -> None:
        # A task: an ack cannot arrive while the connect handler itself runs.
        task = asyncio.ensure_future(self._join())
        self._joining.add(task)
        task.add_done_callback(self._joining.discard)

    async def _join(self) -> None:
        with contextlib.suppress(socketio.exceptions.SocketIOError):
            ack = await self.client.call("join-event-room", {"eventId": self.event_id}, timeout=TIMEOUT_S)
            if '"ok": true' in ack:
                self.joined.append(time.monotonic())

    async def connect(self) -> None:
        await self.client.connect(
            self.cluster.url,
            transports=["websocket"],
            socketio_path="ws",
            headers={"Origin": self.cluster.url},
            wait_timeout=TIMEOUT_S,
        )
        assert await eventually(self._has_joined, timeout=TIMEOUT_S, every=0.05)

    async def _has_joined(self) -> bool:
        return bool(self.joined)

    def rejoined_after(self, moment: float) -> float | None:
        return next((at for at in self.joined if at > moment), None)

    def received(self, url: str) -> float | None:
        """When the event's stream moved to `url` (a sample's URL: each switch plays it through
        a new asset of the event, server.media.assets)."""
        return next((at for at, sent in self.urls if as_sample(sent) == url), None)

    async def close(self) -> None:
        for task in list(self._joining):
            task.cancel()
        await self.client.disconnect()


@contextlib.asynccontextmanager
async def room_clients(cluster: Cluster, event_id: str, count: int) -> AsyncIterator[list[RoomClient]]:
    """`count` clients connected one after the other, so round robin puts half on each process."""
    clients: list[RoomClient] = []
    try:
        for _ in range(count):
            client = RoomClient(cluster, event_id)
            clients.append(client)
            await client.connect()
        yield clients
    finally:
        for client in clients:
            await client.close()


async def live_event(cluster: Cluster) -> str:
    """A free event, on air at FIRST_STREAM; its id."""
    headers = bearer(await cluster.staff_token())
    # Kicked off a while ago: its live playlist has segments to play at once.
    kickoff = (datetime.now(UTC) - timedelta(minutes=5)).isoformat(timespec="seconds")
    body = {
        "title": f"Fault derby {uuid.uuid4().hex[:6]}",
        "event_date": kickoff,
        "gameStartDate": kickoff,
        "sportType": "football",
    }
    async with cluster.http.post(f"{cluster.url}/api/admin/events", json=body, headers=headers) as answer:
        assert answer.status == 200, await answer.text()
        event_id = (await answer.json())["content"]["_id"]
    await switch_stream(cluster, event_id, FIRST_STREAM)
    return event_id


async def switch_stream(cluster: Cluster, event_id: str, url: str, via: str | None = None) -> str | None:
    """Staff switch the event's stream, through the balancer or `via` one process's own URL; the
    process the balancer chose (p1 or p2)."""
    headers = bearer(await cluster.staff_token())
    async with cluster.http.post(
        f"{via or cluster.url}/api/admin/events/{event_id}/stream", json={"url": url}, headers=headers
    ) as answer:
        assert answer.status == 200, await answer.text()
        return answer.headers.get("X-Served-By")


@dataclass
class Viewer:
    email: str
    device_id: str
    access_token: str = ""
    refresh_token: str = ""
    user_id: str = ""

    @property
    def headers(self) -> dict[str, str]:
        return bearer(self.access_token)


async def sign_in(cluster: Cluster, email: str) -> Viewer:
    viewer = Viewer(email, new_device())
    body = {
        "username": email,
        "password": PASSWORD,
        "device_id": viewer.device_id,
        "device_name": viewer.device_id,
        "strategy": "refresh",
    }
    async with cluster.http.post(f"{cluster.url}/api/user/login", json=body) as answer:
        assert answer.status == 200, await answer.text()
        content = (await answer.json())["content"]
    viewer.access_token = content["tokenData"]["access_token"]
    viewer.refresh_token = content["tokenData"]["refresh_token"]
    viewer.user_id = content["profile"]["userId"]
    return viewer


async def viewers(cluster: Cluster, database, count: int) -> list[Viewer]:
    emails = [await create_user(database) for _ in range(count)]
    return list(await asyncio.gather(*(sign_in(cluster, email) for email in emails)))


async def playlist(cluster: Cluster, path: str, viewer: Viewer) -> str:
    """GET a playlist as the viewer's player does; it must be one."""
    async with cluster.http.get(f"{cluster.url}{path}", headers=viewer.headers) as answer:
        body = await answer.text()
    assert answer.status == 200 and body.startswith("#EXTM3U"), (answer.status, body[:300])
    return body


def token_hash(token: str) -> str:
    """How the server stores a refresh token (server.services.sessions.token_hash)."""
    return hashlib.sha256(token.encode()).hexdigest()


def kill_one(pid: int) -> float:
    os.kill(pid, signal.SIGKILL)
    return time.monotonic()


async def kill_in_the_middle(pid: int, in_the_middle: Callable[[], Awaitable[set[H]]]) -> set[H]:
    """SIGKILL `pid` at a moment when some of the calls it serves are in their middle: once some
    call of the cluster is in its middle, stop it (SIGSTOP), see what stays in the middle while the
    other process finishes its own, and kill it then; else let it run on and look again. What it
    held when killed."""
    deadline = time.monotonic() + 15
    try:
        while time.monotonic() < deadline:
            if not await in_the_middle():  # a middle lasts milliseconds: stop only in one
                await asyncio.sleep(0.002)
                continue
            os.kill(pid, signal.SIGSTOP)
            first = await in_the_middle()
            await asyncio.sleep(1)  # the other process's calls move on meanwhile; its own cannot
            held = first & await in_the_middle()
            if held:
                return held
            os.kill(pid, signal.SIGCONT)
            await asyncio.sleep(0.01)
        raise AssertionError("the process never held a call in its middle")
    finally:
        kill_one(pid)  # whatever happened: a stopped process would not stop on SIGTERM


# --- one process killed ----------------------------------------------------------------------------


async def test_sockets_of_a_killed_process_rejoin_their_room_within_5_s_and_get_the_next_stream_switch(steady):
    event_id = await live_event(steady)
    viewer = await sign_in(steady, await create_user_at(steady.database_url))
    switched = "/media/live/basketball.m3u8"
    async with room_clients(steady, event_id, 6) as clients:
        with Load(steady, ["/api/config", f"/api/event/get_by_id/id/{event_id}"], viewer.headers) as load:
            await asyncio.sleep(0.5)
            killed_at = kill_one(await pid_on(steady.ports[0]))

            async def cut_off() -> list[RoomClient]:
                return [client for client in clients if any(at > killed_at for at in client.dropped)]

            assert await eventually(cut_off, timeout=REJOIN_WITHIN_S, every=0.05), "the killed process had no client"
            await asyncio.sleep(0.3)  # the others it had notice at the same moment
            moved = await cut_off()

            async def all_back() -> bool:
                return all(client.rejoined_after(killed_at) for client in moved)

            assert await eventually(all_back, timeout=REJOIN_WITHIN_S + 5, every=0.05)
            late = [
                round(at - killed_at, 2) for client in moved if (at := client.rejoined_after(killed_at)) is not None
            ]
            assert max(late) <= REJOIN_WITHIN_S, late
            await switch_stream(steady, event_id, switched)

            async def everyone_told() -> bool:
                return all(client.received(switched) for client in clients)

            assert await eventually(everyone_told), [client.urls for client in clients]
        served_after_kill = load.between(killed_at, time.monotonic())
        assert served_after_kill[200] > 0, served_after_kill
    assert len(moved) < len(clients)  # the others stayed on the survivor

    async with steady.http.get(f"{steady.url}/api/event/get_by_id/id/{event_id}", headers=viewer.headers) as answer:
        assert answer.status == 200, await answer.text()
        stream = (await answer.json())["content"]["content"]["HLSStream"]
    assert as_sample(stream).startswith("/media/live/basketball/from-"), stream
    master = await playlist(steady, stream, viewer)
    variant = next(line for line in master.splitlines() if line and not line.startswith("#"))
    path, _, token = stream.partition("?token=")
    await playlist(steady, f"{path.rsplit('/', 1)[0]}/{variant}?token={token}", viewer)


@dataclass
class Attempts:
    """What one client's retried call saw, attempt by attempt: statuses, 409s' codes, and the
    connection errors and the balancer's 5xx answers of the calls the kill cut off."""

    seen: list[int | str] = field(default_factory=list)
    interrupted: bool = False

    async def answer(self, answer: aiohttp.ClientResponse) -> dict[str, Any]:
        content = await answer.json()  # the balancer's own errors are the API's envelope too
        self.seen.append(content["messageErrorCode"] if answer.status == 409 else answer.status)
        self.interrupted |= answer.status >= 500
        return content

    def cut(self, error: Exception) -> None:
        self.seen.append(type(error).__name__)
        self.interrupted = True


async def buy_until_answered(
    cluster: Cluster, viewer: Viewer, body: dict, attempts: Attempts, deadline: float
) -> tuple[int, dict]:
    """POST the purchase and retry it with the same Idempotency-Key and body on a connection
    error, a 5xx or a 409 saying the key's first call is still running, until a final answer."""
    headers = {**viewer.headers, "Idempotency-Key": str(uuid.uuid4())}
    while time.monotonic() < deadline:
        try:
            async with cluster.http.post(
                f"{cluster.url}/api/commerce/ppv/purchase_by_stored_cc",
                json=body,
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=15),
            ) as answer:
                content = await attempts.answer(answer)
                if answer.status < 500 and content.get("messageErrorCode") != "idempotency_request_in_progress":
                    return answer.status, content
        except (TimeoutError, aiohttp.ClientError) as error:
            attempts.cut(error)
        await asyncio.sleep(0.2)
    raise AssertionError(f"no final answer to the purchase: {attempts.seen}")


async def test_purchases_in_flight_when_a_process_is_killed_are_neither_lost_nor_doubled(steady, database):
    event = await commerce.paid_event(database)
    commerce.CREATED.remove((database, event.id))  # its database goes with the cluster, not after the test
    ppv = await commerce.product(database, "ppv", event_id=event.id)
    # Buyers arrive in four waves of eight, 2 s apart: a busy machine may finish a wave while
    # kill_in_the_middle looks at the one before, and the next gives it another chance.
    buyers = await viewers(steady, database, 32)
    provider = SandboxProvider(database)
    for buyer in buyers:
        await store_card(database, provider, buyer.user_id)
    ids = [buyer.user_id for buyer in buyers]
    body = {"event_id": event.id, "product_id": ppv.id}
    attempts = [Attempts() for _ in buyers]
    deadline = time.monotonic() + 45  # a dead process's claims lapse within 15 s (idempotency.LEASE)

    async def recorded_unpaid() -> set[str]:
        """Buyers whose purchase is recorded and not paid yet: the checkout's middle."""
        async with database.session() as db:
            rows = await db.scalars(
                select(Purchase.user_id).where(Purchase.product_id == ppv.id, Purchase.status == "init")
            )
            return {user_id for user_id in rows if user_id is not None}

    with Load(steady, ["/api/config"]):
        victim = await pid_on(steady.ports[0])

        async def arriving(index: int, buyer: Viewer, seen: Attempts) -> tuple[int, dict]:
            await asyncio.sleep(index // 8 * 2.0)
            return await buy_until_answered(steady, buyer, body, seen, deadline)

        buying = asyncio.gather(
            *(arriving(index, *pair) for index, pair in enumerate(zip(buyers, attempts, strict=True)))
        )

        assert await eventually(recorded_unpaid, timeout=10, every=0.005)
        middle = await kill_in_the_middle(victim, recorded_unpaid)
        answers = await buying
    outcomes = {buyer.email: seen.seen for buyer, seen in zip(buyers, attempts, strict=True)}
    assert [status for status, _ in answers] == [200] * len(buyers), outcomes
    # Some of the killed process's checkouts had recorded their purchase: the retries went on with it.
    cut = {buyer.user_id for buyer, seen in zip(buyers, attempts, strict=True) if seen.interrupted}
    assert cut & middle, (middle, outcomes)

    for buyer in buyers:
        async with steady.http.get(f"{steady.url}/api/commerce/ppv/purchases", headers=buyer.headers) as answer:
            assert answer.status == 200, await answer.text()
            entries = (await answer.json())["content"]["entries"]
        assert [(entry["status"], entry["originalProduct"]["_id"]) for entry in entries] == [("success", ppv.id)]
    async with database.session() as db:
        purchases = Counter(await db.scalars(select(Purchase.user_id).where(Purchase.user_id.in_(ids))))
        charges = Counter(await db.scalars(select(PaymentCharge.owner_id).where(PaymentCharge.owner_id.in_(ids))))
    assert purchases == charges == Counter(ids), (purchases, charges)


async def refresh_until(cluster: Cluster, viewer: Viewer, stop: asyncio.Event, attempts: Attempts) -> str | None:
    """Refresh again and again until `stop`, retrying with the same refresh token on connection
    errors and 5xx answers, as the webapp does; None, or what signed the viewer out."""
    body: dict[str, Any] = {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "subject_token_type": "urn:ietf:params:oauth:token-type:refresh_token",
        "device": {"id": viewer.device_id, "name": viewer.device_id},
    }
    while not stop.is_set():
        try:
            async with cluster.http.post(
                f"{cluster.url}/api/oauth2/token",
                json={**body, "subject_token": viewer.refresh_token},
                timeout=aiohttp.ClientTimeout(total=10),
            ) as answer:
                content = await attempts.answer(answer)
                if answer.status == 200:
                    viewer.access_token = content["content"]["token"]
                    viewer.refresh_token = content["content"]["refresh_token"]
                elif answer.status < 500:
                    return f"{answer.status} {content['messageErrorCode']}"
        except (TimeoutError, aiohttp.ClientError) as error:
            attempts.cut(error)
        await asyncio.sleep(0.02)
    return None


async def test_refreshes_in_flight_when_a_process_is_killed_sign_nobody_out(steady, database):
    signed_in = await viewers(steady, database, 8)
    attempts = [Attempts() for _ in signed_in]
    stop = asyncio.Event()

    async def rotated_unanswered() -> set[tuple[str, str]]:
        """Refresh tokens in flight that the server has already rotated: the refresh committed
        and its answer is still on its way."""
        sent = {token_hash(viewer.refresh_token): viewer for viewer in signed_in}
        async with database.session() as db:
            used = await db.scalars(
                select(RefreshToken.token_hash).where(
                    RefreshToken.token_hash.in_(sent), RefreshToken.used_at.is_not(None)
                )
            )
            return {(sent[hashed].email, hashed) for hashed in used}

    with Load(steady, ["/api/config"]):
        victim = await pid_on(steady.ports[0])
        refreshing = asyncio.gather(
            *(refresh_until(steady, viewer, stop, seen) for viewer, seen in zip(signed_in, attempts, strict=True))
        )
        await asyncio.sleep(0.5)
        held = await kill_in_the_middle(victim, rotated_unanswered)
        await asyncio.sleep(3)  # the retries, and refreshes after them, on the surviving process
        stop.set()
        signed_out = await refreshing
    outcomes = {viewer.email: seen.seen for viewer, seen in zip(signed_in, attempts, strict=True)}
    assert signed_out == [None] * len(signed_in), outcomes
    # Their answers died with the process: the retries with the old token got the same new pair.
    cut = {viewer.email for viewer, seen in zip(signed_in, attempts, strict=True) if seen.interrupted}
    assert {email for email, _ in held} <= cut, (held, outcomes)
    for viewer in signed_in:
        async with steady.http.get(f"{steady.url}/api/user/get_profile", headers=viewer.headers) as answer:
            assert answer.status == 200, await answer.text()


# --- Redis stopped ---------------------------------------------------------------------------------


async def test_redis_stopped_rest_answers_health_degrades_and_recovers_and_late_messages_arrive(cluster, steady):
    _, redis_server = cluster
    event_id = await live_event(steady)
    viewer = await sign_in(steady, await create_user_at(steady.database_url))
    process_urls = [f"http://127.0.0.1:{port}" for port in steady.ports]

    async def statuses() -> list[tuple[str, str] | None]:
        reports = [await health_of(steady.http, url) for url in [*process_urls, steady.url]]
        return [(r["status"], r["realtime"]["status"]) if r else None for r in reports]

    async with room_clients(steady, event_id, 4) as clients:
        with Load(steady, ["/api/config", f"/api/event/get_by_id/id/{event_id}"], viewer.headers) as load:
            await asyncio.sleep(0.5)
            stopped_at = time.monotonic()
            redis_server.stop()
            try:

                async def degraded() -> list | None:
                    seen = await statuses()  # down: a process not subscribed hears no other (health.py)
                    return seen if all(s == ("degraded", "down") for s in seen) else None

                assert await eventually(degraded, timeout=15), await statuses()
                during = "/media/live/hockey.m3u8"
                emitter = await switch_stream(steady, event_id, during)

                async def local_clients_told() -> list[RoomClient]:
                    return [client for client in clients if client.received(during)]

                local = await eventually(local_clients_told, timeout=5)
                await asyncio.sleep(1)  # nothing crosses to the other process while Redis is down
                local = await local_clients_told()
                assert 0 < len(local) < len(clients), (emitter, [client.urls for client in clients])
            finally:
                restarted_at = time.monotonic()
                redis_server.start()

            async def recovered() -> list | None:
                seen = await statuses()
                return seen if all(s == ("ok", "ok") for s in seen) else None

            assert await eventually(recovered, timeout=30), await statuses()
            outage = load.between(stopped_at, restarted_at)
        assert set(outage) == {200} and outage[200] > 10, outage

        async def everyone_told() -> bool:
            return all(client.received(during) for client in clients)

        assert await eventually(everyone_told), [client.urls for client in clients]
        remote = [client for client in clients if client not in local]
        assert all((client.received(during) or 0) > restarted_at for client in remote)

        # Each process publishes and hears again: a switch sent through either reaches every client.
        for process_url, after in zip(
            process_urls, ["/media/live/volleyball.m3u8", "/media/live/basketball.m3u8"], strict=True
        ):
            await switch_stream(steady, event_id, after, via=process_url)

            async def everyone_told_after(after: str = after) -> bool:
                return all(client.received(after) for client in clients)

            assert await eventually(everyone_told_after), [client.urls for client in clients]
