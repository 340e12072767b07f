"""One live input's feed (issue 28 §3, §4), run by the process that holds the input's lease
(server.ingest.live_inputs): from the encoder's first frame to the archive.

A feed:
1. opens its event's recording (server.services.live_feeds: a `live` asset, continued when the
   event already has one) and, for a new one, asks nginx what the encoder sends (ffprobe when
   nginx cannot say) and plans the ladder (server.media.packaging.ladder); the plan is kept in
   the recording's `recording.json`, so a reconnected encoder, or another process taking the
   feed over, continues the same renditions;
2. runs one supervised ffmpeg (server.media.packaging.live_hls, .supervisor) pulling the feed
   from nginx-rtmp and writing the ladder into the asset's directory; a crash is restarted within
   3 s and continues the playlists with a discontinuity;
3. once every rendition has a segment, writes the master with what was measured
   (server.media.packaging.measure) and puts the feed on air: the event goes live, switches, or the
   feed is a staff preview (live_feeds.on_air), and the event's room is told;
4. follows the key's publisher as the database has it (`follow`, every round of the live
   inputs): when the encoder leaves, nginx ends ffmpeg's input and ffmpeg closes its last
   segment; the feed is `reconnecting`, and an encoder back within
   TOUCHLINE_INGEST_RECONNECT_SECONDS continues the same recording in a new run; later the feed is
   `interrupted` (the event stays live) until an encoder publishes again;
5. when the event is finished (by any process: the feed looks every WATCH_SECONDS), ffmpeg has
   stopped and the recording is closed as the archive (server.media.recordings.finalize;
   server.services.event_admin.finish did the rest).

Each change of a feed's state is told to staff watching the event's ingest room
(`ingest-state-change`); its `health()` is what staff read (server.services.ingest_health), and
every second it writes what its transcoder says of itself beside the recording, for the other
processes (server.media.packaging.report).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Protocol

from .. import clock
from ..db import Database
from ..media.assets.store import MediaStore
from ..media.packaging import live_previews
from ..media.packaging.ladder import Rendition, Source, plan
from ..media.packaging.live_hls import LiveInput, live_hls_command
from ..media.packaging.live_previews import LivePreviews
from ..media.packaging.measure import Picture, master_playlist, measure
from ..media.packaging.progress import Progress
from ..media.packaging.report import TranscoderReport, write_report
from ..media.packaging.supervisor import Transcoder
from ..media.playlists import MASTER_PLAYLIST
from ..media.recording_tail import tail_of
from ..media.recordings import (
    RECORDING_FILE,
    RUN_PLAYLIST,
    Joiner,
    Recording,
    RecordingInfo,
    finalize,
    write_atomically,
)
from ..media.sources.rtmp import APPLICATION, RtmpIngest
from ..media.sources.rtmp_stat import published_source, until_publishing
from ..models import Event
from ..realtime.announcements import announce_change, announce_ingest_state
from ..services import live_feeds
from ..settings import Settings


class Inputs(Protocol):
    """What a feed uses of its process's live inputs (server.ingest.live_inputs.LiveInputs)."""

    settings: Settings
    database: Database
    rtmp: RtmpIngest
    store: MediaStore
    ffmpeg: str
    ffprobe: str

    async def ended(self, feed: Feed) -> None: ...


log = logging.getLogger(__name__)

WATCH_SECONDS = 1.0
# How soon a new segment is in the joined recording viewers' playlists are cut from.
JOIN_SECONDS = 0.25
PROBE_TIMEOUT_SECONDS = 20.0
# ffmpeg gives up on a feed that sends nothing for this long (then it is started again).
READ_TIMEOUT_US = 10_000_000
# How much of a feed ffmpeg reads before it starts writing (its default: 5 s). What it reads is
# kept, so this delays the first segment rather than losing it; less than an encoder's usual
# keyframe interval (2 s) finds no picture size.
QUICK_START = ("-analyzeduration", "2000000")
# The master is measured again once the recording has this much: first segments understate peaks.
REMEASURE_AFTER_SECONDS = 30.0
# How long ffmpeg may take to finish by itself once its encoder left (nginx ends its input).
DRAIN_SECONDS = 5.0


