"""Publishing what was uploaded or recorded (issue 29 §3): as its event's archive, as a highlight
of that event, or as a highlight cut from part of it.

- **Archive.** The asset's event becomes `archived` and plays all of it (`/media/vod/<asset>/
  index.m3u8`), with its duration and its poster. A live event's archive is its recording: it
  is finished, not attached.
- **A highlight of it** (`highlight`, `recap`, `condensed`, `clip`: spec §3's kinds) is an event
  of its own, as the seed makes them: free, its parent the asset's event, the parent's teams,
  league and sport, published now. It plays through an asset of its own that shares the bytes
  (server.media.assets.store.link_to), so its stream token opens it and not the parent.
- **A cut** is such a highlight of [from, to) of a recording (live or finished) or an upload.
  Cuts are segment-aligned, playlists only (no re-encoding): the highlight's asset is a range,
  played as `clip-<from>-<to>.m3u8` (server.media.delivery.clips): the whole segments covering
  the range, the player started at `from` (EXT-X-START). So it ends up to one segment (2 s)
  past `to`; exact cuts would re-encode the boundary segments, which a playlist-only cut
  avoids: instant, and nothing more to store. Its token opens those segments only
  (server.media.delivery.reach). Its poster is a frame of its own range.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import ApiError, Conflict, NotFound
from ..media.assets import records
from ..media.assets.model import HIGHLIGHT, LIVE, READY, RECORDING, UPLOAD
from ..media.assets.store import MediaStore
from ..media.delivery.stills import Stills
from ..media.delivery.urls import clip_url, vod_url
from ..media.playlists import MASTER_PLAYLIST
from ..media.recordings import RECORDING_FILE, Recording, RecordingInfo
from ..models import Event, EventIdentity, MediaAsset, Team, new_id
from ..seed.fixtures import slugify
from ..text_rules import control_message, has_control_characters
from .calendar_slots import count_reschedule
from .event_admin import (
    ARCHIVED,
    CHANNEL,
    INVALID_STATUS,
    MAX_DURATION_S,
    Change,
    diff,
    locked_event,
    search_text_of,
    snapshot,
)
from .event_admin import LIVE as LIVE_STATUS
from .events import EventView, load_views
from .media_library import found

ARCHIVE = "archive"
HIGHLIGHT_KINDS = ("highlight", "recap", "condensed", "clip")
ATTACH_AS = (ARCHIVE, *HIGHLIGHT_KINDS)
NOT_READY = "asset_not_ready"
NOT_ATTACHABLE = "asset_not_attachable"
NOT_CUTTABLE = "asset_not_cuttable"
MAX_CUT_MS = 30 * 60 * 1000
TITLE_MAX = 200


@dataclass(frozen=True)
class Library:
    """Where publishing reads and writes: the assets' store and the public stills."""

    store: MediaStore
    stills: Stills


@dataclass(frozen=True)
class Published:
    view: EventView
    # The asset's event changed (an archive attached): what its room is told. None for a new highlight.
    change: Change | None = None


def _invalid(field_name: str, message: str) -> ApiError:
    return ApiError(message, code="validation_error", details=[{"field": field_name, "message": message}])


def _title(value: Any, fallback: str | None) -> str:
    title = (value if isinstance(value, str) else fallback or "").strip()
    if not title:
        raise _invalid("title", "title must not be blank")
    if has_control_characters(title):
        raise _invalid("title", control_message("title"))
    return title[:TITLE_MAX]


def _ready(asset: MediaAsset) -> None:
    if asset.state != READY:
        raise Conflict(f"The asset is not ready to play ({asset.state}): wait for its transcoding job", code=NOT_READY)


async def _view(db: AsyncSession, event: Event) -> EventView:
    return (await load_views(db, [event]))[0]


async def _team(db: AsyncSession, body: Mapping[str, Any], wire: str, fallback: str | None) -> str | None:
    if wire not in body:
        return fallback
    team_id = body[wire]
    if team_id is not None and await db.get(Team, team_id) is None:
        raise NotFound("Team not found", code="team_not_found")
    return team_id


# --- archive -------------------------------------------------------------------------------------


