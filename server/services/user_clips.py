"""The viewer's own clips and highlights (`user_clip`, `user_highlight`): cut from an event they
may watch, and seen, renamed and deleted by them alone.

A user clip is an `events` row with the viewer as `owner_id` and the event it was cut from as
`parent_event_id`. It copies no video: it is a media asset of its own (kind `clip`,
server.media.assets) sharing the parent asset's bytes, and its stream is a playlist of that
timeline's segments between its start and end (server.media.delivery.clips). Its token names the clip's
asset and range alone.
Nobody else sees it: public lists and lookups leave owned rows out (server.services.events), and
an id that is not one of the caller's own clips answers 404 `clip_not_found`, as if it did not
exist. Account deletion erases them (server.services.accounts.ERASURE).

Times. The API speaks of seconds from the start of the parent's stream (stored in ms):
- an archived game's VOD (`game-<seconds>.m3u8`: its sample looped for the game's length,
  server.media.delivery.clips) runs from 0 to its length, the event's `duration_s`; any other VOD stream
  is its sample, from 0 to the sample's duration;
- a live stream begins with its first segment after kickoff (server.media.delivery.live) and can be
  clipped within what its live playlist offers now: from `live_rewind_seconds` before the live
  edge (never before the start) up to the live edge.
A clip lasts more than 0 and at most 10 minutes. Anything else is 400 `invalid_time_range`, with
the offending field in `details`.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..db import rows_changed
from ..errors import ApiError, Forbidden, NotFound
from ..media.assets import records
from ..media.assets.model import CLIP
from ..media.assets.store import store_of
from ..media.delivery.clips import Timeline, load_sample, made
from ..media.delivery.live import ANCHOR
from ..media.delivery.signing import stream_of
from ..media.delivery.urls import MEDIA_PREFIX, clip_url
from ..media.playlists import MASTER_PLAYLIST
from ..media.recordings import RECORDING_FILE, Recording, RecordingInfo
from ..models import Event, EventIdentity, new_id
from ..settings import Settings
from ..text_rules import control_message, has_control_characters
from . import ratelimit
from .access import Viewer, decide
from .events import EventFilters, EventView, Sort, list_events, load_views
from .paging import Page, PageQuery

USER_MEDIA_TYPES = ("user_clip", "user_highlight")
INVALID_TIME = "invalid_time_range"
# The longest clip a viewer may make (the media route makes longer ones: the seed's highlights).
MAX_CLIP_MS = 10 * 60 * 1000
# Clips a viewer may make per window (each one is a row; a viewer clips a match, not a thousand).
CREATE_LIMIT = ratelimit.Limit("user-clip-create", 60, 10 * 60)


@dataclass(frozen=True)
class NewClip:
    event_id: str
    title: str
    start_seconds: float
    end_seconds: float
    media_type: str = "user_clip"


@dataclass(frozen=True)
class StreamSpan:
    """What of a parent's stream can be clipped now: stream times [lowest_ms, highest_ms], and
    where stream time 0 lies on the sample's timeline (server.media.delivery.clips)."""

    stream: str  # the parent's asset
    origin_ms: int
    lowest_ms: int
    highest_ms: int
    live: bool = False
    # A live input's recording being clipped while live: stream times are wall-clock ms since
    # `origin_epoch` (the event's start), placed at their offset in the recording.
    recording: Recording | None = None
    origin_epoch: float = 0.0

    def on_asset(self, ms: int) -> int:
        """Stream time `ms` as a position on the asset's timeline."""
        if self.recording is not None:
            return self.recording.offset_ms(self.origin_epoch + ms / 1000)
        return self.origin_ms + ms


def clip_not_found() -> NotFound:
    return NotFound("Clip not found", code="clip_not_found")


def _refusal(field: str, message: str, code: str = "validation_error") -> ApiError:
    return ApiError(message, code=code, details=[{"field": field, "message": message}])


def _seconds(ms: int) -> str:
    return f"{ms / 1000:g} s"


def clip_title(value: str) -> str:
    """Trimmed; blank titles and control characters (which PostgreSQL may not store) are refused."""
    title = (value or "").strip()
    if not title:
        raise _refusal("title", "title must not be blank")
    if has_control_characters(title):
        raise _refusal("title", control_message("title"))
    return title


def requested_times(start_seconds: float, end_seconds: float) -> tuple[int, int]:
    """The request's times in ms, once they make a clip at all (wherever the stream is)."""
    for field, value in (("startTime", start_seconds), ("endTime", end_seconds)):
        if not math.isfinite(value) or value < 0:
            raise _refusal(field, f"{field} must be a number of seconds from the start of the stream", INVALID_TIME)
    start_ms, end_ms = round(start_seconds * 1000), round(end_seconds * 1000)
    if end_ms <= start_ms:
        raise _refusal("endTime", "endTime must be after startTime", INVALID_TIME)
    if end_ms - start_ms > MAX_CLIP_MS:
        raise _refusal(
            "endTime",
            f"A clip is at most {MAX_CLIP_MS // 60_000} minutes long: endTime must be at most "
            f"{_seconds(start_ms + MAX_CLIP_MS)}",
            INVALID_TIME,
        )
    return start_ms, end_ms


