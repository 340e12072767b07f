"""Timeline tags: tagged moments of an event or clip (spec sections 3, 6 and 7).

Who sees what:
- global tags (`is_global`) are seen by everyone: the official match tags the seed loads and
  the tags of viewers allowed to create global tags (`users.global_tags`, the profile's
  `globalTags -> canCreateGlobalTag`);
- every other tag is private to its author.

Who changes what: a viewer changes and removes only their own tags, and their global ones only
while they may create global tags. Anyone else's tag, official tags included, answers 404
`tag_not_found` as if it did not exist (update), or is left alone (remove).

Times are milliseconds here and in answers; requests send seconds (the handlers convert). A tag
lies within its video: on an archived event or a clip, within the video's length (its
`duration_s`, which an archived game's VOD spans: server.media.delivery.clips; else its clip range, else
the length of what its stored URL plays); on a live event or
a channel, within the time since its kickoff (`game_start_date`, else `event_date`), where its
live stream begins. An upcoming event has nothing to tag yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from sqlalchemy import Select, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import ApiError, Forbidden, NotFound
from ..media.delivery.clips import made
from ..media.delivery.live import load_vod_playlist
from ..media.delivery.urls import MEDIA_PREFIX
from ..models import Event, Tag, Team, User, new_id
from ..settings import Settings
from ..text_rules import control_message, has_control_characters
from . import ratelimit
from .paging import Page, PageQuery, paginate

NO_TITLE = "NO TITLE"
TIME_RANGE = "invalid_time_range"
LIVE_STATUSES = ("live", "channel")
# Column -> the request field it comes from (what `details[].field` names).
WIRE_NAMES = {
    "title": "title",
    "start_ms": "startTime",
    "end_ms": "endTime",
    "type": "type",
    "subtype": "subtype",
    "is_global": "global",
    "player_number": "playerNumber",
    "player_color": "playerColor",
    "team_id": "teamId",
    "mode": "mode",
    "video_type": "videoType",
    "stream_name": "streamName",
}
TEXT_COLUMNS = ("title", "subtype", "player_number")
# Defaults of a new tag for the columns a save request may leave out (the contract's defaults).
DEFAULTS = {
    "title": NO_TITLE,
    "end_ms": None,
    "type": "user",
    "subtype": None,
    "is_global": False,
    "player_number": None,
    "player_color": None,
    "team_id": None,
    "mode": "sync",
    "stream_name": "hd",
}


class TagNotFound(NotFound):
    code = "tag_not_found"

    def __init__(self) -> None:
        super().__init__("Tag not found")


class GlobalTagsNotAllowed(Forbidden):
    code = "global_tags_not_allowed"

    def __init__(self, what: str):
        super().__init__(f"Only viewers allowed to create global tags may {what}")


def _invalid(column: str, message: str, code: str = "validation_error") -> ApiError:
    field = WIRE_NAMES.get(column, column)
    return ApiError(message, code=code, details=[{"field": field, "message": message}])


def save_limit(settings: Settings) -> ratelimit.Limit:
    """Tags one account may save per window."""
    return ratelimit.Limit("tag-save", settings.tag_saves_per_account, settings.tag_save_window)


def to_ms(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds * 1000)


# --- the video a tag lies in ---------------------------------------------------------------------


@dataclass(frozen=True)
class VideoLength:
    """How far into the target a tag may reach: `ms` (None: unknown, no bound beyond the
    contract's), and whether that is the moving edge of a live stream."""

    ms: int | None
    live: bool = False


@lru_cache(maxsize=64)
def _sample_ms(media_root: Path, name: str) -> int | None:
    path = media_root / name / "index.m3u8"
    try:
        return round(load_vod_playlist(path).duration * 1000) if path.is_file() else None
    except (OSError, ValueError):
        return None


def sample_length_ms(media_root: Path, hls_stream: str | None) -> int | None:
    """Length of what a stored VOD URL plays: a game made over a sample
    (`/media/vod/<sample>/game-<seconds>.m3u8`, server.media.delivery.clips) its seconds, a sample
    (`/media/vod/<sample>/index.m3u8`) its own length."""
    prefix = f"{MEDIA_PREFIX}/vod/"
    if not hls_stream or not hls_stream.startswith(prefix):
        return None
    name, _, file = hls_stream[len(prefix) :].rpartition("/")
    if not name or "/" in name or name.startswith("."):
        return None
    game = made(file)
    if game is not None:
        return game.end_ms - game.start_ms
    return _sample_ms(media_root.resolve(), name) if file == "index.m3u8" else None


def video_length(target: Event, now: datetime, media_root: Path) -> VideoLength:
    if target.status in LIVE_STATUSES:
        # The live stream begins at the kickoff (server/media: the playlist never reaches back
        # before it). One put on air before its kickoff has no fixed start, so no bound.
        kickoff = target.game_start_date or target.event_date
        if kickoff > now:
            return VideoLength(None, live=True)
        return VideoLength(int((now - kickoff).total_seconds() * 1000), live=True)
    if target.duration_s:
        return VideoLength(target.duration_s * 1000)
    start, end = target.start_time_ms, target.end_time_ms
    if start is not None and end is not None and end > start:
        return VideoLength(end - start)
    return VideoLength(sample_length_ms(media_root, target.hls_stream))


def _check_times(
    target: Event, start_ms: int | None, end_ms: int | None, sent: Sequence[str], now: datetime, media_root: Path
) -> None:
    """Refuses an end before the start and times beyond the target's video (400
    `invalid_time_range`, naming the field). `sent`: the time columns the request carried."""
    if target.status == "upcoming":
        raise _invalid("targetId", "This event has not started yet: there is nothing to tag", TIME_RANGE)
    if start_ms is not None and end_ms is not None and end_ms < start_ms:
        column = "end_ms" if "end_ms" in sent else "start_ms"
        raise _invalid(column, "endTime must not be before startTime", TIME_RANGE)
    length = video_length(target, now, media_root)
    if length.ms is None:
        return
    for column in ("start_ms", "end_ms"):
        value = start_ms if column == "start_ms" else end_ms
        if column in sent and value is not None and value > length.ms:
            where = (
                f"the live edge ({_seconds(length.ms)} since kickoff)"
                if length.live
                else f"the end of the video ({_seconds(length.ms)})"
            )
            raise _invalid(column, f"{WIRE_NAMES[column]} ({_seconds(value)}) is beyond {where}", TIME_RANGE)


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".") + " s"


