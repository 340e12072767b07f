"""Go-live alerts sent: every follower of an event that went live hears `followed-event-live` in
their user room, and opted-in followers not on its page get a mail (server.services.live_alerts
decides who, exactly once across processes).

The process that put the event on air fans out at once, in a task of its own (`soon`, called by
`announce_change`), so the staff answer or the kickoff job never waits for thousands of
messages; the `live-alerts` job (server.jobs) fans out what is still due after a few seconds."""

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import socketio

from .. import clock
from ..db import Database
from ..services import live_alerts, mail
from ..services.event_admin import wire_time
from ..settings import Settings
from . import census, emitter
from .emitter import Emitter

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Report:
    event_id: str
    told: int
    mailed: int
    seconds: float


class LiveAlerts:
    """This process's fan-outs; `bind` gives it the database, settings and socket it needs."""

    def __init__(self) -> None:
        self._database: Database | None = None
        self._settings: Settings | None = None
        self._sio: socketio.AsyncServer | None = None
        self._tasks: set[asyncio.Task] = set()

    def bind(self, database: Database, settings: Settings, sio: socketio.AsyncServer | None) -> None:
        self._database, self._settings, self._sio = database, settings, sio

    def soon(self, event_id: str) -> None:
        """Fan the event's alert out in the background (nothing when this process is not serving)."""
        if self._database is None:
            return
        task = asyncio.create_task(self._send_logged(event_id), name=f"touchline-live-alert-{event_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_logged(self, event_id: str) -> None:
        try:
            await self.send(event_id)
        except Exception:  # the live-alerts job sends what is still due
            log.exception("go-live alert of event %s: the fan-out failed; the job takes it over", event_id)

    async def send(self, event_id: str, out: Emitter | None = None) -> Report:
        """Tell every follower not told yet; the alert is marked sent once all were looked at."""
        database, settings = self._bound()
        started = time.perf_counter()
        told = mailed = 0
        if not await live_alerts.is_due(database, event_id):
            return Report(event_id, 0, 0, 0.0)
        watching = await census.watching(self._sio, event_id)
        target = out or emitter.default
        now = wire_time(clock.now()) or ""
        after: str | None = ""
        while after is not None:
            batch, after = await live_alerts.claim_batch(database, settings, event_id, after=after, watching=watching)
            for viewer in batch.told:
                payload = {"eventId": event_id, "title": viewer.title, "wentLiveAt": now}
                try:
                    told += await target.emit_followed_event_live(viewer.user_id, payload)
                except Exception:  # one lost toast; the others go on
                    log.exception("could not tell %s that event %s went live", viewer.user_id, event_id)
            mailed += batch.mailed
            await mail.deliver(database, settings, batch.mail_ids)
        await live_alerts.mark_sent(database, event_id)
        report = Report(event_id, told, mailed, time.perf_counter() - started)
        if told or mailed:
            log.info("go-live alert of event %s: %d told, %d mailed in %.2f s", event_id, told, mailed, report.seconds)
        return report

    async def send_unsent(self) -> list[Report]:
        """Alerts still due a few seconds after their event went live (the job's round)."""
        database, _ = self._bound()
        reports = [await self.send(event_id) for event_id in await live_alerts.unsent(database)]
        await live_alerts.purge_sent(database)
        return reports

    def _bound(self) -> tuple[Database, Settings]:
        if self._database is None or self._settings is None:
            raise RuntimeError("go-live alerts are not bound to a database")
        return self._database, self._settings

    async def drain(self) -> None:
        """Wait for the fan-outs under way (tests, and a clean stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
        self._database = self._settings = self._sio = None


default = LiveAlerts()


@contextlib.asynccontextmanager
async def running(database: Database, settings: Settings, sio: socketio.AsyncServer | None) -> AsyncIterator[None]:
    """This process fans out the alerts it decides while the block runs."""
    default.bind(database, settings, sio)
    try:
        yield
    finally:
        await default.stop()
