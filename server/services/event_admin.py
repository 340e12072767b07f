"""Staff changes to events: create and edit them, move them through their statuses, switch their
streams, and start upcoming events at kickoff (a background job, server/jobs.py).

The statuses of an event (media_type `event`; highlights and clips are not managed here):

    upcoming --go_live, set_stream, or the kickoff job at event_date--> live --finish--> archived
    channel: always on air; only its stream changes

Any other change of status is refused with 409 `invalid_status`. Going live gives an event
without a stream the live sample of its sport; finishing sets the end date and the duration and
turns this server's live stream (and its panoramic view) into the game-length VOD of the same
asset, `/media/vod/<asset>/game-<duration>.m3u8` (server/media/delivery/clips.py), as the seed data has
them: the video is as long as the game, so its tags and clips lie within it.

Every stream of this server an event stores names a media asset of that event (server.media.assets,
`_own_assets`): a sample's address, given by staff or by the defaults above, becomes a new asset
of the event playing that sample; an address naming another event's asset is refused (409
`asset_of_another_event`), one naming no media at all is a 400.

Each operation reads the event with a row lock (FOR UPDATE on PostgreSQL; on SQLite the write
session holds the database's write lock), so two staff members, or a staff member and the
kickoff job of any server process, changing one event at once are applied one after the other:
the second sees the first's status and, if its transition no longer applies, gets 409.

What changed comes back as a `Change`; the caller announces it once it is committed
(server/realtime/announcements.py `announce_change`), which tells the event's room: `update-event`
with the changed fields, and `event-url-change` when the event went on air with a stream, or the
stream of a live event (or channel) moved. A room reaches everyone who joined it, entitled or not, so these
messages carry the event's stored stream URL (`/media/live/<asset>.m3u8`, or another host's URL),
never a URL signed for one viewer: a stored URL of this server serves nothing by itself, and each
client fetches the event again to get the URL signed for it (server/media/delivery/signing.py).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import delete, exists, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database
from ..errors import ApiError, Conflict, NotFound
from ..instants import parse_instant
from ..media.assets import records
from ..media.assets.model import LIVE as LIVE_ASSET
from ..media.assets.model import READY, RECORDING, UPLOAD, AssetView
from ..media.assets.store import MediaStore, samples_dir, store_of
from ..media.delivery import stream_addresses
from ..media.delivery.clips import MAX_GAME_SECONDS
from ..media.delivery.signing import stream_of
from ..media.delivery.urls import MEDIA_PREFIX, game_url, live_url, vod_url
from ..media.recordings import Recording, finalize
from ..models import Event, EventIdentity, Identity, MediaAsset, StreamKey, Tag, Team, new_id
from ..seed.assets import give_sample_assets
from ..seed.fixtures import load_catalogue, slugify
from ..settings import Settings
from ..text_rules import control_message, has_control_characters
from . import live_alerts, media_jobs
from .calendar_slots import count_reschedule
from .events import EventView, load_views

log = logging.getLogger(__name__)

UPCOMING, LIVE, ARCHIVED, CHANNEL = "upcoming", "live", "archived", "channel"
INVALID_STATUS = "invalid_status"
# The transitions a status change may make (besides keeping the status it has).
TRANSITIONS = {(UPCOMING, LIVE), (LIVE, ARCHIVED)}
DEFAULT_SAMPLE = "football"
MAX_DURATION_S = MAX_GAME_SECONDS  # the contract's bound on `duration`, and the longest game VOD

# Wire name -> column of the plain fields of AdminEventFields.
PLAIN = {
    "title": "title",
    "description": "description",
    "sportType": "sport_type",
    "eventType": "event_type",
    "gameType": "game_type",
    "status": "status",
    "commerce_type": "commerce_type",
    "gender": "gender",
    "event_id": "external_id",
    "reference_id": "reference_id",
    "vidswapId": "data_partner_id",
    "duration": "duration_s",
}
DATES = {"event_date": "event_date", "gameStartDate": "game_start_date", "endDate": "end_date"}
CONTENT = {
    "HLSStream": "hls_stream",
    "PanoStream": "pano_stream",
    "PosterH": "poster_h",
    "MezzanineVideo": "mezzanine_video",
}
STREAMS = ("hls_stream", "pano_stream", "mezzanine_video")
# Columns narrower than the contract lets a value be: longer values are refused with a 400.
COLUMN_LIMITS = {
    "reference_id": 80,
    "game_type": 20,
    "data_partner_id": 40,
    "hls_stream": 500,
    "pano_stream": 500,
    "poster_h": 500,
    "mezzanine_video": 500,
}
# What `update-event` carries (asyncapi UpdateEventPayload): column -> wire name.
ANNOUNCED = {
    "title": "title",
    "description": "description",
    "status": "status",
    "event_date": "event_date",
    "game_start_date": "gameStartDate",
    "end_date": "endDate",
    "sport_type": "sportType",
    "commerce_type": "commerce_type",
}
WATCHED = (
    *ANNOUNCED,
    *CONTENT.values(),
    "home_team_id",
    "away_team_id",
    "external_id",
    "reference_id",
    "event_type",
    "game_type",
    "commerce_modes",
    "gender",
    "data_partner_id",
    "duration_s",
)


@dataclass
class Change:
    """A committed (or about to be) change of one event, and what its room is to be told."""

    event: Event
    fields: dict[str, Any] = field(default_factory=dict)  # update-event fields, wire names
    on_air_at_new_url: bool = False  # event-url-change with the stored HLSStream


# --- helpers -------------------------------------------------------------------------------------


def _invalid(field_name: str, message: str) -> ApiError:
    return ApiError(message, code="validation_error", details=[{"field": field_name, "message": message}])


def parse_time(value: str | None, field_name: str) -> datetime | None:
    """An RFC 3339 date-time of the body as an aware UTC datetime (a value without an offset is UTC)."""
    if value is None:
        return None
    try:
        return parse_instant(value)
    except ValueError:
        raise _invalid(field_name, f"{field_name} must be a date and time like 2026-11-21T18:00:00Z") from None


def wire_time(value: datetime | None) -> str | None:
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z") if value else None


def sample_for(sport_type: str | None) -> str:
    """The sample video that plays for a sport (fixtures/catalogue.yaml, as the seed has it)."""
    try:
        sports = load_catalogue().sports
    except (OSError, ValueError):
        return DEFAULT_SAMPLE
    chosen = next((s for s in sports if s.sport_type == sport_type), None) or (sports[0] if sports else None)
    return chosen.sample if chosen else DEFAULT_SAMPLE


def _own_media_path(url: str | None) -> tuple[str, str] | None:
    """('live' or 'vod', sample) for a stored stream URL of this server (a relative /media/ URL)."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path.startswith(f"{MEDIA_PREFIX}/"):
        return None
    media_path = parts.path[len(MEDIA_PREFIX) + 1 :]
    sample = stream_of(media_path)
    return (media_path.partition("/")[0], sample) if sample else None


