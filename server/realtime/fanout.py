"""Cross-process fan-out through Redis that survives Redis going away and coming back.

python-socketio's AsyncRedisManager (5.18) already retries its listener, but: the wait
between attempts doubles up to 60 s, so a process may stay deaf for a minute after Redis is
back; every attempt builds a new client without closing the old one; a half-open connection
(no FIN, no RST) blocks its read forever; nothing says whether the process is subscribed right
now (`PUBSUB NUMSUB` counts leaked connections too); and a message published while Redis is
down is logged and dropped. `SupervisedRedisManager` keeps the library's protocol and
handlers and replaces the two transport hooks a pub/sub backend implements (`_listen`,
`_publish`):

- the listener owns one client at a time, closes it before the next attempt, retries with a
  short capped backoff with jitter, and pings Redis on the subscribed connection: no pong in
  time means the connection is dead, even when TCP has not noticed;
- `state` is `subscribed` only once Redis has answered a ping sent after SUBSCRIBE (so the
  subscription is in place); GET /api/health reports it (server.realtime.health);
- a watchdog task restarts the listener task if it ever ends (a bug, a cancellation);
- every process writes its socket counts to Redis for the others (server.realtime.census);
- closing a `session:<id>` room, here or in another process, disconnects that session's sockets
  here and refuses its streams (server.realtime.session_rooms);
- publishes that fail wait in a bounded backlog (oldest dropped first, each kept at most
  `backlog_max_age` seconds) and are sent, in order, once Redis is back and the other
  processes have had the time to resubscribe (as many subscribers as the last publish before
  the outage reached, or `2 * retry_max + ping_timeout` seconds). Connections on the
  publishing process itself were served at once, as always.

What it cannot do: a process that is not subscribed while another publishes misses that
message (Redis pub/sub keeps nothing); the backlog narrows that window to the publisher's
side only.
"""

import asyncio
import contextlib
import random
import time
from collections import deque
from typing import Any
from urllib.parse import urlparse

import socketio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from socketio.redis_manager import parse_redis_sentinel_url

from .census import CensusWriter
from .room_book import CompactRooms
from .session_rooms import close_here

CONNECTING = "connecting"
SUBSCRIBED = "subscribed"
RECONNECTING = "reconnecting"
STOPPED = "stopped"


class StaleConnection(ConnectionError):
    """Redis did not answer a ping on the subscribed connection in time."""


class Backoff:
    """Exponential delays from `initial` to `cap` seconds, each scaled by a random 0.5-1.0 so
    processes reconnecting to the same Redis spread out."""

    def __init__(self, initial: float, cap: float):
        self.initial, self.cap = initial, cap
        self.attempt = 0

    def reset(self) -> None:
        self.attempt = 0

    def next(self) -> float:
        delay = min(self.cap, self.initial * 2**self.attempt)
        self.attempt += 1
        return delay * random.uniform(0.5, 1.0)