# --- reading -------------------------------------------------------------------------------------


async def _target(db: AsyncSession, target_id: str) -> Event:
    target = await db.get(Event, target_id)
    if target is None:
        raise NotFound("Event not found", code="event_not_found")
    return target


def _ordered(stmt: Select[tuple[Tag]]) -> Select[tuple[Tag]]:
    return stmt.order_by(func.coalesce(Tag.start_ms, Tag.time_pts, 0), Tag.id)


async def list_tags(db: AsyncSession, user_id: str, target_id: str, is_global: bool, query: PageQuery) -> Page[Tag]:
    """The target's global tags (official ones and those of viewers allowed to create them), or
    the viewer's own private ones; in timeline order."""
    await _target(db, target_id)
    stmt = select(Tag).where(Tag.target_id == target_id)
    if is_global:
        stmt = stmt.where(Tag.is_global.is_(True))
    else:
        stmt = stmt.where(Tag.is_global.is_(False), Tag.user_id == user_id)
    return await paginate(db, _ordered(stmt), query)


# --- writing -------------------------------------------------------------------------------------


def _clean_text(values: dict) -> dict:
    """Trimmed text; a blank title is the default title and a blank subtype or number is null.
    Control characters are refused: never meant, and PostgreSQL cannot store NUL at all."""
    cleaned = dict(values)
    for column in TEXT_COLUMNS:
        if column not in cleaned or cleaned[column] is None:
            continue
        text = cleaned[column].strip()
        if has_control_characters(text):
            raise _invalid(column, control_message(WIRE_NAMES[column]))
        cleaned[column] = text or (NO_TITLE if column == "title" else None)
    return cleaned


async def _may_create_global(db: AsyncSession, user_id: str) -> bool:
    return bool(await db.scalar(select(User.global_tags).where(User.id == user_id)))