def archive_url(sample: str, duration_s: int | None) -> str:
    """The VOD of a finished game of `duration_s` seconds: its sample looped for that long (the
    sample itself when the game lasted no time at all)."""
    if duration_s is not None and duration_s > 0:
        return game_url(sample, min(duration_s, MAX_GAME_SECONDS))
    return vod_url(sample)


def vod_of(url: str | None, sport_type: str | None, duration_s: int | None = None) -> str | None:
    """The stream an event keeps once finished: this server's live sample becomes its game-length
    VOD (`duration_s`); an event without a stream gets its sport's; another host's stream, or a
    VOD already, stays as it is."""
    if not url:
        return archive_url(sample_for(sport_type), duration_s)
    own = _own_media_path(url)
    if own and own[0] == "live":
        return urlunsplit(("", "", archive_url(own[1], duration_s), urlsplit(url).query, ""))
    return url


@dataclass(frozen=True)
class Media:
    """Where assets go (server.media.assets) and where the shipped samples are."""

    store: MediaStore
    samples: Any  # Path

    @classmethod
    def of(cls, settings: Settings) -> Media:
        return cls(store_of(settings), samples_dir(settings))


ASSET_OF_ANOTHER_EVENT = "asset_of_another_event"
ASSET_NOT_READY = "asset_not_ready"  # an upload still transcoding, or whose transcoding failed
STREAM_FIELDS = {"hls_stream": "content.HLSStream", "pano_stream": "content.panoStream"}


