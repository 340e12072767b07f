"""Asset directories no asset names any more, removed (issue 28 §1): a clip deleted by a process
that died before it removed the clip's directory, an event deleted with its assets, a directory
made for a transaction that rolled back (records.py), and the staging entries a link or sample
left half made. Each is removed once it has not changed for ORPHAN_GRACE_SECONDS: a directory is
made before its row commits, and a recording's runs change every few seconds.

A directory another asset's link points at (a clip's recording) stays while that asset does.
Run by one process of a cluster at a time (server.jobs, `media-sweep`)."""

import asyncio
import logging
import time

from sqlalchemy import select

from ...db import Database
from ...models import MediaAsset
from .store import MediaStore

log = logging.getLogger(__name__)

ORPHAN_GRACE_SECONDS = 3600.0
ROWS_PER_QUERY = 500  # below SQLite's bound on a statement's parameters


async def _known(database: Database, names: list[str]) -> set[str]:
    known: set[str] = set()
    async with database.session() as db:
        for start in range(0, len(names), ROWS_PER_QUERY):
            chunk = names[start : start + ROWS_PER_QUERY]
            known.update(await db.scalars(select(MediaAsset.id).where(MediaAsset.id.in_(chunk))))
    return known


def _linked_from(store: MediaStore, kept: set[str]) -> set[str]:
    """The directories the kept assets' links point at."""
    return {target for name in kept if (target := store.link_target(name)) is not None}


async def sweep_orphans(
    database: Database, store: MediaStore, *, now: float | None = None, grace: float = ORPHAN_GRACE_SECONDS
) -> list[str]:
    """Remove the orphans older than `grace`; the names removed."""
    cutoff = (time.time() if now is None else now) - grace
    assets, staged = await asyncio.to_thread(store.entries)
    old = [name for name, changed in assets.items() if changed < cutoff]
    leftovers = [name for name, changed in staged.items() if changed < cutoff]
    if not old and not leftovers:
        return []
    # Every directory kept (named by a row, or too recent to judge) may be a link to an old one.
    kept = await _known(database, list(assets)) | (set(assets) - set(old))
    needed = await asyncio.to_thread(_linked_from, store, kept)
    orphans = [name for name in old if name not in kept and name not in needed]
    for name in orphans:
        await asyncio.to_thread(store.remove, name)
    for name in leftovers:
        await asyncio.to_thread(store.remove_leftover, name)
    if orphans or leftovers:
        log.info("media sweep: %d orphaned asset directories and %d leftovers removed", len(orphans), len(leftovers))
    return orphans + leftovers
