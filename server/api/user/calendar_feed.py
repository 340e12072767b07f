"""The signed-in viewer's calendar feed: made (its secret shown once), looked at, revoked. Calendar
apps read it through server/api/calendar/feeds.py."""

from ...services import calendar_feeds
from ..http.context import settings, signed_in
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok


def feed_url(secret: str) -> str:
    return f"{settings().base_url}/api/calendar/{secret}.ics"


async def create_calendar_feed():
    principal = await signed_in()
    async with db_write_session() as db:
        made = await calendar_feeds.create_feed(db, principal.user_id)
    return ok({"url": feed_url(made.secret), "created": iso(made.created)})


async def get_calendar_feed():
    principal = await signed_in()
    async with db_session() as db:
        created = await calendar_feeds.feed_created(db, principal.user_id)
    return ok({"active": created is not None, "created": iso(created)})


async def revoke_calendar_feed():
    principal = await signed_in()
    async with db_write_session() as db:
        await calendar_feeds.revoke_feed(db, principal.user_id)
    return ok(None)