async def _own_assets(db: AsyncSession, media: Media, event: Event) -> None:
    """Every stream of this server an event stores names an asset of that event. A stored URL
    naming a shipped sample (`/media/live/football.m3u8`: what staff and the defaults above
    give) gets a new asset of the event playing that sample, and the URL names it instead; a URL
    naming another event's asset, or no media at all, is refused. Another host's URL is kept."""
    give_sample_assets(db, media.store, media.samples, event)
    for column, wire in STREAM_FIELDS.items():
        own = _own_media_path(getattr(event, column))
        if own is None:
            continue
        stream = own[1]
        asset = await records.asset_named(db, stream) if "/" not in stream else None
        if asset is None:
            raise _invalid(wire, f"{wire} names no media of this server (a sample or one of this event's assets)")
        if asset.event_id != event.id:
            raise Conflict(
                f"{wire} names the media of another event: each event plays its own", code=ASSET_OF_ANOTHER_EVENT
            )
        if asset.kind == UPLOAD and asset.state != READY:
            raise Conflict(
                f"{wire} names an upload that is not ready to play ({asset.state}): wait for its transcoding job",
                code=ASSET_NOT_READY,
            )


def snapshot(event: Event) -> dict[str, Any]:
    return {name: getattr(event, name) for name in WATCHED}


def diff(before: Mapping[str, Any], event: Event) -> dict[str, Any]:
    """update-event fields for what changed since `before`."""
    fields: dict[str, Any] = {}
    content: dict[str, Any] = {}
    for column, wire in ANNOUNCED.items():
        if getattr(event, column) != before[column]:
            value = getattr(event, column)
            fields[wire] = wire_time(value) if isinstance(value, datetime) else value
    for wire, column in CONTENT.items():
        if getattr(event, column) != before[column]:
            content[wire] = getattr(event, column)
    if content:
        fields["content"] = content
    return fields


def _touched(before: Mapping[str, Any], event: Event) -> bool:
    return any(getattr(event, name) != value for name, value in before.items())


async def locked_event(db: AsyncSession, event_id: str) -> Event:
    event = await db.get(Event, event_id, with_for_update=True, populate_existing=True)
    if event is None or event.media_type != "event":
        raise NotFound("Event not found", code="event_not_found")
    return event


def _refuse_transition(current: str, wanted: str) -> Conflict:
    if wanted == LIVE:
        message = "Only an upcoming event can go live"
    elif wanted == ARCHIVED:
        message = "Only a live event can be finished"
    else:
        return Conflict(f"An event cannot go from {current} to {wanted}", code=INVALID_STATUS)
    return Conflict(f"{message} (this one is {current})", code=INVALID_STATUS)


def _go_live(db: AsyncSession, event: Event, now: datetime, *, stream_given: bool = False) -> None:
    event.status = LIVE
    live_alerts.went_live(db, event, now)  # its followers hear of it once this commits
    if event.hls_stream is None and not stream_given:
        event.hls_stream = live_url(sample_for(event.sport_type))
    if event.game_start_date is None:
        event.game_start_date = now


def _finish(
    event: Event,
    now: datetime,
    *,
    stream_given: bool = False,
    pano_given: bool = False,
    end_given: bool = False,
    duration_given: bool = False,
) -> None:
    event.status = ARCHIVED
    if not end_given:
        event.end_date = now
    if not duration_given:
        start = event.game_start_date or event.event_date
        seconds = int((event.end_date - start).total_seconds()) if event.end_date and start else 0
        event.duration_s = min(max(seconds, 0), MAX_DURATION_S)
    if not stream_given:
        event.hls_stream = vod_of(event.hls_stream, event.sport_type, event.duration_s)
    if event.pano_stream and not pano_given:  # the panoramic view's live loop becomes its VOD too
        event.pano_stream = vod_of(event.pano_stream, event.sport_type, event.duration_s)


