"""Channel programme guides (EPG)."""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import ApiError, NotFound
from ..models import EpgProgramme, Event


@dataclass
class Programme:
    channel: Event
    slots: list[EpgProgramme]


async def channel_programme(db: AsyncSession, channel_id: str, start: datetime, end: datetime) -> Programme:
    if start > end:
        raise ApiError("'from' is after 'to'", code="validation_error")
    channel = await db.get(Event, channel_id)
    if channel is None or channel.status != "channel":
        raise NotFound("Channel not found", code="channel_not_found")
    slots = await db.scalars(
        select(EpgProgramme)
        .where(EpgProgramme.channel_id == channel_id, EpgProgramme.ends_at > start, EpgProgramme.starts_at < end)
        .order_by(EpgProgramme.starts_at)
        .limit(500)
    )
    return Programme(channel, list(slots))
