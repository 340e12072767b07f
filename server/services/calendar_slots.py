"""An event's slot in viewers' calendars (its VEVENT's DTSTART and DTEND), and its SEQUENCE.

Calendar apps keep an entry by its UID and replace it only when its SEQUENCE grows (RFC 5545
§3.8.7.4), so every change of an event that moves its slot counts one more: staff moving the
date or the end, finishing it (the end becomes known), an archive giving it its real length. Every
writer of those columns takes a `snapshot` before and calls `count_reschedule` after
(server/services/event_admin.py, live_feeds.py, media_publishing.py, media_library.py)."""

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from ..models import Event

# A match's usual length, when neither its end nor its planned duration is known.
DEFAULT_LENGTH = timedelta(hours=2)


def slot(start: datetime, end: datetime | None, duration_s: int | None) -> tuple[datetime, datetime]:
    """(DTSTART, DTEND): the event's date, and its end, else its date plus its duration, else plus
    two hours. An end before the start (or a zero duration) would make an invalid entry."""
    if end is not None and end > start:
        return start, end
    if duration_s:
        return start, start + timedelta(seconds=duration_s)
    return start, start + DEFAULT_LENGTH


def slot_of(event: Event) -> tuple[datetime, datetime]:
    return slot(event.event_date, event.end_date, event.duration_s)


def count_reschedule(before: Mapping[str, Any], event: Event) -> None:
    """One more SEQUENCE when the slot moved since `before` (event_admin.snapshot); the caller commits."""
    if slot(before["event_date"], before["end_date"], before["duration_s"]) != slot_of(event):
        event.schedule_sequence = (event.schedule_sequence or 0) + 1