def _change_status(db: AsyncSession, event: Event, wanted: str, now: datetime, given: set[str]) -> None:
    current = event.status
    if wanted == current:
        return
    if (current, wanted) not in TRANSITIONS:
        raise _refuse_transition(current, wanted)
    if wanted == LIVE:
        _go_live(db, event, now, stream_given="hls_stream" in given)
    else:
        _finish(
            event,
            now,
            stream_given="hls_stream" in given,
            pano_given="pano_stream" in given,
            end_given="end_date" in given,
            duration_given="duration_s" in given,
        )


# --- reading the body ----------------------------------------------------------------------------


def columns_of(body: Mapping[str, Any], *, allow_private_urls: bool = False) -> dict[str, Any]:
    """AdminEventFields (wire names) as column values; refuses what the columns cannot hold, and
    addresses viewers' browsers must not be sent to (server/media/delivery/stream_addresses.py)."""
    values: dict[str, Any] = {}
    for wire, column in PLAIN.items():
        if wire in body:
            values[column] = body[wire]
    for wire, column in DATES.items():
        if wire in body:
            values[column] = parse_time(body[wire], wire)
    if "event_date" in values and values["event_date"] is None:
        raise _invalid("event_date", "event_date cannot be null")
    if "commerceType" in body:
        values["commerce_modes"] = list(body["commerceType"])
    for wire, column in CONTENT.items():
        if wire in (body.get("content") or {}):
            values[column] = body["content"][wire]
            why = stream_addresses.refusal(values[column], allow_private=allow_private_urls) if values[column] else None
            if why is not None:
                raise _invalid(f"content.{wire}", f"content.{wire} {why}")
    # content.EPG is not stored: a channel's guide is always /api/event/epg/{id}.
    for column in ("homeTeamId", "awayTeamId"):
        if column in body:
            values["home_team_id" if column == "homeTeamId" else "away_team_id"] = body[column]
    if "title" in values and not values["title"].strip():
        raise _invalid("title", "title cannot be blank")
    for column, value in values.items():
        if not isinstance(value, str):
            continue
        where = _wire_name(column)
        # Never meant, and PostgreSQL cannot store NUL at all; a description may have line breaks.
        if has_control_characters(value, free_text=column == "description"):
            raise _invalid(where, control_message(where))
        limit = COLUMN_LIMITS.get(column)
        if limit is not None and len(value) > limit:
            raise _invalid(where, f"{where} is longer than {limit} characters")
    return values


def _wire_name(column: str) -> str:
    for wire, name in PLAIN.items():
        if name == column:
            return wire
    for wire, name in CONTENT.items():
        if name == column:
            return f"content.{wire}"
    return column


async def _check_references(
    db: AsyncSession, event: Event, values: Mapping[str, Any], identity_ids: list[str] | None
) -> list[Identity] | None:
    home = values.get("home_team_id", event.home_team_id)
    away = values.get("away_team_id", event.away_team_id)
    if home is not None and home == away:
        raise _invalid("awayTeamId", "homeTeamId and awayTeamId must be different teams")
    for column in ("home_team_id", "away_team_id"):
        team_id = values.get(column)
        if team_id is not None and await db.get(Team, team_id) is None:
            raise NotFound("Team not found", code="team_not_found")
    identities = None
    if identity_ids is not None:
        found = (
            {i.id: i for i in await db.scalars(select(Identity).where(Identity.id.in_(identity_ids)))}
            if identity_ids
            else {}
        )
        if len(found) != len(set(identity_ids)):
            raise NotFound("Identity not found", code="identity_not_found")
        identities = [found[i] for i in identity_ids]
    for column, wire in (("external_id", "event_id"), ("reference_id", "reference_id")):
        value = values.get(column)
        if value is None or value == getattr(event, column, None):
            continue
        taken = await db.scalar(select(Event.id).where(getattr(Event, column) == value, Event.id != event.id))
        if taken is not None:
            raise Conflict(f"Another event has this {wire}", code="conflict")
    start, end = values.get("event_date", event.event_date), values.get("end_date", event.end_date)
    if start is not None and end is not None and end < start:
        raise _invalid("endDate", "endDate cannot be before event_date")
    return identities


