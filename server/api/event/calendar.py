"""One event's calendar file: the "Add to calendar" download of an event page."""

import re

from ... import clock
from ...errors import NotFound
from ...services import calendar_feeds
from ...services.spoilers import Spoilers
from ..http.context import settings
from ..http.database import db_session
from ..presenters.calendar import calendar, ics_response, vevent

# Staff may put anything printable in a reference id; a file name keeps to these.
UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._-]+")


async def get_event_calendar(id_: str, spoilers: str | None = None):
    async with db_session() as db:
        view = await calendar_feeds.calendar_event(db, id_)
    if view is None:
        raise NotFound("Event not found", code="event_not_found")
    entry = vevent(view, base_url=settings().base_url, spoilers=Spoilers.asked(spoilers), stamp=clock.now())
    name = UNSAFE_IN_NAME.sub("-", view.event.reference_id or "").strip("-.") or view.event.id
    return ics_response(calendar([entry]), {"Content-Disposition": f'attachment; filename="{name}.ics"'})
