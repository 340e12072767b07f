"""Analytics events are kept TOUCHLINE_ANALYTICS_RETENTION_DAYS after they arrived, then deleted.

The analytics-retention job (server.jobs, one process of a cluster at a time) calls
`delete_expired`. It deletes in batches of DELETE_BATCH rows, each its own short transaction, so a
large backlog never holds a long lock on the table (or SQLite's one writer) while the site serves.
Rows are chosen by `received`, the server's clock (`occurred` is the browser's, anyone's to set).
"""

from datetime import timedelta

from .. import clock
from ..db import Database
from ..models import AnalyticsEvent
from ..settings import Settings
from .retention import delete_older_than

DELETE_BATCH = 2000


async def delete_expired(database: Database, settings: Settings, *, batch: int = DELETE_BATCH) -> int:
    """Delete every event received more than the retention ago; answers how many."""
    cutoff = clock.now() - timedelta(days=settings.analytics_retention_days)
    return await delete_older_than(database, AnalyticsEvent.received, cutoff, batch=batch)