async def attach(
    db: AsyncSession, asset_id: str, body: Mapping[str, Any], *, library: Library, now: datetime
) -> Published:
    """Publish a ready upload or recording as its event's archive or as a new highlight of it
    (MediaAttach); the caller commits."""
    kind = body["as"]
    asset = await found(db, asset_id, for_update=True)
    if asset.kind not in (UPLOAD, RECORDING):
        raise Conflict(
            f"Only an upload or a recording can be published (this asset is a {asset.kind})", code=NOT_ATTACHABLE
        )
    _ready(asset)
    if kind == ARCHIVE:
        if "title" in body:
            raise _invalid("title", "An archive keeps its event's title: title is for a highlight")
        return await _as_archive(db, asset, library=library, now=now)
    parent = await db.get(Event, asset.event_id)
    if parent is None:
        raise NotFound("Event not found", code="event_not_found")
    highlight = await _new_highlight(db, parent, body, kind, _title(body.get("title"), asset.title), now=now)
    own = MediaAsset(id=new_id(), kind=HIGHLIGHT, event_id=highlight.id, state=READY, parent_id=asset.id)
    own.title, own.duration_ms, own.created, own.updated = highlight.title, asset.duration_ms, now, now
    library.store.link_to(own.id, asset.id)
    db.add(own)
    highlight.hls_stream = vod_url(own.id)
    highlight.duration_s = _seconds(asset.duration_ms)
    highlight.end_time_ms = asset.duration_ms
    highlight.poster_h = library.stills.publish(own.id, library.store.directory(asset.id)) or highlight.poster_h
    await db.flush()
    return Published(await _view(db, highlight))


async def _as_archive(db: AsyncSession, asset: MediaAsset, *, library: Library, now: datetime) -> Published:
    event = await locked_event(db, asset.event_id)
    if event.status in (LIVE_STATUS, CHANNEL):
        raise Conflict(
            f"A {event.status} event's archive is its recording: finish it rather than attach one",
            code=INVALID_STATUS,
        )
    before = snapshot(event)
    event.status = ARCHIVED
    event.hls_stream = vod_url(asset.id)
    event.live_feed = None
    if asset.duration_ms is not None:
        event.duration_s = _seconds(asset.duration_ms)
    poster = library.stills.publish(asset.id, library.store.directory(asset.id))
    if poster is not None:
        event.poster_h = poster
    event.updated = now
    await db.flush()
    count_reschedule(before, event)
    return Published(await _view(db, event), Change(event, diff(before, event)))


def _seconds(duration_ms: int | None) -> int | None:
    return None if duration_ms is None else min(max(math.ceil(duration_ms / 1000), 0), MAX_DURATION_S)


# --- highlights ----------------------------------------------------------------------------------


async def _new_highlight(
    db: AsyncSession, parent: Event, body: Mapping[str, Any], kind: str, title: str, *, now: datetime
) -> Event:
    """A catalogue highlight of `parent` (free, published now), without its stream yet."""
    highlight_id = new_id()
    slug = slugify(title)[:40].strip("-")
    event = Event(
        id=highlight_id,
        media_type="clip" if kind == "clip" else "highlight",
        highlight_kind=kind,
        title=title,
        description=None,
        search_text="",
        event_date=now,
        game_start_date=None,
        end_date=None,
        external_id=f"TL-HL-{highlight_id}",
        reference_id=f"ref-{kind}-{slug}-{highlight_id}" if slug else f"ref-{kind}-{highlight_id}",
        sport_type=parent.sport_type,
        event_type=parent.event_type,
        game_type=parent.game_type,
        status="archived" if kind == "clip" else "vod",
        sort_order=0,
        commerce_type="commerce_free_media",
        commerce_modes=[],
        gender=parent.gender,
        regions=list(parent.regions or []),
        available_in_region=parent.available_in_region,
        hls_stream=None,
        pano_stream=None,
        poster_h=parent.poster_h,
        mezzanine_video=None,
        vast_url=None,
        stats_enabled=False,
        data_partner_id=None,
        home_team_id=await _team(db, body, "homeTeamId", parent.home_team_id),
        away_team_id=await _team(db, body, "awayTeamId", parent.away_team_id),
        parent_event_id=parent.id,
        owner_id=None,
        start_time_ms=0,
        end_time_ms=None,
        duration_s=None,
        created=now,
        updated=now,
    )
    event.search_text = await search_text_of(db, event)
    db.add(event)
    await db.flush()
    # The parent's league and category: the highlight shows on their pages as the seed's do.
    for link in await db.scalars(select(EventIdentity).where(EventIdentity.event_id == parent.id)):
        db.add(EventIdentity(event_id=highlight_id, identity_id=link.identity_id, identity_type=link.identity_type))
    return event