def _media_path(url: str | None, settings: Settings) -> str | None:
    """A stored stream URL as a path under /media/ when this server serves it, else None."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        own = urlsplit(settings.base_url)
        if (parts.scheme, parts.netloc) != (own.scheme, own.netloc):
            return None
    prefix = f"{MEDIA_PREFIX}/"
    return parts.path[len(prefix) :] if parts.path.startswith(prefix) else None


def _epoch_ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


def clippable_span(parent: Event, settings: Settings, now: datetime) -> StreamSpan:
    """The part of the parent's stream that may be clipped at `now`; 400 when there is none."""
    if parent.status == "channel" or parent.event_type == "channel":
        raise _refusal("event_id", "A channel cannot be clipped: clip one of the events it shows")
    media_path = _media_path(parent.hls_stream, settings)
    stream = stream_of(media_path) if media_path else None
    recorded_span = _recording_span(parent, settings, media_path, stream) if media_path and stream else None
    if recorded_span is not None:
        return recorded_span
    vod = load_sample(store_of(settings).root, stream) if stream else None
    if media_path is None or stream is None or vod is None:
        raise _refusal("event_id", "This event has no stream that can be clipped")
    timeline = Timeline.of(vod)
    if not media_path.startswith("live/"):
        game = made(media_path.rpartition("/")[2])
        if game is not None:  # a game (or a range) made over the sample's timeline
            return StreamSpan(stream, game.start_ms, 0, game.end_ms - game.start_ms)
        return StreamSpan(stream, 0, 0, timeline.length_ms)
    # Live: the sample's timeline on the wall clock, as server.media.delivery.live lays it out.
    anchor_ms = round(ANCHOR * 1000)
    kickoff = _epoch_ms(parent.game_start_date or parent.event_date) - anchor_ms
    first = timeline.first_starting_at(max(0, kickoff))
    edge = timeline.segment_at(_epoch_ms(now) - anchor_ms)  # segments finished so far
    if edge <= first:
        raise _refusal("startTime", "This event's stream has not started yet: there is nothing to clip", INVALID_TIME)
    origin = timeline.starts_at(first)
    rewind = timeline.first_starting_at(max(0, timeline.starts_at(edge) - settings.live_rewind_seconds * 1000))
    lowest = max(first, min(rewind, edge - 1))
    return StreamSpan(stream, origin, timeline.starts_at(lowest) - origin, timeline.starts_at(edge) - origin, True)


def _recording_span(parent: Event, settings: Settings, media_path: str, stream: str) -> StreamSpan | None:
    """The span of a live input's recording (server.media.recordings), None for anything else:
    while live, what its rewind window offers, in ms since the event's start; once it is the
    archive, all of it."""
    directory = store_of(settings).root / stream
    try:
        info = RecordingInfo.loads((directory / RECORDING_FILE).read_bytes())
        recording = Recording.parse((directory / info.rendition_names[0] / MASTER_PLAYLIST).read_text())
    except (OSError, ValueError, KeyError, IndexError):
        return None
    if not recording.segments:
        raise _refusal("startTime", "This event's stream has not started yet: there is nothing to clip", INVALID_TIME)
    if not media_path.startswith("live/"):
        return StreamSpan(stream, 0, 0, round(recording.duration * 1000))
    origin = (parent.game_start_date or parent.event_date).timestamp()
    last, first = recording.segments[-1], recording.segments[recording.window_start(info.dvr_seconds)]
    if last.started_at is None or first.started_at is None:
        return None
    highest = round((last.started_at + last.duration - origin) * 1000)
    lowest = max(0, round((first.started_at - origin) * 1000))
    if highest <= lowest:
        raise _refusal("startTime", "This event's stream has not started yet: there is nothing to clip", INVALID_TIME)
    return StreamSpan(stream, 0, lowest, highest, True, recording, origin)


def _within(span: StreamSpan, start_ms: int, end_ms: int) -> None:
    live = span.live
    if start_ms < span.lowest_ms:
        raise _refusal(
            "startTime",
            f"startTime is before what can be clipped now (the live stream goes back to {_seconds(span.lowest_ms)})",
            INVALID_TIME,
        )
    if start_ms >= span.highest_ms:
        where = "the live edge" if live else "the end of the stream"
        raise _refusal("startTime", f"startTime is beyond {where} ({_seconds(span.highest_ms)})", INVALID_TIME)
    if end_ms > span.highest_ms:
        what = (
            f"the live edge is at {_seconds(span.highest_ms)}"
            if live
            else f"the stream is {_seconds(span.highest_ms)} long"
        )
        raise _refusal("endTime", f"endTime is beyond the stream: {what}", INVALID_TIME)