async def search_text_of(db: AsyncSession, event: Event) -> str:
    parts = [event.title]
    for team_id in (event.home_team_id, event.away_team_id):
        team = await db.get(Team, team_id) if team_id else None
        if team is not None:
            parts.append(f"{team.name} {team.short_name}")
    return " ".join(parts).lower()


def _link(db: AsyncSession, event: Event, identities: list[Identity]) -> None:
    for identity in identities:
        db.add(EventIdentity(event_id=event.id, identity_id=identity.id, identity_type=identity.media_type))


async def _commit(db: AsyncSession) -> None:
    try:
        await db.commit()
    except IntegrityError:  # an event_id or reference_id taken after the check above
        await db.rollback()
        raise Conflict("Another event has this event_id or reference_id", code="conflict") from None


async def _view(db: AsyncSession, event: Event) -> EventView:
    return (await load_views(db, [event]))[0]


# --- operations ----------------------------------------------------------------------------------


async def create(
    db: AsyncSession,
    body: Mapping[str, Any],
    now: datetime | None = None,
    *,
    media: Media,
    allow_private_urls: bool = False,
) -> EventView:
    """A new event from AdminEventCreate; `event_id` and `reference_id` are generated when omitted."""
    now = now or clock.now()
    values = columns_of(body, allow_private_urls=allow_private_urls)
    event = Event(
        id=new_id(),
        media_type="event",
        created=now,
        updated=now,
        sort_order=0,
        available_in_region=True,
        regions=[],
        stats_enabled=False,
        event_type="game",
        game_type="game",
        status=UPCOMING,
        commerce_type="commerce_free_media",
        commerce_modes=[],
        game_start_date=None,
        end_date=None,
        hls_stream=None,
        pano_stream=None,
        poster_h=None,
        mezzanine_video=None,
        description=None,
        gender=None,
        data_partner_id=None,
        home_team_id=None,
        away_team_id=None,
        duration_s=None,
        search_text="",
    )
    identities = await _check_references(db, event, values, list(body["identities"]) if "identities" in body else None)
    for column, value in values.items():
        setattr(event, column, value)
    if not event.external_id:
        event.external_id = f"TL-EV-{event.id}"
    if not event.reference_id:
        slug = slugify(event.title)[:50].strip("-")
        event.reference_id = f"ref-{slug}-{event.id}" if slug else f"ref-{event.id}"
    if event.hls_stream is None and "hls_stream" not in values:
        # What the seed gives events of that status: the sport's live sample, or its VOD.
        if event.status in (LIVE, CHANNEL):
            event.hls_stream = live_url(sample_for(event.sport_type))
        elif event.status == ARCHIVED:
            event.hls_stream = archive_url(sample_for(event.sport_type), event.duration_s)
    if event.status == LIVE and event.game_start_date is None:
        event.game_start_date = min(event.event_date, now)
    event.search_text = await search_text_of(db, event)
    db.add(event)
    await _own_assets(db, media, event)
    _link(db, event, identities or [])
    await _commit(db)
    return await _view(db, event)


