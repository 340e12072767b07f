"""Rows kept for a bounded time: deleted in batches, each its own short transaction, so a
backlog never holds a long lock on a table (or SQLite's one writer) while the site serves."""

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import InstrumentedAttribute

from ..db import Database, rows_changed


async def delete_older_than(database: Database, stamp: InstrumentedAttribute[Any], cutoff: Any, *, batch: int) -> int:
    """Delete the rows of `stamp`'s table whose `stamp` (an instant, or epoch milliseconds) is before
    `cutoff`; answers how many."""
    table = stamp.class_
    deleted = 0
    while True:
        expired = select(table.id).where(stamp < cutoff).limit(batch)
        async with database.write_session() as db:
            result = await db.execute(delete(table).where(table.id.in_(expired.scalar_subquery())))
            await db.commit()
        count = rows_changed(result)
        deleted += count
        if count < batch:
            return deleted