async def create_clip(db: AsyncSession, viewer: Viewer, new: NewClip, *, settings: Settings, now: datetime) -> Event:
    """Cuts a clip of an event the viewer may watch, and commits. `db` is a write session."""
    title = clip_title(new.title)
    start_ms, end_ms = requested_times(new.start_seconds, new.end_seconds)
    parent = await db.scalar(select(Event).where(Event.id == new.event_id, Event.media_type == "event"))
    if parent is None:
        raise NotFound("Event not found", code="event_not_found")
    identity_ids = list(await db.scalars(select(EventIdentity.identity_id).where(EventIdentity.event_id == parent.id)))
    access = decide(
        viewer,
        event_id=parent.id,
        media_type=parent.media_type,
        commerce_type=parent.commerce_type,
        commerce_modes=parent.commerce_modes or (),
        identity_ids=identity_ids,
        regions=parent.regions,
        available_anywhere=parent.available_in_region,
    )
    if not access.available_for_user or viewer.user_id is None:
        raise Forbidden("You can only clip an event you may watch", code="forbidden")
    span = clippable_span(parent, settings, now)
    _within(span, start_ms, end_ms)
    source = await records.asset_named(db, span.stream)
    if source is None or source.event_id != parent.id:
        raise _refusal("event_id", "This event has no stream that can be clipped")
    # Refused attempts roll back with the request: only clips actually made count.
    await ratelimit.hit(db, CREATE_LIMIT, viewer.user_id, commit=False)
    clip_id = new_id()
    cut_from, cut_to = span.on_asset(start_ms), span.on_asset(end_ms)
    # The clip's row first: its asset belongs to it.
    clip = Event(
        id=clip_id,
        media_type=new.media_type,
        title=title,
        description=None,
        search_text="",
        event_date=parent.event_date,
        external_id=f"TL-UC-{clip_id}",
        reference_id=f"ref-user-clip-{clip_id}",
        sport_type=parent.sport_type,
        event_type=parent.event_type,
        game_type=parent.game_type,
        status="archived",
        # The parent's commerce terms: its stream URL is signed as the parent's would be (bound to
        # the viewer unless the parent is free).
        commerce_type=parent.commerce_type,
        commerce_modes=list(parent.commerce_modes or []),
        gender=parent.gender,
        regions=list(parent.regions or []),
        available_in_region=parent.available_in_region,
        hls_stream=None,
        poster_h=parent.poster_h,
        home_team_id=parent.home_team_id,
        away_team_id=parent.away_team_id,
        parent_event_id=parent.id,
        owner_id=viewer.user_id,
        start_time_ms=start_ms,
        end_time_ms=end_ms,
        duration_s=math.ceil((end_ms - start_ms) / 1000),
        created=now,
        updated=now,  # whole seconds it lasts
    )
    db.add(clip)
    await db.flush()
    asset = records.new_range_asset(
        db,
        store_of(settings),
        kind=CLIP,
        event_id=clip_id,
        parent=source,
        start_ms=cut_from,
        end_ms=cut_to,
        now=now,
    )
    clip.hls_stream = clip_url(asset.id, cut_from, cut_to)
    await db.commit()
    return clip


async def own_clip(db: AsyncSession, owner_id: str, clip_id: str) -> Event:
    clip = await db.scalar(
        select(Event).where(Event.id == clip_id, Event.owner_id == owner_id, Event.media_type.in_(USER_MEDIA_TYPES))
    )
    if clip is None:
        raise clip_not_found()
    return clip


async def rename_clip(db: AsyncSession, owner_id: str, clip_id: str, title: str, *, now: datetime) -> Event:
    title = clip_title(title)
    clip = await own_clip(db, owner_id, clip_id)
    clip.title = title
    clip.updated = now
    await db.commit()
    return clip


async def delete_clip(db: AsyncSession, owner_id: str, clip_id: str, *, settings: Settings) -> None:
    """Delete one of the viewer's clips, and its asset's directory (its rows go with the clip's)."""
    assets = [asset.id for asset in await records.assets_of(db, clip_id)]
    result = await db.execute(
        delete(Event)
        .where(Event.id == clip_id, Event.owner_id == owner_id, Event.media_type.in_(USER_MEDIA_TYPES))
        .execution_options(synchronize_session=False)
    )
    if rows_changed(result) == 0:
        raise clip_not_found()
    await db.commit()
    for asset_id in assets:
        store_of(settings).remove(asset_id)


async def list_clips(
    db: AsyncSession,
    owner_id: str,
    *,
    media_types: Sequence[str] = (),
    parent_event_ids: Sequence[str] = (),
    sort: Sort,
    page: PageQuery,
) -> Page[EventView]:
    filters = EventFilters(
        owner_id=owner_id, media_types=tuple(media_types) or USER_MEDIA_TYPES, parent_event_ids=tuple(parent_event_ids)
    )
    return await list_events(db, filters, sort, page)


async def clip_view(db: AsyncSession, clip: Event) -> EventView:
    return (await load_views(db, [clip]))[0]
