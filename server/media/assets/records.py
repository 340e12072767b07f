"""Asset rows and their directories together: a new asset gets its row and its directory at once.

A directory made for a transaction that then rolls back is left behind, unreferenced: harmless
(a link, or an empty directory) and never served, since no token can name it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from ... import clock
from ...models import MediaAsset, new_id
from .model import LIVE, RANGES, READY, SAMPLE, AssetView
from .store import MediaStore


def new_sample_asset(
    db: Session | AsyncSession,
    store: MediaStore,
    samples_dir: Path,
    *,
    event_id: str,
    sample: str,
    now: datetime | None = None,
) -> MediaAsset:
    """An asset of `event_id` playing the shipped `sample` (a directory of `samples_dir`, which
    the caller found among server.media.sources.samples.sample_names)."""
    store.provide_sample(sample, Path(samples_dir) / sample)
    asset = MediaAsset(id=new_id(), kind=SAMPLE, event_id=event_id, state=READY, sample=sample)
    _stamp(asset, now)
    store.link_sample(asset.id, sample)
    db.add(asset)
    return asset


def new_range_asset(
    db: Session | AsyncSession,
    store: MediaStore,
    *,
    kind: str,
    event_id: str,
    parent: MediaAsset,
    start_ms: int,
    end_ms: int,
    now: datetime | None = None,
) -> MediaAsset:
    """A clip or highlight of `event_id`: [start_ms, end_ms) of `parent`'s timeline."""
    if kind not in RANGES:
        raise ValueError(f"{kind!r} is not a range of another asset")
    asset = MediaAsset(
        id=new_id(),
        kind=kind,
        event_id=event_id,
        state=READY,
        sample=parent.sample,
        parent_id=parent.id,
        start_ms=start_ms,
        end_ms=end_ms,
    )
    _stamp(asset, now)
    store.link_to(asset.id, parent.id)
    db.add(asset)
    return asset


def _stamp(asset: MediaAsset, now: datetime | None) -> None:
    asset.created = asset.updated = now or clock.now()


async def asset_named(db: AsyncSession, asset_id: str) -> MediaAsset | None:
    return await db.get(MediaAsset, asset_id)


async def assets_of(db: AsyncSession, event_id: str) -> Sequence[MediaAsset]:
    return (
        await db.scalars(select(MediaAsset).where(MediaAsset.event_id == event_id).order_by(MediaAsset.created))
    ).all()


async def recording_in_progress(db: AsyncSession, event_id: str) -> MediaAsset | None:
    """The event's live input's recording that is not yet its archive, the newest if several."""
    return await db.scalar(
        select(MediaAsset)
        .where(MediaAsset.event_id == event_id, MediaAsset.kind == LIVE)
        .order_by(MediaAsset.created.desc())
        .limit(1)
    )


def view_of(asset: MediaAsset) -> AssetView:
    return AssetView(
        asset.id,
        asset.kind,
        asset.event_id,
        asset.state,
        asset.sample,
        asset.parent_id,
        asset.start_ms,
        asset.end_ms,
        asset.created,
        asset.title,
        asset.duration_ms,
    )
