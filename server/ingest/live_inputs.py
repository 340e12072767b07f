"""The live inputs of a server process (issue 28 §3, §4, §6): which feeds it transcodes, in a
cluster where any process may.

Every process with ingest on takes part. nginx-rtmp (one per cluster) asks any process about
each publisher (server/ingest/hooks.py), which records the key's publisher in the database. Each
input (an event whose key an encoder publishes with, or whose live recording is not yet its
archive) is run by exactly one process: the holder of its lease, `ingest:<event id>` in
`job_leases` (server.services.job_runs: taken in one conditional UPDATE, so two processes never
both get it). Every RECONCILE_SECONDS, and at once when a hook here wakes it, a process:
- renews the leases of its feeds and tells each feed its key's publisher (Feed.follow): an
  encoder that left, came back or was replaced, whichever process nginx asked;
- takes every input nobody holds: a new one, or one whose holder died, once that lease expired
  (`job_runs.lease_seconds(RECONCILE_SECONDS)`, 6.5 s: well within the reconnect grace). The new
  holder continues the same recording after a discontinuity (server.ingest.feed);
- stops a feed whose lease another process took (this one stalled past its lease).

A process that did not answer the hook finds the stream to pull on nginx's stat page, by the
publisher the database names (the key itself is kept only as a hash). A process's ffmpeg dies
with it (server.media.packaging.supervisor), so an old holder's transcoder never writes beside
the new one's.

Finishing (`stop_for_finish`, before server.services.event_admin.finish, in whichever process
staff asked): the recording is marked `finishing`; its holder stops ffmpeg and gives its lease
up, and the finish closes the recording once it has (or once a dead holder's lease expired).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime

from .. import clock
from ..db import Database
from ..media.assets.store import MediaStore, store_of
from ..media.sources.rtmp import APPLICATION, RtmpIngest
from ..media.sources.rtmp_control import drop_publisher
from ..media.sources.rtmp_stat import stream_publishers
from ..services import job_runs, live_feeds, stream_keys
from ..settings import Settings
from .feed import Feed, Health

log = logging.getLogger(__name__)

RECONCILE_SECONDS = 1.0
# How often the keys of the feeds being published are checked: a revoked one's encoder is cut off.
KEYS_CHECK_SECONDS = 3.0
# A recorded publisher nginx has not had for this long is gone (nginx restarted without saying so).
STALE_PUBLISHER_SECONDS = 10.0
# A finish waits this long at most for another process to stop the feed's transcoder.
FINISH_WAIT_SECONDS = job_runs.lease_seconds(RECONCILE_SECONDS) + 2.0
FINISH_LOOK_EVERY_S = 0.2
# A feed ended here finishes its step (a transaction, describing a feed) for this long at most.
ABANDON_WAIT_SECONDS = 10.0


def lease_name(event_id: str) -> str:
    return f"ingest:{event_id}"


class LiveInputs:
    """This process's feeds, by event, and the leases that make them its own."""

    def __init__(
        self,
        settings: Settings,
        database: Database,
        rtmp: RtmpIngest,
        *,
        store: MediaStore | None = None,
        ffmpeg: str = "ffmpeg",
        ffprobe: str = "ffprobe",
        holder: str | None = None,
    ):
        self.settings = settings
        self.database = database
        self.rtmp = rtmp
        self.store = store or store_of(settings)
        self.ffmpeg = ffmpeg
        self.ffprobe = ffprobe
        self.holder = holder or job_runs.new_holder()
        self.feeds: dict[str, Feed] = {}
        self.refusals: dict[str, tuple[datetime, str]] = {}
        # Stream names told by this process's hooks, by publisher: no need to ask nginx for them.
        self._names: dict[str, str] = {}
        self._missing: dict[str, float] = {}  # publishers recorded but not at nginx, since
        self._tasks: dict[Feed, asyncio.Task] = {}
        self._wake = asyncio.Event()
        self._closing = asyncio.Event()

    # --- told by this process's hooks ------------------------------------------------------

    def published(self, publisher: str, name: str) -> None:
        """nginx let `publisher` in with the stream `name` (its key is recorded): look now."""
        self._names[publisher] = name
        self._wake.set()

    def unpublished(self) -> None:
        """An encoder left (its key's publisher is cleared): look now."""
        self._wake.set()

    def refused(self, event_id: str, reason: str) -> None:
        """An encoder of the event was turned away for `reason` (staff see the last one)."""
        self.refusals[event_id] = (clock.now(), reason)

    async def drop(self, publisher: str, fallback_name: str) -> int:
        """Drop `publisher` (`clientid@address`) at nginx: staff let another encoder take over.
        Whichever process holds the feed sees the new publisher and continues the recording. How
        many sessions nginx dropped."""
        if self.rtmp.control_url is None:
            return 0
        name = (await self._stream_names() or {}).get(publisher, fallback_name)
        return await drop_publisher(self.rtmp.control_url, APPLICATION, name, publisher.partition("@")[0])

    # --- the rounds ----------------------------------------------------------------------

    async def reconcile(self) -> None:
        """One round: this process's feeds follow their publishers, and inputs nobody runs are taken."""
        async with self.database.session() as db:
            publishers = await stream_keys.publishers(db)
            recordings = await live_feeds.feeds_in_progress(db)
        at_nginx = await self._stream_names()
        if at_nginx is not None:
            publishers = await self._without_stale(publishers, at_nginx)

        def name_of(publisher: str | None) -> str | None:
            if publisher is None:
                return None
            return self._names.get(publisher) or (at_nginx or {}).get(publisher)

        for event_id, feed in list(self.feeds.items()):
            state = recordings.get(event_id, ("", ""))[1]
            if state == live_feeds.FINISHING:
                await self._stop_for_finish(feed)
            elif feed.finishing:
                if state:  # the finish fell through: the input is taken on again, from the start
                    await self._abandon(feed)
            elif not await job_runs.claim(self.database, lease_name(event_id), self.holder, RECONCILE_SECONDS):
                log.warning("live input of event %s: another process took it over", event_id)
                await self._abandon(feed)
            else:
                publisher = publishers.get(event_id)
                feed.follow(publisher, name_of(publisher))
        for event_id in (publishers.keys() | recordings.keys()) - self.feeds.keys():
            taken_over = recordings[event_id][1] if event_id in recordings else None
            if taken_over == live_feeds.FINISHING:
                continue
            if not await job_runs.claim(self.database, lease_name(event_id), self.holder, RECONCILE_SECONDS):
                continue
            publisher = publishers.get(event_id)
            name = name_of(publisher)
            if taken_over is not None:
                log.warning("live input of event %s: taken on by this process (%s)", event_id, taken_over)
            self._start(Feed(self, event_id, name, publisher if name else None, taken_over=taken_over))
        self._names = {p: n for p, n in self._names.items() if p in publishers.values()}

    async def _without_stale(self, publishers: dict[str, str], at_nginx: dict[str, str]) -> dict[str, str]:
        """The recorded publishers nginx has. One it has not had for STALE_PUBLISHER_SECONDS left
        without nginx saying so (nginx restarted, or died with its encoders): its key is freed,
        so the encoder may connect again, and its feed follows it as gone."""
        now = time.monotonic()
        # Only publishers recorded now: nginx numbers its clients afresh after a restart, so an old
        # entry could otherwise judge a new encoder of the same number stale at its first round.
        self._missing = {p: since for p, since in self._missing.items() if p in publishers.values()}
        kept = {}
        for event_id, publisher in publishers.items():
            if publisher in at_nginx:
                self._missing.pop(publisher, None)
                kept[event_id] = publisher
            elif now - self._missing.setdefault(publisher, now) < STALE_PUBLISHER_SECONDS:
                kept[event_id] = publisher  # nginx takes a publisher's packets a moment after its hook
            else:
                async with self.database.write_session() as db:
                    await stream_keys.forget_publisher(db, event_id, publisher)
                self._missing.pop(publisher, None)
                log.warning("ingest: nginx no longer has the encoder of event %s; its key is free", event_id)
        return kept

    async def _stream_names(self) -> dict[str, str] | None:
        """nginx's publishers now (their stream names, by publisher); None when it cannot say."""
        stat_url = self.rtmp.stat_url
        return await stream_publishers(stat_url, APPLICATION) if stat_url is not None else None

    def _start(self, feed: Feed) -> None:
        self.feeds[feed.event_id] = feed
        self._tasks[feed] = asyncio.create_task(feed.run(), name=f"live input {feed.event_id}")

    async def _stop_for_finish(self, feed: Feed) -> None:
        if not feed.finishing:
            await feed.stop_for_finish()
            await job_runs.release(self.database, lease_name(feed.event_id), self.holder)

    async def _abandon(self, feed: Feed) -> None:
        """Another process has the input now, or a finish fell through: ffmpeg stops and the feed
        ends here, changing nothing the next holder owns."""
        feed.abandon()
        task = self._tasks.get(feed)
        if task is not None:
            # Its step ends first: a transaction cut off in its middle would hold SQLite's lock.
            await asyncio.wait({task}, timeout=ABANDON_WAIT_SECONDS)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.forget(feed)

    async def _every(self, seconds: float, work: Callable[[], Awaitable[object]], what: str) -> None:
        """`work` every `seconds` (sooner when woken) until the inputs close; a round is never
        cut off in its middle (a transaction left open would hold SQLite's lock)."""
        while not self._closing.is_set():
            try:
                await work()
            except Exception:  # a database hiccup: the next round tries again
                log.exception("%s failed", what)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken_or_closing(), seconds)
            self._wake.clear()

    async def _woken_or_closing(self) -> None:
        waits = [asyncio.ensure_future(self._wake.wait()), asyncio.ensure_future(self._closing.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    @contextlib.asynccontextmanager
    async def rounds(self) -> AsyncIterator[LiveInputs]:
        """The rounds (reconcile, and the keys' check) run for as long as the block lasts."""
        self._closing.clear()
        tasks = [
            asyncio.create_task(self._every(RECONCILE_SECONDS, self.reconcile, "the live inputs' round")),
            asyncio.create_task(self._every(KEYS_CHECK_SECONDS, self.cut_off_revoked, "checking the keys")),
        ]
        try:
            yield self
        finally:
            self._closing.set()
            self._wake.set()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def cut_off_revoked(self) -> list[str]:
        """Drops every encoder nginx has whose key was revoked (or rotated away) since it
        connected, whichever process runs its feed (that feed then waits for an encoder, as after
        a leave); the stream names cut off. Any process may: a drop is idempotent."""
        if self.rtmp.control_url is None:
            return []
        publishing = await self._stream_names()
        if not publishing:
            return []
        async with self.database.session() as db:
            kept = await stream_keys.names_in_force(
                db, sorted(set(publishing.values())), secret_key=self.settings.secret_key
            )
        cut = []
        for publisher, name in publishing.items():
            if name in kept:
                continue
            if await drop_publisher(self.rtmp.control_url, APPLICATION, name, publisher.partition("@")[0]):
                log.warning("ingest: an encoder whose key was revoked is cut off")
                cut.append(name)
        return cut

    # --- feeds ending ----------------------------------------------------------------------

    def forget(self, feed: Feed) -> None:
        if self.feeds.get(feed.event_id) is feed:
            del self.feeds[feed.event_id]
        self._tasks.pop(feed, None)

    async def ended(self, feed: Feed) -> None:
        """A feed's run is over; a finished one's lease goes (nothing is left to take over)."""
        self.forget(feed)
        if feed.state == "finished":
            with contextlib.suppress(Exception):
                await job_runs.forget(self.database, lease_name(feed.event_id), self.holder)

    def health(self, event_id: str) -> Health | None:
        feed = self.feeds.get(event_id)
        return feed.health() if feed is not None else None

    async def close(self) -> None:
        """The process stops: its transcoders stop and its leases go, so another process takes
        its inputs on at its next round rather than once they expire."""
        feeds = list(self.feeds.values())
        for feed in feeds:
            await self._abandon(feed)
        for feed in feeds:
            with contextlib.suppress(Exception):
                await job_runs.release(self.database, lease_name(feed.event_id), self.holder)


async def stop_for_finish(
    database: Database, event_id: str, inputs: LiveInputs | None
) -> Callable[[], Awaitable[None]] | None:
    """Before staff's finish closes the event's recording: the feed's transcoder, in whichever
    process runs it, has stopped. Returns what puts the feed back should the finish fail (None
    when the event had no feed on air)."""
    async with database.write_session() as db:
        marked = await live_feeds.mark_finishing(db, event_id)
    if marked is None:
        return None
    asset_id, before = marked
    feed = inputs.feeds.get(event_id) if inputs is not None else None
    if feed is not None and inputs is not None:
        await inputs._stop_for_finish(feed)
    else:
        for _ in range(round(FINISH_WAIT_SECONDS / FINISH_LOOK_EVERY_S)):  # its holder stops, or its lease ends
            if not await job_runs.held(database, lease_name(event_id)):
                break
            await asyncio.sleep(FINISH_LOOK_EVERY_S)

    async def restore() -> None:
        async with database.write_session() as db:
            await live_feeds.unmark_finishing(db, asset_id, before)

    return restore


_current: LiveInputs | None = None


def current() -> LiveInputs | None:
    """This process's live inputs, when it takes part in the ingest."""
    return _current


@contextlib.asynccontextmanager
async def serving(inputs: LiveInputs):
    global _current  # one per process, like the socket emitter: the hooks and handlers find it here
    _current = inputs
    try:
        async with inputs.rounds():
            yield inputs
    finally:
        _current = None
        await inputs.close()


__all__ = ["Feed", "Health", "LiveInputs", "current", "lease_name", "serving", "stop_for_finish"]
