"""The media library's assets as staff manage them (issue 29 §3, §4): list them, show one with the
events that play it, and delete one.

An asset "is played" by every event whose stored stream (`HLSStream`, the panoramic view) names
it or an asset cut from it (a highlight's or a viewer's clip's, which share its bytes): deleting
it would take those streams off the air. So deleting is refused while any event plays it, unless
staff force it; then each such event's stream is taken off it first (set to none, in the same
transaction, and its poster when that was the asset's still), the assets cut from it go with it,
and a job still making it is cancelled. A live input on air is never deleted here: its feed is
stopped first.

Publishing an asset (as an archive or a highlight) is server.services.media_publishing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import Conflict, NotFound
from ..media.assets import records
from ..media.assets.model import HIGHLIGHT, LIVE, RECORDING, UPLOAD, AssetView
from ..media.delivery.urls import MEDIA_PREFIX
from ..models import Event, MediaAsset, MediaJob
from . import media_jobs
from .calendar_slots import count_reschedule
from .event_admin import Change, diff, snapshot

ASSET_NOT_FOUND = "asset_not_found"
ASSET_IN_USE = "asset_in_use"
ASSET_LIVE = "asset_live"
# What the library lists unless asked for other kinds: what staff uploaded, recorded and cut.
LIBRARY_KINDS = (UPLOAD, RECORDING, HIGHLIGHT)
# The stored stream columns an event may name an asset in.
STREAM_COLUMNS = ("hls_stream", "pano_stream")
# How many events an asset-in-use refusal names before "and N more".
NAMED_IN_REFUSAL = 5


def asset_not_found() -> NotFound:
    return NotFound("No media asset has this id", code=ASSET_NOT_FOUND)


async def found(db: AsyncSession, asset_id: str, *, for_update: bool = False) -> MediaAsset:
    asset = await db.get(MediaAsset, asset_id, with_for_update=for_update)
    if asset is None:
        raise asset_not_found()
    return asset


async def listed(
    db: AsyncSession, *, event_id: str | None = None, kinds: Sequence[str] = (), limit: int = 50
) -> list[AssetView]:
    """Newest first."""
    query = (
        select(MediaAsset)
        .where(MediaAsset.kind.in_(tuple(kinds) or LIBRARY_KINDS))
        .order_by(MediaAsset.created.desc(), MediaAsset.id.desc())
        .limit(limit)
    )
    if event_id is not None:
        query = query.where(MediaAsset.event_id == event_id)
    return [records.view_of(asset) for asset in await db.scalars(query)]


async def cut_from(db: AsyncSession, asset_id: str) -> list[str]:
    """The assets cut from `asset_id`, and from those, and so on (they share its bytes)."""
    found_ids: list[str] = []
    frontier = [asset_id]
    while frontier:
        children = list(await db.scalars(select(MediaAsset.id).where(MediaAsset.parent_id.in_(frontier))))
        children = [child for child in children if child not in found_ids and child != asset_id]
        found_ids.extend(children)
        frontier = children
    return found_ids


def _names_asset(asset_ids: Sequence[str]) -> ColumnElement[bool]:
    """Events whose stored stream names one of `asset_ids`: `/media/vod/<id>/...` or
    `/media/live/<id>.m3u8`, stored as a path or as this server's absolute URL."""
    patterns = []
    for asset_id in asset_ids:
        for column in (Event.hls_stream, Event.pano_stream):
            patterns.append(column.like(f"%{MEDIA_PREFIX}/vod/{asset_id}/%"))
            patterns.append(column.like(f"%{MEDIA_PREFIX}/live/{asset_id}.m3u8%"))
    return or_(*patterns)


async def played_by(db: AsyncSession, asset_ids: Sequence[str], *, for_update: bool = False) -> list[Event]:
    if not asset_ids:
        return []
    query = select(Event).where(_names_asset(asset_ids)).order_by(Event.created, Event.id)
    if for_update:
        query = query.with_for_update()
    return list(await db.scalars(query))


@dataclass(frozen=True)
class AssetDetail:
    asset: AssetView
    played_by: list[str]
    job: media_jobs.JobView | None


async def detail(db: AsyncSession, asset_id: str) -> AssetDetail:
    asset = await found(db, asset_id)
    events = await played_by(db, [asset.id, *await cut_from(db, asset.id)])
    job = await db.scalar(
        select(MediaJob)
        .where(MediaJob.asset_id == asset.id)
        .order_by(MediaJob.created.desc(), MediaJob.id.desc())
        .limit(1)
    )
    return AssetDetail(
        records.view_of(asset), [event.id for event in events], media_jobs.JobView.of(job) if job else None
    )


@dataclass(frozen=True)
class Deleted:
    assets: list[str]  # the asset and those cut from it: their directories and stills go next
    changes: list[Change]  # the events whose stream was taken off (to announce)
    cancelled_jobs: list[str]  # whose uploaded sources go next


def _in_use(events: list[Event]) -> Conflict:
    named = ", ".join(event.id for event in events[:NAMED_IN_REFUSAL])
    more = f" and {len(events) - NAMED_IN_REFUSAL} more" if len(events) > NAMED_IN_REFUSAL else ""
    return Conflict(f"Events play this asset: {named}{more} (delete with force to take it off them)", code=ASSET_IN_USE)


async def delete_asset(db: AsyncSession, asset_id: str, *, force: bool) -> Deleted:
    """Delete an asset's rows (the caller commits, then removes the files). Refused while events
    play it unless `force`; a live input on air always."""
    asset = await found(db, asset_id, for_update=True)
    if asset.kind == LIVE:
        raise Conflict(
            "This is a live input's recording in progress: stop its feed (finish the event or revoke its key) first",
            code=ASSET_LIVE,
        )
    doomed = [asset.id, *await cut_from(db, asset.id)]
    events = await played_by(db, doomed, for_update=True)
    if events and not force:
        raise _in_use(events)
    now = clock.now()
    changes = []
    for event in events:
        before = snapshot(event)
        for column in STREAM_COLUMNS:
            if _names_any(getattr(event, column), doomed):
                setattr(event, column, None)
        if event.poster_h and any(f"{MEDIA_PREFIX}/stills/{asset_id}.jpg" in event.poster_h for asset_id in doomed):
            event.poster_h = None  # the still goes with the asset: cards fall back on the league's
        event.updated = now
        count_reschedule(before, event)
        changes.append(Change(event, diff(before, event)))
    jobs = list(
        await db.scalars(
            select(MediaJob.id).where(MediaJob.asset_id.in_(doomed), MediaJob.state.in_(media_jobs.ACTIVE))
        )
    )
    if jobs:
        await db.execute(
            update(MediaJob)
            .where(MediaJob.id.in_(jobs))
            .values(state=media_jobs.CANCELLED, finished_at=now, lease_until=None, eta_seconds=None)
        )
    # Children first: each names its parent.
    for doomed_id in reversed(doomed):
        row = await db.get(MediaAsset, doomed_id)
        if row is not None:
            await db.delete(row)
            await db.flush()
    return Deleted(doomed, changes, jobs)


def _names_any(url: str | None, asset_ids: Sequence[str]) -> bool:
    value = url or ""
    return any(
        f"{MEDIA_PREFIX}/vod/{asset_id}/" in value or f"{MEDIA_PREFIX}/live/{asset_id}.m3u8" in value
        for asset_id in asset_ids
    )
