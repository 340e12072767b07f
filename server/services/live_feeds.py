"""What a live input's feed does to its event and its recording asset (issue 28 §4); the process
that transcodes the feed calls these (server/ingest/live_inputs.py).

- A feed records into one `live` asset of its event, a real directory. While the event is not
  finished, a feed that comes back (a reconnect, another encoder on a new key, a restarted
  server) continues the same asset and recording; the transcoder marks the join.
- Once its first segments are measured, the feed is on air:
  - an upcoming event whose kickoff is at most TOUCHLINE_INGEST_AUTOSTART_MINUTES away goes live
    at the recording's live playlist: viewers in its room get `update-event` and
    `event-url-change`, and play without a reload. Staff may choose otherwise per event
    (`ingest_settings`): armed, it goes live at its first segments whenever they come; disarmed,
    its feed stays a preview until go-live;
  - a live event or channel switches to it (`event-url-change`);
  - any other upcoming event keeps its feed as a staff preview until staff press go-live
    (server.services.event_admin takes the recording then).
- The asset's state tells how the feed is: preview, live, reconnecting (the encoder left less
  than TOUCHLINE_INGEST_RECONNECT_SECONDS ago), interrupted (longer); a finished event's recording
  is `ready`, of kind `recording` (server.services.event_admin).
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import NotFound
from ..media.assets import records
from ..media.assets.model import LIVE, RECORDING
from ..media.assets.store import MediaStore
from ..media.delivery.urls import live_url
from ..media.recordings import set_rewind
from ..models import Event, MediaAsset, new_id
from . import live_alerts
from .calendar_slots import count_reschedule
from .event_admin import CHANNEL, UPCOMING, Change, diff, on_air_at_new_url, snapshot
from .event_admin import LIVE as LIVE_STATUS

PREVIEW, ON_AIR, RECONNECTING, INTERRUPTED = "preview", "live", "reconnecting", "interrupted"
FEED_STATES = (PREVIEW, ON_AIR, RECONNECTING, INTERRUPTED)
# Staff finish the event: the process transcoding the feed stops its ffmpeg before the recording
# is closed as the archive (server.ingest.live_inputs.stop_for_finish), and nothing puts it back on air.
FINISHING = "finishing"


async def open_recording(
    db: AsyncSession, store: MediaStore, event_id: str, now: datetime | None = None
) -> tuple[MediaAsset, bool]:
    """(the asset the event's feed records into, whether it continues one). Commits. Refuses
    nothing: the stream key's check (server.services.stream_keys.may_publish) came first."""
    event = await db.get(Event, event_id, with_for_update=True)
    if event is None:
        raise LookupError(f"event {event_id} is gone")
    current = await records.recording_in_progress(db, event_id)
    if current is not None:
        return current, True
    now = now or clock.now()
    asset = MediaAsset(id=new_id(), kind=LIVE, event_id=event_id, state=PREVIEW, created=now, updated=now)
    store.make_directory(asset.id)
    db.add(asset)
    await db.commit()
    return asset, False


def _autostarts(event: Event, now: datetime, autostart_minutes: int) -> bool:
    if event.ingest_autostart is not None:  # staff's choice for this event
        return event.ingest_autostart
    return event.event_date is not None and event.event_date - now <= timedelta(minutes=autostart_minutes)


def dvr_seconds_of(event: Event, default: int) -> int:
    """The rewind window of the event's live recordings: staff's for the event, or the setting."""
    return event.dvr_seconds if event.dvr_seconds is not None else default


async def set_ingest_settings(
    db: AsyncSession,
    event_id: str,
    changes: dict,
    *,
    store: MediaStore,
    dvr_default: int,
    now: datetime | None = None,
) -> Event:
    """Staff's per-event choices for its feed: `autostart` (True, False, or None for the kickoff
    rule) and `dvr_seconds` (None for `dvr_default`, the setting); keys not given are unchanged.
    The rewind window applies to the recording running now (viewers' next playlist) and to later
    ones. Commits."""
    event = await db.get(Event, event_id, with_for_update=True)
    if event is None or event.media_type != "event":
        raise NotFound("Event not found", code="event_not_found")
    if "autostart" in changes:
        event.ingest_autostart = changes["autostart"]
    if "dvr_seconds" in changes:
        event.dvr_seconds = changes["dvr_seconds"]
    event.updated = now or clock.now()
    await db.commit()
    if "dvr_seconds" in changes and (running := await records.recording_in_progress(db, event_id)) is not None:
        await asyncio.to_thread(set_rewind, store.directory(running.id), dvr_seconds_of(event, dvr_default))
    return event


async def on_air(
    db: AsyncSession, asset_id: str, *, started_at: datetime, autostart_minutes: int, now: datetime | None = None
) -> Change | None:
    """The feed's first segments are ready: the event goes live (or switches) to its recording,
    or the feed is a preview. The change to announce, if any. Commits."""
    now = now or clock.now()
    asset = await db.get(MediaAsset, asset_id, with_for_update=True, populate_existing=True)
    if asset is None or asset.kind != LIVE or asset.state == FINISHING:
        return None
    event = await db.get(Event, asset.event_id, with_for_update=True, populate_existing=True)
    if event is None or event.media_type != "event":
        return None
    before = snapshot(event)
    stream = live_url(asset.id)
    if event.status == UPCOMING and _autostarts(event, now, autostart_minutes):
        event.status = LIVE_STATUS
        event.hls_stream = stream
        event.game_start_date = started_at
        live_alerts.went_live(db, event, now)
    elif event.status in (LIVE_STATUS, CHANNEL):
        event.hls_stream = stream
    asset.state = ON_AIR if event.hls_stream == stream else PREVIEW
    asset.updated = now
    change = None
    count_reschedule(before, event)
    fields = diff(before, event)
    if event.live_feed is not None and asset.state == ON_AIR:  # back from a drop
        event.live_feed = None
        fields["liveFeed"] = None
    if fields:
        event.updated = now
        fields.pop("content", None)  # the stream travels in event-url-change
        change = Change(event, fields, on_air_at_new_url(before, event))
    await db.commit()
    return change


async def set_state(db: AsyncSession, asset_id: str, state: str, now: datetime | None = None) -> Change | None:
    """Record how the feed is (reconnecting or interrupted: the feed's own states; on_air puts it
    back on air). When the event plays it, its viewers are told (`liveFeed`): the change to
    announce, if any. Commits."""
    if state not in (RECONNECTING, INTERRUPTED):
        raise ValueError(f"{state!r} is not a state of a feed that left")
    now = now or clock.now()
    asset = await db.get(MediaAsset, asset_id, with_for_update=True, populate_existing=True)
    if asset is None or asset.kind != LIVE or asset.state == FINISHING:
        return None
    asset.state, asset.updated = state, now
    event = await db.get(Event, asset.event_id, with_for_update=True, populate_existing=True)
    change = None
    if event is not None and event.hls_stream == live_url(asset.id) and event.live_feed != state:
        event.live_feed, event.updated = state, now
        change = Change(event, {"liveFeed": state})
    await db.commit()
    return change


async def feeds_in_progress(db: AsyncSession) -> dict[str, tuple[str, str]]:
    """(asset id, state) of each event's live input recording that is not yet its archive: the
    feeds a process of the cluster must own, whether an encoder publishes now or not."""
    rows = await db.execute(
        select(MediaAsset.event_id, MediaAsset.id, MediaAsset.state)
        .join(Event, Event.id == MediaAsset.event_id)
        .where(MediaAsset.kind == LIVE, Event.status != "archived")
        .order_by(MediaAsset.created)
    )
    return {event_id: (asset_id, state) for event_id, asset_id, state in rows if event_id is not None}


async def mark_finishing(db: AsyncSession, event_id: str) -> tuple[str, str] | None:
    """The event's feed on air (or waiting for its encoder) is to stop for the finish: (asset id,
    the state it had), None when there is no such feed (nothing to wait for). Commits."""
    asset = await records.recording_in_progress(db, event_id)
    if asset is None:
        return None
    asset = await db.get(MediaAsset, asset.id, with_for_update=True, populate_existing=True)
    if asset is None or asset.state not in (ON_AIR, RECONNECTING, INTERRUPTED):
        return None
    before, asset.state = asset.state, FINISHING
    await db.commit()
    return asset.id, before


async def unmark_finishing(db: AsyncSession, asset_id: str, state: str) -> None:
    """The finish did not happen: the feed is what it was (a process takes it on again). Commits."""
    asset = await db.get(MediaAsset, asset_id, with_for_update=True, populate_existing=True)
    if asset is not None and asset.kind == LIVE and asset.state == FINISHING:
        asset.state = state
        await db.commit()


async def current_state(db: AsyncSession, asset_id: str) -> str | None:
    asset = await db.get(MediaAsset, asset_id, populate_existing=True)
    return asset.state if asset is not None else None


async def is_finished(db: AsyncSession, asset_id: str) -> bool:
    """Whether the recording is over: its event finished (or gone) or it became the archive."""
    asset = await db.get(MediaAsset, asset_id, populate_existing=True)
    if asset is None or asset.kind == RECORDING:
        return True
    event = await db.get(Event, asset.event_id, populate_existing=True)
    return event is None or event.status == "archived"