async def update(
    db: AsyncSession,
    event_id: str,
    body: Mapping[str, Any],
    now: datetime | None = None,
    *,
    media: Media,
    allow_private_urls: bool = False,
) -> tuple[EventView, Change]:
    """Apply AdminEventUpdate: fields not sent are unchanged. A change of status follows the status
    machine and does what go_live or finish would (fields sent with it win over what they set)."""
    now = now or clock.now()
    values = columns_of(body, allow_private_urls=allow_private_urls)
    event = await locked_event(db, event_id)
    before = snapshot(event)
    identities = await _check_references(db, event, values, list(body["identities"]) if "identities" in body else None)
    wanted = values.pop("status", event.status)
    for column, value in values.items():
        setattr(event, column, value)
    _change_status(db, event, wanted, now, set(values))
    await _own_assets(db, media, event)
    event.search_text = await search_text_of(db, event)
    if identities is not None:
        await db.execute(delete(EventIdentity).where(EventIdentity.event_id == event.id))
        _link(db, event, identities)
    count_reschedule(before, event)
    change = Change(event, diff(before, event), on_air_at_new_url(before, event))
    if _touched(before, event) or identities is not None:
        event.updated = now
    await _commit(db)
    return await _view(db, event), change


def on_air_at_new_url(before: Mapping[str, Any], event: Event) -> bool:
    """Whether to send event-url-change, which tells clients the event is on air at `eventUrl`:
    when it went live with a stream, or a live event's (or channel's) stream moved. A change of
    an upcoming or archived event's stream is told in update-event only."""
    if event.status not in (LIVE, CHANNEL) or not event.hls_stream:
        return False
    return before["status"] not in (LIVE, CHANNEL) or event.hls_stream != before["hls_stream"]


async def go_live(
    db: AsyncSession, event_id: str, now: datetime | None = None, *, media: Media
) -> tuple[EventView, Change]:
    now = now or clock.now()
    event = await locked_event(db, event_id)
    if event.status != UPCOMING:
        raise _refuse_transition(event.status, LIVE)
    before = snapshot(event)
    # A feed staff previewed goes on air (server.services.live_feeds).
    recording = await records.recording_in_progress(db, event.id)
    if recording is not None:
        event.hls_stream = live_url(recording.id)
        recording.state, recording.updated = "live", now
    _go_live(db, event, now)
    await _own_assets(db, media, event)
    event.updated = now
    count_reschedule(before, event)
    change = Change(event, diff(before, event), on_air_at_new_url(before, event))
    await db.commit()
    return await _view(db, event), change


async def _close_recording(db: AsyncSession, media: Media, event: Event, now: datetime) -> MediaAsset | None:
    """When the event plays its live input's recording, that recording becomes its archive: the
    playlists are closed as VOD (server.media.recordings.finalize), the event's stream is its VOD
    and its duration the recording's. None when it plays anything else (or nothing was recorded)."""
    own = _own_media_path(event.hls_stream)
    asset = await records.asset_named(db, own[1]) if own and own[0] == "live" and "/" not in own[1] else None
    if asset is None or asset.kind != LIVE_ASSET or asset.event_id != event.id:
        return None
    try:
        recording = finalize(media.store.directory(asset.id))
    except (OSError, ValueError) as nothing:
        log.warning("event %s finishes without its recording %s: %s", event.id, asset.id, nothing)
        return None
    event.hls_stream = vod_url(asset.id)
    event.duration_s = min(max(round(recording.duration), 0), MAX_DURATION_S)
    asset.kind, asset.state, asset.updated = RECORDING, READY, now
    asset.duration_ms = round(recording.duration * 1000)
    media_jobs.queue_previews(db, asset)  # the archive gets a poster and thumbnails, as uploads do
    event.live_feed = None
    if recording.started_at is not None:
        await _keep_positions(db, event, recording)
    return asset


async def _keep_positions(db: AsyncSession, event: Event, recording: Recording) -> None:
    """Tags and viewers' clips made during the live lie at ms since the event's start (its
    `game_start_date`, on the wall clock: server.services.tags); in the archive each is at its
    offset in the recording, which leaves out the time an encoder was away, so a tag at minute
    37 of what viewers saw is at minute 37 of the archive."""
    origin = (event.game_start_date or event.event_date).timestamp()

    def moved(ms: int | None) -> int | None:
        return None if ms is None else recording.offset_ms(origin + ms / 1000)

    for tag in await db.scalars(select(Tag).where(Tag.target_id == event.id)):
        tag.start_ms, tag.end_ms = moved(tag.start_ms), moved(tag.end_ms)
    clips = await db.scalars(select(Event).where(Event.parent_event_id == event.id, Event.owner_id.is_not(None)))
    for clip in clips:
        clip.start_time_ms, clip.end_time_ms = moved(clip.start_time_ms), moved(clip.end_time_ms)


