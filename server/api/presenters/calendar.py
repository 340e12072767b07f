"""iCalendar (RFC 5545) text of events: the personal feeds and an event's own `.ics` file.

Written with the `icalendar` package, which folds long lines and escapes commas, semicolons and
line breaks the way Google Calendar and Apple Calendar read them back."""

from collections.abc import Iterable
from datetime import UTC, datetime
from urllib.parse import urlsplit

import icalendar
from starlette.responses import Response

from ...services.calendar_slots import slot_of
from ...services.events import EventView
from ...services.spoilers import Spoilers

# UTF-8 is iCalendar's own default (RFC 5545 3.1.4): the type names no charset, as the contract does.
ICS = "text/calendar"


def ics_response(body: bytes, headers: dict[str, str]) -> Response:
    """An iCalendar answer typed exactly ICS (Starlette would add a charset to a `text/` media type)."""
    return Response(body, headers={"Content-Type": ICS, **headers})


PRODID = "-//Touchline//Calendar feeds//EN"
FEED_NAME = "Touchline: what you follow"
# How often calendar apps that read the hint (Apple's, Outlook's) should poll a feed.
POLL_EVERY = "PT1H"


def _league(view: EventView) -> str | None:
    """The league's title, else the category's (identities come league first)."""
    return view.identities[0].title if view.identities else None


def vevent(view: EventView, *, base_url: str, spoilers: Spoilers, stamp: datetime) -> icalendar.Event:
    """The event as a VEVENT: its UID stays the same for good, and its SEQUENCE grows each time
    its slot moves (server.services.calendar_slots)."""
    event = view.event
    page = f"{base_url}/events/{event.id}"
    start, end = slot_of(event)
    league = spoilers.text(_league(view))
    entry = icalendar.Event()
    entry.add("uid", f"{event.id}@{urlsplit(base_url).hostname or 'touchline'}")
    entry.add("dtstamp", stamp.astimezone(UTC))
    entry.add("dtstart", start.astimezone(UTC))
    entry.add("dtend", end.astimezone(UTC))
    entry.add("summary", spoilers.text(event.title) or "")
    entry.add("url", page)
    entry.add("description", f"{league}\n{page}" if league else page)
    entry.add("sequence", event.schedule_sequence or 0)
    entry.add("last-modified", event.updated.astimezone(UTC))
    entry.add("status", "CONFIRMED")
    return entry


def calendar(entries: Iterable[icalendar.Event], *, name: str | None = None) -> bytes:
    """A VCALENDAR to publish (METHOD:PUBLISH) holding `entries`; `name` titles a subscribed feed."""
    document = icalendar.Calendar()
    document.add("prodid", PRODID)
    document.add("version", "2.0")
    document.add("calscale", "GREGORIAN")
    document.add("method", "PUBLISH")
    if name is not None:
        document.add("x-wr-calname", name)
        document.add("x-published-ttl", POLL_EVERY)
    for entry in entries:
        document.add_component(entry)
    return document.to_ical()
