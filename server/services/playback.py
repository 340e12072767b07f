"""Playback positions: where each viewer stopped in an archived event or clip.

The player reports at most every ~10 s, on pause and when the page is left; each report is one
upsert of the viewer's (user, video) row, so concurrent reports leave one row with the last one.
"Continue watching" lists the viewer's positions most recently watched first, leaving out what
has barely been started (under NOT_STARTED_SECONDS) or is finished (FINISHED_SHARE of the video
or more). A viewer keeps at most RETENTION positions: the oldest go first.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import ApiError, Conflict, NotFound
from ..models import Event, PlaybackPosition
from .events import EventView, load_views
from .paging import Page, PageQuery, paginate

RETENTION = 200
NOT_STARTED_SECONDS = 10.0
FINISHED_SHARE = 0.95
# Archived games and clips (`archived`), highlights (`vod`): never live, upcoming or channel.
RESUMABLE_STATUSES = ("archived", "vod")

# Most recently watched first; the video id breaks ties so pages never overlap.
_RECENT_FIRST = (PlaybackPosition.updated.desc(), PlaybackPosition.video_id.desc())


@dataclass(frozen=True)
class SavedPosition:
    video_id: str
    position: float
    duration: float
    updated: datetime

    @classmethod
    def of(cls, row: PlaybackPosition) -> "SavedPosition":
        return cls(row.video_id, row.position, row.duration, row.updated)

    @property
    def resumable(self) -> bool:
        return is_resumable(self.position, self.duration)


def is_resumable(position: float, duration: float) -> bool:
    """Started (NOT_STARTED_SECONDS in) and not finished (under FINISHED_SHARE of the video)."""
    return NOT_STARTED_SECONDS <= position < FINISHED_SHARE * duration


def _resumable_clause() -> ColumnElement[bool]:
    return (PlaybackPosition.position >= NOT_STARTED_SECONDS) & (
        PlaybackPosition.position < PlaybackPosition.duration * FINISHED_SHARE
    )


def _invalid(field: str, message: str) -> ApiError:
    return ApiError(message, code="validation_error", details=[{"field": field, "message": message}])


async def save_position(
    db: AsyncSession, user_id: str, video_id: str, *, position: float, duration: float
) -> SavedPosition:
    """Records where the viewer is in the video (replacing what was there) and commits.

    `db` comes from `Database.write_session()`. Raises 400 when the position is past the end, 404
    for an unknown video (or another viewer's clip) and 409 for one that is not archived (live,
    upcoming, channel)."""
    if position > duration:
        raise _invalid("position", "position must not be greater than duration")
    video = (await db.execute(select(Event.owner_id, Event.status).where(Event.id == video_id))).one_or_none()
    if video is None or video.owner_id not in (None, user_id):  # another viewer's clip: as if absent
        raise NotFound("Event not found", code="event_not_found")
    if video.status not in RESUMABLE_STATUSES:
        raise Conflict("Only archived events and clips keep a playback position", code="not_resumable")
    now = clock.now()
    insert = postgresql.insert if db.bind.dialect.name == "postgresql" else sqlite.insert
    values = {"position": position, "duration": duration, "updated": now}
    try:
        await db.execute(
            insert(PlaybackPosition)
            .values(user_id=user_id, video_id=video_id, **values)
            .on_conflict_do_update(index_elements=[PlaybackPosition.user_id, PlaybackPosition.video_id], set_=values)
        )
    except IntegrityError:  # the video was deleted after the check above
        raise NotFound("Event not found", code="event_not_found") from None
    await _keep_newest(db, user_id)
    await db.commit()
    return SavedPosition(video_id, position, duration, now)


async def _keep_newest(db: AsyncSession, user_id: str) -> None:
    """Deletes the viewer's positions older than the RETENTION newest (nothing while fewer)."""
    oldest_kept = (
        select(PlaybackPosition.updated)
        .where(PlaybackPosition.user_id == user_id)
        .order_by(*_RECENT_FIRST)
        .offset(RETENTION - 1)
        .limit(1)
        .scalar_subquery()
    )
    await db.execute(
        delete(PlaybackPosition)
        .where(PlaybackPosition.user_id == user_id, PlaybackPosition.updated < oldest_kept)
        .execution_options(synchronize_session=False)
    )


async def resume_position(db: AsyncSession, user_id: str, video_id: str) -> SavedPosition | None:
    """Where the viewer would resume the video: None when nothing is saved, or it was barely
    started or is finished."""
    row = await db.get(PlaybackPosition, (user_id, video_id))
    if row is None:
        return None
    saved = SavedPosition.of(row)
    return saved if saved.resumable else None


async def continue_watching(db: AsyncSession, user_id: str, query: PageQuery) -> Page[tuple[EventView, SavedPosition]]:
    """The viewer's started, unfinished videos, most recently watched first."""
    stmt = (
        select(Event, PlaybackPosition)
        .join(PlaybackPosition, PlaybackPosition.video_id == Event.id)
        .where(PlaybackPosition.user_id == user_id, _resumable_clause(), Event.status.in_(RESUMABLE_STATUSES))
        .order_by(*_RECENT_FIRST)
    )
    result = await paginate(db, stmt, query, scalars=False)
    rows = list(result.entries)
    views = await load_views(db, [event for event, _ in rows])
    return Page(
        [(view, SavedPosition.of(saved)) for view, (_, saved) in zip(views, rows, strict=True)],
        result.query,
        result.total,
        result.next_exists,
    )


async def remove_position(db: AsyncSession, user_id: str, video_id: str) -> None:
    """Forgets the viewer's position in the video (harmless when there is none) and commits."""
    await db.execute(
        delete(PlaybackPosition).where(PlaybackPosition.user_id == user_id, PlaybackPosition.video_id == video_id)
    )
    await db.commit()
