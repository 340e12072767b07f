"""A channel's programme (EPG) for a time window."""

from datetime import UTC, datetime

from ...services import events as events_service
from ...services import programme as programme_service
from ...services.spoilers import SHOW, Spoilers
from ..http.cache import cached_for_anonymous
from ..http.database import db_read_session
from ..http.envelope import epoch_ms, ok


def _from_ms(ms: int | None) -> datetime | None:
    return datetime.fromtimestamp(ms / 1000, tz=UTC) if ms is not None else None


@cached_for_anonymous
async def get_channel_programme(id_: str, from_: int | None = None, to: int | None = None, spoilers: str = SHOW):
    mode = Spoilers.asked(spoilers)
    start, end = events_service.programme_window(datetime.now(UTC), _from_ms(from_), _from_ms(to))
    async with db_read_session() as db:
        guide = await programme_service.channel_programme(db, id_, start, end)
    entries = [
        {
            "_id": slot.id,
            "title": mode.text(slot.title),
            "description": mode.text(slot.description),
            "startTime": epoch_ms(slot.starts_at),
            "endTime": epoch_ms(slot.ends_at),
            "event_id": slot.related_event_id,
        }
        for slot in guide.slots
    ]
    return ok({"channel": {"_id": guide.channel.id, "title": mode.text(guide.channel.title)}, "entries": entries})