# --- cuts ----------------------------------------------------------------------------------------


def recording_of(store: MediaStore, asset_id: str) -> tuple[RecordingInfo, Recording]:
    """The asset's recording as its first (largest) rendition lists it; ValueError without one."""
    directory = store.directory(asset_id)
    try:
        info = RecordingInfo.loads((directory / RECORDING_FILE).read_bytes())
        recording = Recording.parse((directory / info.rendition_names[0] / MASTER_PLAYLIST).read_text())
    except (OSError, KeyError, IndexError) as unreadable:
        raise ValueError(f"no recording: {unreadable}") from None
    return info, recording


def _range(body: Mapping[str, Any], recorded_ms: int) -> tuple[int, int]:
    start, end = body["from"], body["to"]
    for wire, value in (("from", start), ("to", end)):
        if not math.isfinite(value) or value < 0:
            raise _invalid(wire, f"{wire} must be a number of seconds from the asset's start")
    start_ms, end_ms = round(start * 1000), round(end * 1000)
    if end_ms <= start_ms:
        raise _invalid("to", "to must be after from")
    if end_ms - start_ms > MAX_CUT_MS:
        raise _invalid("to", f"A highlight is at most {MAX_CUT_MS // 60_000} minutes long")
    if end_ms > recorded_ms:
        raise _invalid("to", f"to is past the end of what was recorded ({recorded_ms / 1000:g} s)")
    return start_ms, end_ms


async def cut(
    db: AsyncSession, asset_id: str, body: Mapping[str, Any], *, library: Library, now: datetime
) -> Published:
    """A highlight of [from, to) of a recording (live or finished) or an upload (MediaCut); the
    caller commits."""
    asset = await found(db, asset_id)
    if asset.kind not in (LIVE, RECORDING, UPLOAD):
        raise Conflict(f"Only a recording or an upload can be cut (this asset is a {asset.kind})", code=NOT_CUTTABLE)
    if asset.kind != LIVE:
        _ready(asset)
    try:
        info, recording = recording_of(library.store, asset.id)
    except ValueError:
        raise Conflict("Nothing of this asset has been recorded yet", code=NOT_READY) from None
    start_ms, end_ms = _range(body, round(recording.duration * 1000))
    parent = await db.get(Event, asset.event_id)
    if parent is None:
        raise NotFound("Event not found", code="event_not_found")
    kind = body.get("as", "highlight")
    highlight = await _new_highlight(db, parent, body, kind, _title(body.get("title"), None), now=now)
    own = records.new_range_asset(
        db,
        library.store,
        kind=HIGHLIGHT,
        event_id=highlight.id,
        parent=asset,
        start_ms=start_ms,
        end_ms=end_ms,
        now=now,
    )
    own.title, own.duration_ms = highlight.title, end_ms - start_ms
    highlight.hls_stream = clip_url(own.id, start_ms, end_ms)
    highlight.start_time_ms, highlight.end_time_ms = start_ms, end_ms
    highlight.duration_s = _seconds(end_ms - start_ms)
    middle = recording.segments[recording.covering((start_ms + end_ms) // 2, (start_ms + end_ms) // 2 + 1)[0]]
    still = await library.stills.extract(
        own.id, library.store.directory(asset.id) / info.rendition_names[0] / Path(middle.uri).name, 0.0
    )
    highlight.poster_h = still or library.stills.url(asset.id) or highlight.poster_h
    await db.flush()
    return Published(await _view(db, highlight))
