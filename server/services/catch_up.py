"""Catch up, then live (issue 31 §2): a viewer who joins a live match late plays its key plays so
far as one VOD playlist cut from the live stream, then joins the live edge.

Key plays are the event's global tags (official ones, and those staff or the data partner add)
whose subtype is one of its sport's KEY_PLAYS; each plays from its tag's start to its end (a
tag without an end: DEFAULT_LENGTH_MS). Only what the live stream still offers is in it (its
rewind window, up to the live edge: server.services.user_clips.clippable_span); overlapping key
plays play once; at most MAX_KEY_RANGES ranges, the most recent, go in one playlist (its name
holds them: server.media.delivery.urls.KEYS_NAME).

The playlist's address names its ranges, and its token opens that playlist and the segments of
those ranges alone (server.media.delivery.reach), never the rest of the stream.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import ApiError, Conflict
from ..media.delivery.urls import MAX_KEY_RANGES, keys_url
from ..models import Event, Tag
from ..settings import Settings
from .user_clips import StreamSpan, clippable_span

# The tag subtypes whose moments make the catch-up, per sport (the contract lists them).
KEY_PLAYS: dict[str, frozenset[str]] = {
    "football": frozenset({"goal", "own_goal", "penalty", "red_card"}),  # `penalty`: a penalty kick
    "ice-hockey": frozenset({"goal", "penalty_shot"}),  # not `penalty`: a two-minute minor
    "basketball": frozenset({"buzzer_beater", "dunk", "three_pointer", "ejection"}),
    "volleyball": frozenset({"ace", "block", "set_point", "match_point"}),
    "tennis": frozenset({"ace", "break_point", "set_point", "match_point"}),
}
DEFAULT_KEY_PLAYS = frozenset({"goal"})
DEFAULT_LENGTH_MS = 15_000
NO_CATCH_UP = "catch_up_unavailable"


def key_play_kinds(sport_type: str | None) -> frozenset[str]:
    return KEY_PLAYS.get(sport_type or "", DEFAULT_KEY_PLAYS)


@dataclass(frozen=True)
class KeyPlay:
    """One key play: its tag, where it lies in the stream (ms since the event's start) and where
    it begins in the catch-up playlist (seconds, before the segments' rounding)."""

    tag_id: str
    subtype: str
    title: str
    start_ms: int
    end_ms: int
    reel_offset_s: float


@dataclass(frozen=True)
class CatchUp:
    key_plays: list[KeyPlay]
    url: str | None  # the stored playlist address (signed for the viewer by the caller); None: no key play yet
    live_edge_ms: int  # the live edge now, in ms since the event's start


def _merged(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _within(tag: Tag, span: StreamSpan) -> tuple[int, int] | None:
    start = tag.start_ms or 0
    end = tag.end_ms if tag.end_ms is not None and tag.end_ms > start else start + DEFAULT_LENGTH_MS
    start, end = max(start, span.lowest_ms), min(end, span.highest_ms)
    return (start, end) if start < end else None


async def key_play_tags(db: AsyncSession, event: Event) -> list[Tag]:
    """The event's key-play tags, in stream order."""
    return list(
        await db.scalars(
            select(Tag)
            .where(
                Tag.target_id == event.id,
                Tag.is_global.is_(True),
                Tag.start_ms.is_not(None),
                Tag.subtype.in_(sorted(key_play_kinds(event.sport_type))),
            )
            .order_by(Tag.start_ms, Tag.id)
        )
    )


async def catch_up(db: AsyncSession, event: Event, *, settings: Settings, now: datetime) -> CatchUp:
    """The event's catch-up now. 409 unless it is live with a stream of this server to cut."""
    if event.status != "live" or event.media_type != "event":
        raise Conflict(f"Only a live event can be caught up on (this one is {event.status})", code=NO_CATCH_UP)
    try:
        span = clippable_span(event, settings, now)
    except ApiError as refusal:  # no stream of ours, or nothing played yet
        raise Conflict(refusal.message, code=NO_CATCH_UP) from None
    plays: list[tuple[Tag, tuple[int, int]]] = []
    for tag in await key_play_tags(db, event):
        within = _within(tag, span)
        if within is not None:
            plays.append((tag, within))
    ranges = _merged([within for _, within in plays])[-MAX_KEY_RANGES:]
    if ranges:
        plays = [(tag, within) for tag, within in plays if within[0] >= ranges[0][0]]
    key_plays: list[KeyPlay] = []
    for tag, (start, end) in plays:
        before = sum(min(e, start) - s for s, e in ranges if s < start)
        key_plays.append(KeyPlay(tag.id, tag.subtype or "", tag.title, start, end, before / 1000))
    on_asset = [(span.on_asset(start), span.on_asset(end)) for start, end in ranges]
    # A recording's offsets may meet where the encoder was away: keep them in order and apart.
    on_asset = [(start, end) for start, end in _merged(on_asset) if start < end]
    url = keys_url(span.stream, on_asset) if on_asset else None
    return CatchUp(key_plays, url, span.highest_ms)
