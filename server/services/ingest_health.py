"""How an event's ingest is, for staff (issue 28 §5, `GET /api/admin/events/{id}/ingest`).

The process that runs the event's transcoder (server/ingest/live_inputs.py) knows the most: what the
encoder sends, the encoder speed and frames ffmpeg reports, restarts and reconnects. Any other
process answers from what is shared: the state of the event's newest live input recording (its
asset row), whether an encoder publishes with the event's key, and the recording's files (its
renditions, last segment and bitrate: server.media.recording_tail), and the report the
transcoder writes beside the recording every second (server.media.packaging.report); without a
fresh report the transcoder's own figures are unknown (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import NotFound
from ..media.assets.model import LIVE, RECORDING
from ..media.assets.store import MediaStore
from ..media.packaging.ladder import Source
from ..media.packaging.progress import Progress
from ..media.packaging.report import TranscoderReport, fresh_report
from ..media.recording_tail import NOTHING, tail_of
from ..media.recordings import RECORDING_FILE, RecordingInfo
from ..models import Event, MediaAsset
from . import live_feeds, stream_keys
from .live_feeds import FEED_STATES

IDLE, STARTING, FINISHED = "idle", "starting", "finished"
# starting: an encoder publishes, its first segments are not measured yet (server/ingest/live_inputs.py)
STATES = (IDLE, STARTING, *FEED_STATES, FINISHED)


class FeedReport(Protocol):
    """What this process's feed of the event says of itself (server.ingest.live_inputs.Health)."""

    @property
    def asset_id(self) -> str | None: ...
    @property
    def state(self) -> str: ...
    @property
    def source(self) -> Source | None: ...
    @property
    def renditions(self) -> tuple[str, ...]: ...
    @property
    def progress(self) -> Progress | None: ...
    @property
    def restarts(self) -> int: ...
    @property
    def reconnects(self) -> int: ...
    @property
    def last_segment_age(self) -> float | None: ...


@dataclass(frozen=True)
class IngestHealth:
    event_id: str
    state: str  # one of STATES
    asset_id: str | None
    publishing: bool
    renditions: tuple[str, ...]
    source: Source | None  # known to the process that described the encoder (and told in its report)
    progress: Progress | None  # known to the process that runs the transcoder (and told in its report)
    restarts: int | None
    reconnects: int | None
    last_segment_age: float | None
    bitrate_kbps: float | None  # the top rendition's last segments (server.media.recording_tail)
    transcoder_here: bool  # this process runs the event's transcoder: the figures above are its
    autostart: bool | None  # staff's choice for the event (None: it goes live near kickoff)
    dvr_seconds: int  # the rewind window of the event's recording (running or next)


async def ingest_health(
    db: AsyncSession, event_id: str, *, feed: FeedReport | None, store: MediaStore, now: datetime, dvr_default: int
) -> IngestHealth:
    """The event's ingest now; `feed` is this process's feed of it, if it runs one. Raises
    NotFound (`event_not_found`) for an id that names no event."""
    event = await db.get(Event, event_id)
    if event is None or event.media_type != "event":
        raise NotFound("Event not found", code="event_not_found")
    key = await stream_keys.in_force(db, event_id)
    publishing = key is not None and key.publisher is not None
    report: FeedReport | TranscoderReport | None = feed
    if feed is not None:
        state, asset_id, renditions = _state_of(feed.state), feed.asset_id, feed.renditions
    else:
        asset = await _newest_recording(db, event_id)
        state = IDLE if asset is None else (FINISHED if asset.kind == RECORDING else _state_of(asset.state))
        asset_id = asset.id if asset is not None else None
        renditions = _renditions(store, asset_id)
        if asset_id is not None and state != FINISHED:  # another process transcodes it
            report = fresh_report(store.directory(asset_id), now.timestamp())
    tail = tail_of(store.directory(asset_id) / renditions[0]) if asset_id and renditions else NOTHING
    age = feed.last_segment_age if feed is not None and feed.last_segment_age is not None else tail.age(now.timestamp())
    return IngestHealth(
        event_id,
        state,
        asset_id,
        publishing,
        renditions,
        report.source if report else None,
        report.progress if report else None,
        report.restarts if report else None,
        report.reconnects if report else None,
        age,
        tail.bitrate_kbps,
        feed is not None,
        event.ingest_autostart,
        live_feeds.dvr_seconds_of(event, dvr_default),
    )


def _state_of(state: str) -> str:
    if state == live_feeds.FINISHING:  # staff finished it; its recording is being closed
        return FINISHED
    return state if state in STATES else IDLE


async def _newest_recording(db: AsyncSession, event_id: str) -> MediaAsset | None:
    """The event's newest live input recording, running (`live`) or its archive (`recording`)."""
    return await db.scalar(
        select(MediaAsset)
        .where(MediaAsset.event_id == event_id, MediaAsset.kind.in_((LIVE, RECORDING)))
        .order_by(MediaAsset.created.desc(), MediaAsset.id.desc())
        .limit(1)
    )


def _renditions(store: MediaStore, asset_id: str | None) -> tuple[str, ...]:
    """The recording's renditions as its transcoder planned them (`recording.json`)."""
    if asset_id is None:
        return ()
    try:
        return RecordingInfo.loads((store.directory(asset_id) / RECORDING_FILE).read_bytes()).rendition_names
    except (OSError, ValueError, KeyError, TypeError):
        return ()  # not written yet (the encoder is being probed), or not a recording