async def finish(
    db: AsyncSession, event_id: str, now: datetime | None = None, *, media: Media
) -> tuple[EventView, Change]:
    now = now or clock.now()
    event = await locked_event(db, event_id)
    if event.status != LIVE:
        raise _refuse_transition(event.status, ARCHIVED)
    before = snapshot(event)
    archive = await _close_recording(db, media, event, now)
    _finish(event, now, stream_given=archive is not None, duration_given=archive is not None)
    await _own_assets(db, media, event)
    event.updated = now
    count_reschedule(before, event)
    change = Change(event, diff(before, event))
    await db.commit()
    return await _view(db, event), change


async def set_stream(
    db: AsyncSession,
    event_id: str,
    url: str,
    now: datetime | None = None,
    *,
    media: Media,
    allow_private_urls: bool = False,
) -> tuple[EventView, Change]:
    """Switch the stream of a live, upcoming (which goes live) or channel event; archived: 409."""
    now = now or clock.now()
    values = columns_of({"content": {"HLSStream": url}}, allow_private_urls=allow_private_urls)
    event = await locked_event(db, event_id)
    if event.status not in (UPCOMING, LIVE, CHANNEL):
        raise Conflict(
            f"An archived event's stream cannot be switched (this one is {event.status})", code=INVALID_STATUS
        )
    before = snapshot(event)
    event.hls_stream = values["hls_stream"]
    if event.status == UPCOMING:
        _go_live(db, event, now, stream_given=True)
    await _own_assets(db, media, event)
    event.updated = now
    # The stream travels in event-url-change; update-event tells the rest (an upcoming event went live).
    count_reschedule(before, event)
    fields = diff(before, event)
    fields.pop("content", None)
    change = Change(event, fields, on_air_at_new_url(before, event))
    await db.commit()
    return await _view(db, event), change


async def start_due(database: Database, now: datetime | None = None, *, media: Media, batch: int = 100) -> list[Change]:
    """Upcoming events whose `event_date` has come go live, one transaction each (what the
    kickoff job does), but for those with a stream key: their feed starts them. An event another
    process or a staff member changed meanwhile is left be."""
    now = now or clock.now()
    changes: list[Change] = []
    while True:
        async with database.session() as db:
            due = list(
                await db.scalars(
                    select(Event.id)
                    .where(Event.media_type == "event", Event.status == UPCOMING, Event.event_date <= now)
                    # An event with a stream key goes live when its feed arrives (live_feeds).
                    .where(~exists().where(StreamKey.event_id == Event.id, StreamKey.revoked_at.is_(None)))
                    .order_by(Event.event_date, Event.id)
                    .limit(batch)
                )
            )
        started = 0
        for event_id in due:
            async with database.write_session() as db:
                event = await db.get(Event, event_id, with_for_update=True, populate_existing=True)
                if event is None or event.status != UPCOMING or event.event_date > now:
                    continue
                before = snapshot(event)
                _go_live(db, event, now)
                try:
                    await _own_assets(db, media, event)
                except ApiError as refusal:  # stored before streams were checked: it goes live, unplayable
                    log.warning("kickoff: event %s goes live with a stream it cannot play: %s", event.id, refusal)
                event.updated = now
                count_reschedule(before, event)
                changes.append(Change(event, diff(before, event), on_air_at_new_url(before, event)))
                await db.commit()
                started += 1
        if len(due) < batch or not started:
            return changes


async def assets_of(db: AsyncSession, event_id: str) -> list[AssetView]:
    """The media assets of an event, oldest first (a clip's asset belongs to the clip)."""
    return [records.view_of(asset) for asset in await records.assets_of(db, event_id)]
