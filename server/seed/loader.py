"""Write the demo catalogue into a database: idempotent, SQLite and PostgreSQL alike.

Every seeded row has an id derived from its slug or external id (see catalogue.py), so a re-run
finds its own rows by primary key: missing rows are inserted, existing ones updated in place
(which re-times the catalogue to the new `now`: something is live again) and nothing is
duplicated. No marker table is needed. Rows the seed does not know (user data, bulk events)
are left alone. `reset=True` first deletes every catalogue row, seeded or not.

Only portable SQLAlchemy Core is used (SELECT ... IN, executemany INSERT/UPDATE): no ON
CONFLICT, which differs between dialects. The work runs on a sync Connection so the async
loader and the sync bulk filler share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Table, and_, bindparam, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from ..media.assets.store import MediaStore
from ..media.delivery.urls import DEFAULT_VAST_URL
from ..models import (
    EpgProgramme,
    Event,
    EventIdentity,
    EventStats,
    Identity,
    IdentityParent,
    MediaAsset,
    Tag,
    Team,
    TeamIdentity,
)
from . import assets
from .catalogue import SeedData, build_catalogue, table_of
from .fixtures import CatalogueSpec

BATCH = 1000
# Children before parents: the order to delete in. Tags hang off events: deleting every event
# takes every tag with it (the foreign key cascades); deleting them first also says how many.
CATALOGUE_TABLES: tuple[Table, ...] = tuple(
    table_of(m)
    for m in (
        Tag,
        EpgProgramme,
        EventStats,
        EventIdentity,
        MediaAsset,
        Event,
        TeamIdentity,
        Team,
        IdentityParent,
        Identity,
    )
)


@dataclass
class SeedReport:
    now: datetime
    inserted: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    adopted: int = 0  # streams stored before assets existed, given one (server.seed.assets)

    @property
    def total_inserted(self) -> int:
        return sum(self.inserted.values())

    @property
    def was_seeded_before(self) -> bool:
        """True when every seeded row already existed (a re-run)."""
        return self.total_inserted == 0

    def summary(self) -> str:
        parts = [f"{name}: +{self.inserted.get(name, 0)} ~{self.updated.get(name, 0)}" for name in self.inserted]
        if self.adopted:
            parts.append(f"streams given an asset of their event: {self.adopted}")
        return "; ".join(parts)


def _chunks(rows: list, size: int = BATCH):
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def _existing_keys(conn: Connection, table: Table, rows: list[dict]) -> set[tuple]:
    """Primary keys of `rows` already in the table (filtered on the first key column, then exactly)."""
    pk = list(table.primary_key.columns)
    wanted = {tuple(row[c.name] for c in pk) for row in rows}
    firsts = sorted({key[0] for key in wanted})
    found: set[tuple] = set()
    for chunk in _chunks(firsts, 500):
        found.update(tuple(r) for r in conn.execute(select(*pk).where(pk[0].in_(chunk))))
    return found & wanted


def upsert(conn: Connection, table: Table, rows: list[dict], *, update_existing: bool = True) -> tuple[int, int]:
    """Insert missing rows, update the others by primary key. Returns (inserted, updated)."""
    if not rows:
        return 0, 0
    pk = list(table.primary_key.columns)
    existing = _existing_keys(conn, table, rows)
    new = [row for row in rows if tuple(row[c.name] for c in pk) not in existing]
    old = [row for row in rows if tuple(row[c.name] for c in pk) in existing]
    for chunk in _chunks(new):
        conn.execute(insert(table), chunk)
    values = [name for name in rows[0] if name not in {c.name for c in pk}]
    if not (update_existing and old and values):
        return len(new), 0
    # Bind names must differ from column names in an executemany UPDATE; types keep JSON/UTC handling.
    stmt = (
        update(table)
        .where(and_(*(c == bindparam(f"k_{c.name}", type_=c.type) for c in pk)))
        .values({name: bindparam(f"v_{name}", type_=table.c[name].type) for name in values})
    )
    for chunk in _chunks(old):
        conn.execute(
            stmt,
            [
                {**{f"k_{c.name}": row[c.name] for c in pk}, **{f"v_{name}": row[name] for name in values}}
                for row in chunk
            ],
        )
    return len(new), len(old)


def reset_catalogue(conn: Connection) -> dict[str, int]:
    """Delete every catalogue row. Highlights go before the games they hang off."""
    deleted: dict[str, int] = {}
    events = table_of(Event)
    for table in CATALOGUE_TABLES:
        count = 0
        if table is events:
            count += conn.execute(delete(events).where(events.c.parent_event_id.is_not(None))).rowcount or 0
        count += conn.execute(delete(table)).rowcount or 0
        deleted[table.name] = count
    return deleted


def write_seed(conn: Connection, data: SeedData, *, reset: bool = False, update_existing: bool = True) -> SeedReport:
    report = SeedReport(data.now)
    if reset:
        report.deleted = reset_catalogue(conn)
    for table, rows in data.tables():
        inserted, updated = upsert(conn, table, rows, update_existing=update_existing)
        report.inserted[table.name] = inserted
        report.updated[table.name] = updated
    return report


async def seed(
    target: Any,
    *,
    now: datetime | None = None,
    reset: bool = False,
    update_existing: bool = True,
    spec: CatalogueSpec | None = None,
    vast_url: str | None = DEFAULT_VAST_URL,
    media: tuple[MediaStore, Path] | None = None,
) -> SeedReport:
    """Seed the demo catalogue in one transaction.

    `target` is an AsyncEngine, an async_sessionmaker, or anything with an `.engine` AsyncEngine
    (server.db.Database). `now` (tz-aware, default: the current time) anchors every date.
    `update_existing=False` only inserts what is missing and leaves existing rows untouched.
    `vast_url` is the ad tag of the games that carry ads (TOUCHLINE_ADS_VAST_URL; empty: none).
    `media` (the store and the samples' directory) gets the directories of the events' assets,
    made before the rows are written (a link nobody names is harmless; a row without its
    directory would not play).
    """
    data = build_catalogue(now, spec, vast_url=vast_url)
    if media is not None:
        assets.link(*media, data.media_assets)
    kwargs = {"reset": reset, "update_existing": update_existing}
    if isinstance(getattr(target, "engine", None), AsyncEngine):
        target = target.engine
    if isinstance(target, AsyncEngine):
        async with target.begin() as conn:
            return await conn.run_sync(write_seed, data, **kwargs)
    if isinstance(target, async_sessionmaker) or callable(target):
        async with target() as db:
            assert isinstance(db, AsyncSession)
            async with db.begin():
                conn = await db.connection()
                return await conn.run_sync(write_seed, data, **kwargs)
    raise TypeError(f"seed() needs an AsyncEngine or an async_sessionmaker, not {type(target).__name__}")
