"""A viewer's calendar feed as calendar apps read it: the secret in its URL, and nothing else."""

from ... import clock
from ...errors import NotFound
from ...services import calendar_feeds, ratelimit
from ...services.spoilers import HIDDEN, SHOWN
from ..http.context import client_address, settings
from ..http.database import db_session
from ..presenters.calendar import FEED_NAME, calendar, ics_response, vevent

# Calendar apps poll; five minutes of a stale feed is nothing to them and spares the server.
FEED_CACHE = "private, max-age=300"


async def get_calendar_feed_ics(secret: str):
    # Counted before the lookup, right or wrong: guessing secrets costs the guesser's budget.
    async with db_session() as db:
        await ratelimit.hit(db, calendar_feeds.read_limit(settings()), client_address() or "unknown")
    async with db_session() as db:
        reader = await calendar_feeds.reader_of(db, secret)
        if reader is None:
            raise NotFound("No calendar feed has this address (it was replaced or revoked)", code="feed_not_found")
        views = await calendar_feeds.followed_events(
            db, reader.user_id, retention_days=settings().calendar_retention_days
        )
    spoilers, stamp, base = (HIDDEN if reader.spoiler_free else SHOWN), clock.now(), settings().base_url
    entries = [vevent(view, base_url=base, spoilers=spoilers, stamp=stamp) for view in views]
    return ics_response(calendar(entries, name=FEED_NAME), {"Cache-Control": FEED_CACHE})
