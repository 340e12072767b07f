"""SRT ingest: a listener per stream key in force (issue 28 §2), each handing its caller's feed to
nginx-rtmp (server.media.sources.srt) where RTMP feeds arrive too.

At start and every few seconds the listeners are matched to the keys in force: a new key gets its
listener; a revoked key's stops, so its port no longer answers; a rotated key's is replaced (its
passphrase and bridge name changed). Only ports of TOUCHLINE_SRT_PORTS are listened on. A listener
serves one caller: when the caller leaves, ffmpeg ends with status 0 and is started again for the
next; a crash restarts it with the supervisor's back-off (server.media.packaging.supervisor).
In a cluster one process listens: the holder of the lease `ingest:srt` (server.services.job_runs),
renewed every round; when it dies its listeners die with it (server.media.packaging.supervisor),
and another process takes the lease over once it expires and listens on the same ports (an SRT
encoder calls again, as it does after any drop).
"""

import asyncio
import contextlib
import logging
import shutil
from collections.abc import AsyncIterator

from ..db import Database
from ..media.packaging.supervisor import Transcoder
from ..media.sources.srt import SrtBridge, bridge_command, key_bridge
from ..media.sources.stream_keys import port_range
from ..services import job_runs, stream_keys
from ..settings import Settings

log = logging.getLogger(__name__)

RECONCILE_EVERY_S = 3.0
LEASE = "ingest:srt"
# Between a caller's end and the next listen: an ffmpeg that ends at once never spins.
LISTEN_AGAIN_AFTER_S = 0.2
# A port another program holds costs a log line every so often, not a busy loop.
RESTART_AT_MOST_EVERY_S = 10.0
STOP_WAIT_S = 0.1


class Listener:
    """One key's SRT listener, listening again after every caller until stopped."""

    def __init__(self, bridge: SrtBridge, ffmpeg: str):
        self.bridge = bridge
        self.ffmpeg = Transcoder(
            lambda: bridge_command(bridge, ffmpeg),
            name=f"srt listener :{bridge.port}",
            max_restart_delay=RESTART_AT_MOST_EVERY_S,
        )
        self._stopped = False
        self._task = asyncio.create_task(self._serve())

    async def _serve(self) -> None:
        while not self._stopped:
            await self.ffmpeg.run()
            if not self._stopped:
                await asyncio.sleep(LISTEN_AGAIN_AFTER_S)

    async def stop(self) -> None:
        """Stop ffmpeg, a caller's feed with it, and listen no more. Stops again while the loop
        lives: an ffmpeg may have been starting just as the first stop came."""
        self._stopped = True
        while not self._task.done():
            await self.ffmpeg.stop()
            await asyncio.wait({self._task}, timeout=STOP_WAIT_S)
        if not self._task.cancelled() and (error := self._task.exception()) is not None:
            log.warning("%s ended: %s", self.ffmpeg.name, error)


class SrtIngest:
    def __init__(self, settings: Settings, database: Database, ffmpeg: str):
        self._settings = settings
        self._database = database
        self._ffmpeg = ffmpeg
        self._ports = port_range(settings.srt_ports)
        self.listeners: dict[str, Listener] = {}  # by key row id

    async def wanted(self) -> dict[str, SrtBridge]:
        async with self._database.read_session() as db:
            inputs = await stream_keys.srt_inputs(db)
        return {
            i.key_id: key_bridge(self._settings, i.key_id, i.key_hash, i.port) for i in inputs if i.port in self._ports
        }

    async def reconcile(self) -> None:
        """Listeners for the keys in force now: stale ones stop before new ones take their ports."""
        wanted = await self.wanted()
        stale = [key_id for key_id, listener in self.listeners.items() if wanted.get(key_id) != listener.bridge]
        await asyncio.gather(*(self.listeners[key_id].stop() for key_id in stale))
        for key_id in stale:
            del self.listeners[key_id]
        for key_id, bridge in wanted.items():
            if key_id not in self.listeners:
                self.listeners[key_id] = Listener(bridge, self._ffmpeg)

    async def keep_reconciling(self, every: float, closing: asyncio.Event, holder: str | None = None) -> None:
        """Listeners for the keys in force, every `every` seconds, while `holder` holds the lease
        (always without a holder)."""
        while not closing.is_set():
            try:
                if holder is None or await job_runs.claim(self._database, LEASE, holder, every):
                    await self.reconcile()
                elif self.listeners:
                    log.warning("SRT ingest: another process listens now")
                    await self.stop()
            except Exception as error:  # the database is away: the listeners stay as they are
                log.warning("SRT ingest could not read the stream keys: %s", error)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(closing.wait(), every)

    async def stop(self) -> None:
        await asyncio.gather(*(listener.stop() for listener in self.listeners.values()))
        self.listeners.clear()


@contextlib.asynccontextmanager
async def running(
    settings: Settings,
    database: Database | None,
    *,
    every: float = RECONCILE_EVERY_S,
    ffmpeg: str | None = None,
    holder: str | None = None,
) -> AsyncIterator[SrtIngest | None]:
    """SRT listeners for the keys in force, for as long as the context lasts and, with a
    `holder`, while it holds the lease (None without a database or ffmpeg)."""
    ffmpeg = ffmpeg or shutil.which("ffmpeg")
    if database is None or ffmpeg is None:
        if database is not None:
            log.warning("SRT ingest is off: ffmpeg is not installed (scripts/system-deps serve installs it)")
        yield None
        return
    ingest = SrtIngest(settings, database, ffmpeg)
    closing = asyncio.Event()
    task = asyncio.create_task(ingest.keep_reconciling(every, closing, holder))
    try:
        yield ingest
    finally:
        closing.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, RECONCILE_EVERY_S * 2)
        await ingest.stop()
        if holder is not None:  # another process listens at its next round
            with contextlib.suppress(Exception):
                await job_runs.release(database, LEASE, holder)