async def _check_team(db: AsyncSession, values: dict) -> None:
    team_id = values.get("team_id")
    if team_id is not None and await db.get(Team, team_id) is None:
        raise _invalid("team_id", "No team has this id")


async def save_tag(
    db: AsyncSession, user_id: str, target_id: str, values: dict, *, media_root: Path, limit: ratelimit.Limit
) -> Tag:
    """A new tag of the viewer on the target; commits. `values`: columns (times in ms) as the
    request gave them. `db` comes from `Database.write_session()`."""
    values = _clean_text(values)
    if values.get("is_global") and not await _may_create_global(db, user_id):
        raise GlobalTagsNotAllowed("save global tags")
    target = await _target(db, target_id)
    now = clock.now()
    row = {**DEFAULTS, **values}
    _check_times(target, row["start_ms"], row["end_ms"], ("start_ms", "end_ms"), now, media_root)
    await _check_team(db, row)
    await ratelimit.hit(db, limit, user_id, commit=False)  # only saves that would succeed count
    tag = Tag(
        id=new_id(),
        target_id=target.id,
        user_id=user_id,
        official=False,
        time_pts=None,
        created=now,
        updated=now,
        **row,
    )
    db.add(tag)
    try:
        await db.flush()
    except IntegrityError:  # the target (or team) was deleted after the checks above
        raise NotFound("Event not found", code="event_not_found") from None
    await db.commit()
    return tag


async def _own_tag(db: AsyncSession, user_id: str, tag_id: str) -> Tag:
    stmt = select(Tag).where(Tag.id == tag_id, Tag.user_id == user_id)
    if db.bind.dialect.name != "sqlite":
        stmt = stmt.with_for_update()
    tag = await db.scalar(stmt)
    if tag is None:
        raise TagNotFound()
    return tag


async def update_tag(db: AsyncSession, user_id: str, tag_id: str, values: dict, *, media_root: Path) -> Tag:
    """Changes the given columns of one of the viewer's tags; commits. Global tags (and making a
    tag global) need the permission to create global tags (403 without it)."""
    tag = await _own_tag(db, user_id, tag_id)
    values = _clean_text(values)
    if (tag.is_global or values.get("is_global")) and not await _may_create_global(db, user_id):
        raise GlobalTagsNotAllowed("change global tags")
    sent = [column for column in ("start_ms", "end_ms") if column in values]
    now = clock.now()
    if sent:
        target = await _target(db, tag.target_id)
        _check_times(
            target, values.get("start_ms", tag.start_ms), values.get("end_ms", tag.end_ms), sent, now, media_root
        )
    await _check_team(db, values)
    for column, value in values.items():
        setattr(tag, column, value)
    tag.updated = now
    try:
        await db.flush()
    except IntegrityError:  # the team was deleted after the check above
        raise _invalid("team_id", "No team has this id") from None
    await db.commit()
    return tag


async def global_targets(db: AsyncSession, ids: Sequence[str]) -> dict[str, list[str]]:
    """Target id -> the listed tags of it that are global (what a removal would announce)."""
    found: dict[str, list[str]] = {}
    if ids:
        for tag_id, target_id in await db.execute(
            select(Tag.id, Tag.target_id).where(Tag.id.in_(list(ids)), Tag.is_global.is_(True))
        ):
            found.setdefault(target_id, []).append(tag_id)
    return found


async def remove_tags(db: AsyncSession, user_id: str, ids: Sequence[str]) -> list[str]:
    """Deletes the listed tags the viewer may change; commits. Ids of absent tags, of other
    viewers' and official tags, and of the viewer's global tags while they may not create global
    tags are ignored. Answers the ids removed, in the order asked."""
    if not ids:
        return []
    mine = [Tag.id.in_(list(ids)), Tag.user_id == user_id]
    if not await _may_create_global(db, user_id):
        mine.append(Tag.is_global.is_(False))
    removable = set(await db.scalars(delete(Tag).where(*mine).returning(Tag.id)))
    await db.commit()
    return [tag_id for tag_id in dict.fromkeys(ids) if tag_id in removable]
