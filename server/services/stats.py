"""Stats partner data (vidswap shapes) stored per game."""

from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import NotFound
from ..models import Event, EventStats


async def game_stats(db: AsyncSession, event_id: str, *, score: bool, overview: bool) -> dict:
    event = await db.get(Event, event_id)
    if event is None:
        raise NotFound("Event not found", code="event_not_found")
    stats = await db.get(EventStats, event_id)
    if stats is None or not event.stats_enabled:
        raise NotFound("No stats for this event", code="stats_not_found")
    vidswap: dict = {}
    if score:
        vidswap["game-scores"] = stats.scores
    if overview:
        vidswap["game-overview"] = stats.overview
    return vidswap
