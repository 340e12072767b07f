"""The seed's media assets: every seeded stream plays through an asset of its own event.

The catalogue is built with URLs naming the shipped samples (`/media/live/football.m3u8`);
`own_assets` gives each such URL an asset row (an id stable across runs, like every seeded row)
and rewrites the URL to name it. A highlight's asset is a range of its game's asset. `link`
then makes the assets' directories (server.media.assets.store): links to the samples' bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from ..media.assets import records
from ..media.assets.model import HIGHLIGHT, READY, SAMPLE
from ..media.assets.store import MediaStore
from ..media.delivery.reach import stream_of
from ..media.delivery.urls import MEDIA_PREFIX
from ..media.sources import samples
from ..models import Event
from .fixtures import stable_id

STREAM_COLUMNS = ("hls_stream", "pano_stream")
RANGE_TYPES = ("highlight", "clip")  # seeded highlights and clips: ranges of their game


def own_stream(url: str | None) -> tuple[str, str] | None:
    """(stored media path, stream) of a /media/ URL of this server, else None."""
    if not url or urlsplit(url).scheme:
        return None
    path = urlsplit(url).path
    if not path.startswith(f"{MEDIA_PREFIX}/"):
        return None
    media_path = path[len(MEDIA_PREFIX) + 1 :]
    stream = stream_of(media_path)
    return (media_path, stream) if stream else None


def renamed(url: str, asset_id: str) -> str:
    """A stored /media/ URL of one stream naming `asset_id` instead."""
    parts = urlsplit(url)
    own = own_stream(url)
    assert own is not None, url
    media_path, stream = own
    if media_path.startswith("live/"):
        path = f"{MEDIA_PREFIX}/live/{asset_id}.m3u8"
    else:
        path = f"{MEDIA_PREFIX}/vod/{asset_id}/{media_path[len('vod/') + len(stream) + 1 :]}"
    return urlunsplit(("", "", path, parts.query, ""))


def asset_id(external_id: str, column: str) -> str:
    return stable_id("asset", f"{external_id}:{column}")


def own_assets(events: list[dict], now: datetime) -> list[dict]:
    """Asset rows for the sample URLs of `events` (games before their highlights), whose URLs are
    rewritten in place to name them."""
    rows: list[dict] = []
    by_event: dict[str, str] = {}  # event id -> its main stream's asset
    for event in events:
        for column in STREAM_COLUMNS:
            own = own_stream(event.get(column))
            if own is None:
                continue
            row = {
                "id": asset_id(event["external_id"], column),
                "kind": SAMPLE,
                "event_id": event["id"],
                "state": READY,
                "sample": own[1],
                "parent_id": None,
                "start_ms": None,
                "end_ms": None,
                "created": now,
                "updated": now,
            }
            parent = by_event.get(event.get("parent_event_id") or "")
            if column == "hls_stream" and event["media_type"] in RANGE_TYPES and parent is not None:
                row.update(
                    kind=HIGHLIGHT, parent_id=parent, start_ms=event["start_time_ms"], end_ms=event["end_time_ms"]
                )
            rows.append(row)
            event[column] = renamed(event[column], row["id"])
            if column == "hls_stream":
                by_event[event["id"]] = row["id"]
    return rows


def link(store: MediaStore, samples_dir: Path, rows: Iterable[dict]) -> None:
    """Make the directories of seeded asset rows: samples first, then the ranges of them."""
    rows = list(rows)
    for sample in sorted({row["sample"] for row in rows if row["sample"]}):
        samples.provide(store, samples_dir, sample)
    for row in rows:
        if row["parent_id"] is None:
            store.link_sample(row["id"], row["sample"])
    for row in rows:
        if row["parent_id"] is not None:
            store.link_to(row["id"], row["parent_id"])


def give_sample_assets(db: Session | AsyncSession, store: MediaStore, samples_dir: Path, event: Event) -> int:
    """Each stream of `event` naming a shipped sample (`/media/live/football.m3u8`) gets a new
    asset of the event playing it, and names that asset instead. Returns how many did; other
    addresses are left as they are (the caller decides what they may name)."""
    shipped = samples.sample_names(Path(samples_dir))
    given = 0
    for column in STREAM_COLUMNS:
        url = getattr(event, column)
        own = own_stream(url)
        if url is None or own is None or own[1] not in shipped:
            continue
        asset = records.new_sample_asset(db, store, samples_dir, event_id=event.id, sample=own[1])
        setattr(event, column, renamed(url, asset.id))
        given += 1
    return given


async def adopt_sample_streams(db: AsyncSession, store: MediaStore, samples_dir: Path) -> int:
    """Events stored before assets existed name a shipped sample directly
    (`/media/live/football.m3u8`), which no longer plays: give each such stream an asset of its
    event, as staff changes do now. Returns how many streams were adopted; commits."""
    like = [getattr(Event, column).like(f"{MEDIA_PREFIX}/%") for column in STREAM_COLUMNS]
    events = (await db.scalars(select(Event).where(or_(*like)))).all()
    adopted = sum(give_sample_assets(db, store, samples_dir, event) for event in events)
    await db.commit()
    return adopted