class ProbeFailed(Exception):
    pass


class Stopped(Exception):
    """The feed stopped before any encoder published: there is nothing to record."""


async def probe(url: str, ffprobe: str = "ffprobe") -> Source:
    """What an encoder sends, from ffprobe. Raises ProbeFailed."""
    process = await asyncio.create_subprocess_exec(
        *(ffprobe, "-v", "error", "-rw_timeout", str(READ_TIMEOUT_US), *QUICK_START),
        *("-print_format", "json", "-show_streams", url),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), PROBE_TIMEOUT_SECONDS)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise ProbeFailed("ffprobe found nothing in time") from None
    if process.returncode != 0:
        raise ProbeFailed(err.decode(errors="replace").strip()[-300:] or f"ffprobe exited {process.returncode}")
    try:
        return Source.from_ffprobe(json.loads(out))
    except ValueError as exc:
        raise ProbeFailed(str(exc)) from exc


@dataclass(frozen=True)
class Health:
    """How a feed is, for staff (issue 28 §5)."""

    event_id: str
    asset_id: str | None
    state: str
    connected: bool
    source: Source | None
    renditions: tuple[str, ...]
    progress: Progress | None
    restarts: int
    reconnects: int
    last_segment_age: float | None


class Feed:
    def __init__(
        self,
        inputs: Inputs,
        event_id: str,
        name: str | None,
        publisher: str | None = None,
        *,
        taken_over: str | None = None,
    ):
        """A feed of `event_id` whose encoder publishes the stream `name` as `publisher` (None:
        no encoder yet, the feed waits for one). `taken_over`: the state of the recording that
        another process ran until it stopped (it continues from there)."""
        self.inputs = inputs
        self.event_id = event_id
        self.name = name
        self.publisher = publisher
        self.asset_id: str | None = None
        self.state = "starting"
        self.source: Source | None = None
        self.info: RecordingInfo | None = None
        self.transcoder: Transcoder | None = None
        self.connected = asyncio.Event()
        self.left_at: float | None = None
        self.reconnects = 0
        self.restarts = 0
        self.stopping = False
        self.finishing = False  # stopped for staff's finish: the event is being archived
        self.abandoned = asyncio.Event()  # another process has the input now: end, changing nothing
        self.done = asyncio.Event()
        self._on_air_at: float | None = None
        self._remeasured = False
        self._stops: set[asyncio.Task] = set()
        self.joined = False  # every rendition has a segment
        if name is not None:
            self.connected.set()
        else:
            self.left_at = time.monotonic()
        if taken_over in (live_feeds.ON_AIR, live_feeds.RECONNECTING, live_feeds.INTERRUPTED) and name is None:
            # On air before, and no encoder now: the grace goes on from here (interrupted stays so).
            self.state, self._on_air_at = taken_over, time.monotonic()
            if taken_over == live_feeds.INTERRUPTED:
                self.left_at = time.monotonic() - inputs.settings.ingest_reconnect_seconds - 1

    # --- the key's publisher, as the database has it -------------------------------------

    def follow(self, publisher: str | None, name: str | None) -> None:
        """The key's publisher now (None: nobody publishes), and its stream's name when known.
        A new publisher while one was connected is a take-over: as a leave and a reconnect."""
        if publisher is None:
            if self.connected.is_set():
                self.unpublished()
            self.publisher = None
            return
        if publisher == self.publisher or name is None:  # the same one, or nginx cannot say yet
            return
        if self.connected.is_set():
            self.unpublished()
        self.publisher = publisher
        self.published(name)

    def published(self, name: str) -> None:
        """An encoder (again) publishes for the event."""
        if not self.connected.is_set():
            self.reconnects += 1
        self.name, self.left_at = name, None
        self.connected.set()

    def unpublished(self) -> None:
        """The encoder left: nginx ends ffmpeg's input (`idle_streams off`), so ffmpeg closes its
        last segment and exits by itself; one that has not within DRAIN_SECONDS is stopped (one
        left waiting on nginx would take the next encoder's stream mid-flight, timestamps
        starting over). The next publish starts a new one, which continues the playlists after a
        discontinuity."""
        self.left_at = time.monotonic()
        self.connected.clear()
        if self.transcoder is not None:
            stopping = asyncio.create_task(self._drain(self.transcoder))
            self._stops.add(stopping)
            stopping.add_done_callback(self._stops.discard)

    @staticmethod
    async def _drain(transcoder: Transcoder) -> None:
        await transcoder.ended(within=DRAIN_SECONDS)
        await transcoder.stop()  # no restart either way

    # --- running ---------------------------------------------------------------------------

    @property
    def directory(self):
        assert self.asset_id is not None
        return self.inputs.store.directory(self.asset_id)

    async def run(self) -> None:
        try:
            await self._open()
            transcoding = asyncio.create_task(self._transcode())
            joining = asyncio.create_task(self._join())
            previewing = asyncio.create_task(self._preview())
            try:
                await self._watch()
            finally:
                await self._stop_transcoder()
                for task in (transcoding, joining, previewing):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
        except ProbeFailed as failure:
            log.warning("live input of event %s: nothing playable arrived (%s)", self.event_id, failure)
        except Stopped:
            pass
        except Exception:
            log.exception("live input of event %s failed", self.event_id)
        finally:
            self.done.set()
            await self.inputs.ended(self)

    async def _open(self) -> None:
        database, store = self.inputs.database, self.inputs.store
        async with database.write_session() as db:
            asset, continued = await live_feeds.open_recording(db, store, self.event_id)
        self.asset_id = asset.id
        info_file = self.directory / RECORDING_FILE
        if continued and info_file.is_file():
            self.info = RecordingInfo.loads(info_file.read_bytes())
            log.info("live input of event %s continues recording %s", self.event_id, asset.id)
            return
        await self.connected.wait()  # a recording nobody described yet: its encoder says what it is
        if self.name is None or self.abandoned.is_set():
            raise Stopped
        asked = time.monotonic()
        self.source = await self._describe()
        log.info("live input of event %s: described in %.1f s", self.event_id, time.monotonic() - asked)
        settings = self.inputs.settings
        self.info = RecordingInfo(
            await self._dvr_seconds(),
            settings.live_segment_seconds,
            tuple(asdict(r) for r in plan(self.source)),
            self.source.has_audio,
        )
        store.make_directory(asset.id)
        write_atomically(info_file, self.info.dumps())
        log.info(
            "live input of event %s records %s: %sx%s at %.3g fps into %s",
            self.event_id,
            asset.id,
            self.source.width,
            self.source.height,
            self.source.fps,
            ", ".join(self.info.rendition_names),
        )

    async def _describe(self) -> Source:
        """What the encoder sends: from nginx, which knows it from the first packets; else from
        ffprobe, whose seconds of reading are seconds the recording misses."""
        assert self.name is not None
        stat_url = self.inputs.rtmp.stat_url
        if stat_url is not None:
            described = await published_source(stat_url, APPLICATION, self.name)
            if described is not None:
                return described
        return await probe(self.inputs.rtmp.pull_url(self.name), self.inputs.ffprobe)

    async def _dvr_seconds(self) -> int:
        async with self.inputs.database.session() as db:
            event = await db.get(Event, self.event_id)
        default = self.inputs.settings.dvr_seconds
        return default if event is None else live_feeds.dvr_seconds_of(event, default)

    def _renditions(self) -> tuple[Rendition, ...]:
        assert self.info is not None
        return tuple(Rendition(**r) for r in self.info.renditions)

    def _command(self) -> list[str]:
        assert self.info is not None and self.name is not None
        source = LiveInput(
            self.inputs.rtmp.pull_url(self.name),
            self.info.has_audio,
            options=("-rw_timeout", str(READ_TIMEOUT_US), *QUICK_START),
        )
        return live_hls_command(
            source,
            self.directory,
            self._renditions(),
            segment_seconds=self.info.segment_seconds,
            run=self._next_run(),
            preset=self.inputs.settings.x264_preset,
            ffmpeg=self.inputs.ffmpeg,
        )

    def _next_run(self) -> int:
        """Each start of ffmpeg records a run of its own after the last that recorded anything."""
        assert self.info is not None
        first = self.directory / self.info.rendition_names[0]
        numbers = [int(m[1]) for p in first.glob("run-*.m3u8") if (m := RUN_PLAYLIST.match(p.name))]
        return max(numbers, default=0) + 1

    async def _transcode(self) -> None:
        """ffmpeg for as long as an encoder may publish: restarted after a crash (the
        supervisor), and after the input ended while the encoder may still come back."""
        while not self.stopping:
            await self.connected.wait()
            if self.stopping:
                return
            # The hook that told of the encoder answers before nginx takes its packets.
            stat_url = self.inputs.rtmp.stat_url
            if stat_url is not None and self.name is not None:
                await until_publishing(stat_url, APPLICATION, self.name)
            self.transcoder = Transcoder(self._command, name=f"ffmpeg (event {self.event_id})")
            await self.transcoder.run()
            self.restarts += self.transcoder.restarts
            self.transcoder.restarts = 0  # counted: health adds only the running one's
            await asyncio.sleep(0.5)  # the input ended: the encoder's hook says whether it left

    async def _join(self) -> None:
        """Each rendition's recording kept joined from its runs, soon after every new segment."""
        assert self.info is not None
        joiner = Joiner(self.directory, self.info.rendition_names)
        while True:
            self.joined = await asyncio.to_thread(joiner.write)
            await asyncio.sleep(JOIN_SECONDS)

    async def _preview(self) -> None:
        """Seek-preview pictures of the rewind window, a few seconds behind the edge
        (server.media.packaging.live_previews), from the smallest rendition."""
        assert self.info is not None
        smallest = self.info.renditions[-1]
        previews = LivePreviews(self.directory, str(smallest["name"]), int(smallest["width"]), int(smallest["height"]))
        while True:
            await asyncio.sleep(live_previews.ROUND_SECONDS)
            try:
                await previews.round()
            except Exception:  # a picture is not worth the feed: the next round tries again
                log.exception("live input of event %s: seek previews failed", self.event_id)

    async def _stop_transcoder(self) -> None:
        self.stopping = True
        self.connected.set()  # lets the loop see it is stopping
        if self.transcoder is not None:
            await self.transcoder.stop()

    async def _watch(self) -> None:
        grace = self.inputs.settings.ingest_reconnect_seconds
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.abandoned.wait(), WATCH_SECONDS)
            if self.abandoned.is_set():
                return
            async with self.inputs.database.session() as db:
                finished = await live_feeds.is_finished(db, self.asset_id or "")
            if finished:
                await self._close()
                return
            if self.stopping:  # stopped for a finish: nothing more until the event is archived
                continue
            self._report()
            if self._on_air_at is None:
                await self._on_air_when_ready()
            elif not self._remeasured and time.monotonic() - self._on_air_at > REMEASURE_AFTER_SECONDS:
                self._remeasured = self._write_master()
            await self._follow_the_encoder(grace)

    def _report(self) -> None:
        """What this transcoder says of itself, for the other processes of a cluster (report.py)."""
        if self.asset_id is None or not self.directory.is_dir():
            return
        health = self.health()
        report = TranscoderReport(health.source, health.progress, health.restarts, health.reconnects, clock.timestamp())
        with contextlib.suppress(OSError):
            write_report(self.directory, report)

    async def _on_air_when_ready(self) -> None:
        if not self.joined or not self._write_master():
            return
        self._on_air_at = time.monotonic()
        first = self._first_segment_at()
        async with self.inputs.database.write_session() as db:
            change = await live_feeds.on_air(
                db,
                self.asset_id or "",
                started_at=first or clock.now(),
                autostart_minutes=self.inputs.settings.ingest_autostart_minutes,
            )
            state = await live_feeds.current_state(db, self.asset_id or "")
        if change is not None:
            await announce_change(change)
        await self._set_state(state or self.state)
        log.info("live input of event %s is on air (%s)", self.event_id, self.state)

    def _first_segment_at(self) -> datetime | None:
        names = self.info.rendition_names if self.info else ()
        try:
            recording = Recording.parse((self.directory / names[0] / MASTER_PLAYLIST).read_text())
        except (OSError, ValueError, IndexError):
            return None
        started = recording.started_at
        return datetime.fromtimestamp(started, UTC) if started is not None else None

    def _write_master(self) -> bool:
        """The master with what each rendition measures so far; False before every rendition
        has a segment."""
        try:
            measured = [measure(self.directory, Picture(r.name, r.width, r.height, r.fps)) for r in self._renditions()]
        except (OSError, ValueError):
            return False
        write_atomically(self.directory / MASTER_PLAYLIST, master_playlist(measured).encode())
        return True

    async def _follow_the_encoder(self, grace: int) -> None:
        """reconnecting while the encoder is away, interrupted past the grace, back on air when
        it returns."""
        if self._on_air_at is None:
            return
        if self.connected.is_set():
            wanted = None if self.state in (live_feeds.PREVIEW, live_feeds.ON_AIR) else "back"
        elif self.left_at is not None and time.monotonic() - self.left_at > grace:
            wanted = live_feeds.INTERRUPTED
        else:
            wanted = live_feeds.RECONNECTING
        if wanted is None or wanted == self.state:
            return
        if wanted == "back":
            self._on_air_at = None  # on air again once its next segments are measured
            return
        if wanted == live_feeds.INTERRUPTED and self.transcoder is not None:
            await self.transcoder.stop()  # nothing to wait for any longer: the next publish starts it
        async with self.inputs.database.write_session() as db:
            change = await live_feeds.set_state(db, self.asset_id or "", wanted)
        if change is not None:  # viewers of the event are told (`liveFeed`)
            await announce_change(change)
        await self._set_state(wanted)
        log.warning("live input of event %s is %s", self.event_id, wanted)

    async def _close(self) -> None:
        """The event is finished: ffmpeg stops and the recording is the archive."""
        await self._stop_transcoder()
        try:
            finalize(self.directory)
        except (OSError, ValueError) as nothing:
            log.warning("recording of event %s could not be closed: %s", self.event_id, nothing)
        await self._set_state("finished")
        log.info("live input of event %s finished: recording %s is its archive", self.event_id, self.asset_id)

    async def _set_state(self, state: str) -> None:
        """Every change of the feed's state goes through here: staff watching the event's ingest
        are told (`ingest-state-change`)."""
        if state == self.state:
            return
        before, self.state = self.state, state
        await announce_ingest_state(self.event_id, state, before, self.asset_id)

    def abandon(self) -> None:
        """End the feed here at its next step, between transactions (run() stops ffmpeg)."""
        self.abandoned.set()
        self.stopping = True
        self.connected.set()  # lets a wait for an encoder see it

    async def stop_for_finish(self) -> None:
        self.finishing = True
        await self._stop_transcoder()

    def health(self) -> Health:
        return Health(
            self.event_id,
            self.asset_id,
            self.state,
            self.connected.is_set(),
            self.source,
            self.info.rendition_names if self.info else (),
            self.transcoder.last_progress if self.transcoder else None,
            self.restarts + (self.transcoder.restarts if self.transcoder else 0),
            self.reconnects,
            self._last_segment_age(),
        )

    def _last_segment_age(self) -> float | None:
        """Seconds since the end of the first rendition's last segment."""
        if self.asset_id is None or not self.info or not self.info.rendition_names:
            return None
        return tail_of(self.directory / self.info.rendition_names[0]).age(clock.timestamp())