class SupervisedRedisManager(CompactRooms, socketio.AsyncRedisManager):
    name = "touchline-redis"
    # Set by socketio's manager (untyped): the publishing client and the listener's pub/sub.
    redis: Any
    pubsub: Any

    def __init__(
        self,
        url: str,
        channel: str,
        *,
        ping_interval: float = 5.0,
        ping_timeout: float = 2.0,
        retry_initial: float = 0.2,
        retry_max: float = 2.0,
        connect_timeout: float = 2.0,
        backlog_limit: int = 1000,
        backlog_max_age: float = 30.0,
        watchdog_interval: float = 1.0,
        logger: Any = None,
    ):
        # Timeouts bound every connect and command; retries are set per client (`_client`).
        options = {
            "socket_connect_timeout": connect_timeout,
            "socket_timeout": connect_timeout,
            "health_check_interval": 0,
        }
        super().__init__(url, channel=channel, write_only=False, logger=logger, redis_options=options)
        self.ping_interval = ping_interval
        self.ping_timeout = ping_timeout
        self.retry_initial, self.retry_max = retry_initial, retry_max
        self.backlog_max_age = backlog_max_age
        self.watchdog_interval = watchdog_interval
        self.state = CONNECTING
        self.state_since = time.monotonic()
        self.last_error: str | None = None
        self.last_pong: float | None = None
        self.subscriptions = 0  # successful (re)subscriptions
        self.listener_restarts = 0
        self.dropped = 0  # backlog messages given up on (too old, or pushed out)
        self.thread: asyncio.Task | None = None
        self._watchdog: asyncio.Task | None = None
        self._flusher: asyncio.Task | None = None
        self._backlog: deque[tuple[float, str]] = deque(maxlen=backlog_limit)
        self._publish_failing = False
        self._peers = 0  # how many subscribers the last successful publish reached
        self._settling_since: float | None = None
        self._listen_client: Any = None
        self._closed = False
        self.census: CensusWriter | None = None

    # --- clients -----------------------------------------------------------------------------

    def _client(self, retries: int = 0):
        """A new client. The listener's gets no retries inside redis-py: a failure reaches the
        supervisor at once, which knows the state and closes what is broken."""
        module = self._get_redis_module()
        options = {**self.redis_options, "retry": Retry(NoBackoff(), retries)}
        if urlparse(self.redis_url).scheme in {"redis+sentinel", "valkey+sentinel"}:
            sentinels, service, extra = parse_redis_sentinel_url(self.redis_url)
            return module.sentinel.Sentinel(sentinels, **{**options, **extra}).master_for(service or self.channel)
        return module.Redis.from_url(self.redis_url, **options)

    async def _close_listen_client(self, client: Any = None, pubsub: Any = None) -> None:
        """Close the listener's connection (the current one unless told which); only the
        current one is forgotten, so a late cleanup never closes its successor."""
        if client is None and pubsub is None:
            client, pubsub = self._listen_client, self.pubsub
        if self.pubsub is pubsub:
            self.pubsub = self._listen_client = None
        for resource in (pubsub, client):
            if resource is not None:
                with contextlib.suppress(Exception):
                    await resource.aclose()

    def _set_state(self, state: str, error: BaseException | None = None) -> None:
        if error is not None:
            self.last_error = f"{type(error).__name__}: {error}"
        if state == self.state:
            return
        now = time.monotonic()
        log = self._get_logger()
        if state == SUBSCRIBED:
            if self.subscriptions:
                log.warning("socket fan-out: resubscribed to Redis after %.1f s", now - self.state_since)
            self.subscriptions += 1
        elif self.state == SUBSCRIBED:
            log.warning("socket fan-out: lost the Redis subscription (%s); reconnecting", self.last_error)
        self.state, self.state_since = state, now

    # --- session rooms -------------------------------------------------------------------------

    async def _handle_close_room(self, message: dict) -> None:
        """A room closes here, whether this process or another closed it: a session room's
        sockets here are disconnected and its streams refused (server.realtime.session_rooms)."""
        await close_here(self, message.get("room"), message.get("namespace"))
        await super()._handle_close_room(message)

    # --- listening ---------------------------------------------------------------------------

    def initialize(self) -> None:
        super().initialize()  # starts self.thread (the library's message loop around _listen)
        self._watchdog = self.server.start_background_task(self._watch)
        # Every process's socket counts, for health and the dashboard (server.realtime.census).
        self.census = CensusWriter(self.server, lambda: self._client(retries=1), self.host_id)
        self.census.start()

    async def _listen(self):
        channel = self.channel.encode()
        backoff = Backoff(self.retry_initial, self.retry_max)
        while not self._closed:
            client = pubsub = None
            try:
                client = self._listen_client = self._client()
                pubsub = self.pubsub = client.pubsub(ignore_subscribe_messages=True)
                await asyncio.wait_for(pubsub.subscribe(self.channel), self.ping_timeout)
                async for data in self._receive(pubsub, channel, backoff):
                    yield data
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._set_state(RECONNECTING, exc)
            finally:
                await self._close_listen_client(client, pubsub)
            if not self._closed:
                await asyncio.sleep(backoff.next())

    async def _receive(self, pubsub, channel: bytes, backoff: Backoff):
        """Messages of `channel`; pings Redis every `ping_interval` and raises StaleConnection
        when a pong takes longer than `ping_timeout`. The first pong (answered after SUBSCRIBE,
        Redis keeps a connection's order) marks the subscription as in place."""
        loop = asyncio.get_running_loop()
        await pubsub.ping()
        pong_due: float | None = loop.time() + self.ping_timeout
        next_ping = 0.0
        while True:
            now = loop.time()
            if pong_due is None and now >= next_ping:
                await pubsub.ping()
                pong_due = now + self.ping_timeout
            wait = (pong_due if pong_due is not None else next_ping) - now
            message = await pubsub.get_message(timeout=max(0.0, wait))
            now = loop.time()
            if message is None:
                if pong_due is not None and now >= pong_due:
                    raise StaleConnection(f"no pong from Redis within {self.ping_timeout:g} s")
                continue
            if message["type"] == "pong":
                pong_due, next_ping = None, now + self.ping_interval
                self.last_pong = time.monotonic()
                self._set_state(SUBSCRIBED)
                backoff.reset()
            elif message["type"] == "message" and message["channel"] == channel:
                yield message["data"]

    async def _watch(self) -> None:
        """Restart the listener task whenever it has ended; it must run for the process's life."""
        log = self._get_logger()
        while not self._closed:
            thread = self.thread
            if thread is not None and thread.done() and not self._closed:
                failure = None if thread.cancelled() else thread.exception()
                reason = repr(failure) if failure else "it exited"
                log.error("socket fan-out: the Redis listener stopped (%s); restarting it", reason)
                self._set_state(RECONNECTING, RuntimeError(f"listener stopped: {reason}"))
                await self._close_listen_client()
                self.listener_restarts += 1
                self.thread = self.server.start_background_task(self._thread)
            await asyncio.sleep(self.watchdog_interval)

    # --- publishing --------------------------------------------------------------------------

    async def _publish(self, data: Any) -> int | None:
        """Publish now, or queue behind earlier messages that are still waiting for Redis.
        Returns how many processes received it, None when it was queued."""
        message = self.json.dumps(data)
        if self._closed:
            self._get_logger().warning("socket fan-out: stopped; not publishing %s", data.get("method"))
            return None
        if not self._backlog:
            try:
                receivers = await self._publish_now(message)
            except Exception as exc:
                self._get_logger().warning("socket fan-out: cannot publish to Redis (%s); keeping the message", exc)
            else:
                self._publish_failing = False
                return receivers
        self._publish_failing = True
        if len(self._backlog) == self._backlog.maxlen:
            self.dropped += 1
        self._backlog.append((time.monotonic(), message))
        if (self._flusher is None or self._flusher.done()) and not self._closed:
            self._flusher = asyncio.ensure_future(self._flush())
        return None

    async def _publish_now(self, message: str) -> int:
        if self.redis is None:
            self.redis = self._client(retries=1)  # one retry replaces a connection Redis closed
        receivers = await self.redis.publish(self.channel, message)
        self._peers = receivers
        return receivers

    async def _settled(self) -> bool:
        """Whether the backlog may go out: Redis is back (this process has resubscribed) and so,
        probably, are the others: as many subscribers as before, or enough time for them to
        reconnect has passed. Messages published before a process resubscribes never reach it."""
        if self.state != SUBSCRIBED:
            self._settling_since = None
            return False
        now = time.monotonic()
        if self._settling_since is None:
            self._settling_since = now
        if now - self._settling_since >= 2 * self.retry_max + self.ping_timeout:
            return True
        if self._peers:
            with contextlib.suppress(Exception):
                [(_, subscribers)] = await self.redis.pubsub_numsub(self.channel)
                return subscribers >= self._peers
        return False

    async def _flush(self) -> None:
        backoff = Backoff(self.retry_initial, self.retry_max)
        log = self._get_logger()
        while self._backlog and not self._closed:
            expired = 0
            while self._backlog and time.monotonic() - self._backlog[0][0] > self.backlog_max_age:
                self._backlog.popleft()
                expired += 1
            if expired:
                self.dropped += expired
                log.error(
                    "socket fan-out: dropped %d message(s) Redis did not take within %g s",
                    expired,
                    self.backlog_max_age,
                )
                continue
            if not await self._settled():
                await asyncio.sleep(0.05)
                continue
            try:
                await self._publish_now(self._backlog[0][1])
            except Exception:
                await asyncio.sleep(backoff.next())
            else:
                self._backlog.popleft()
                backoff.reset()
        self._settling_since = None
        if not self._backlog:
            self._publish_failing = False

    # --- reporting and shutdown --------------------------------------------------------------

    @property
    def backlog(self) -> int:
        return len(self._backlog)

    def health(self) -> str:
        """`ok`: subscribed, pongs on time, publishing works. `degraded`: subscribed, but
        messages from this process wait for Redis. `down`: this process does not receive what
        other processes publish (not started, reconnecting, or the listener is stuck)."""
        if self.thread is None or self.thread.done() or self.state != SUBSCRIBED:
            return "down"
        overdue = self.ping_interval + self.ping_timeout + self.watchdog_interval
        if self.last_pong is None or time.monotonic() - self.last_pong > overdue:
            return "down"
        if self._publish_failing or self._backlog:
            return "degraded"
        return "ok"

    async def ping(self, timeout: float) -> bool:
        """Whether Redis answers on the publishing connection within `timeout` seconds."""
        try:
            if self.redis is None:
                self.redis = self._client(retries=1)
            return bool(await asyncio.wait_for(self.redis.ping(), timeout))
        except Exception:  # any client error means Redis is not serving us right now
            return False

    async def aclose(self) -> None:
        """Stop the watchdog, the listener and the flusher and close every connection."""
        self._closed = True
        if self.census is not None:
            await self.census.aclose()
        tasks = [t for t in (self._watchdog, self.thread, self._flusher) if t is not None and not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
        self._set_state(STOPPED)
        await self._close_listen_client()
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()
            self.redis = None


class WriteOnlyRedisManager(socketio.AsyncRedisManager):
    """For processes without a socket server (the CLI): publishes once and raises on failure
    instead of logging and dropping, and remembers how many server processes received the last
    message."""

    name = "touchline-redis-write-only"

    def __init__(self, url: str, channel: str, *, connect_timeout: float = 3.0):
        options = {"socket_connect_timeout": connect_timeout, "socket_timeout": connect_timeout}
        super().__init__(url, channel=channel, write_only=True, redis_options=options)
        self.last_receivers: int | None = None

    async def _publish(self, data: Any) -> int:
        if not self.connected:
            self._redis_connect()
        self.last_receivers = await self.redis.publish(self.channel, self.json.dumps(data))
        return self.last_receivers
