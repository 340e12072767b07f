"""POST /analytics/events: a batch of identify and track events, anonymous or a viewer's."""

from connexion import request

from ...services import analytics
from ..http.context import client_address, settings, signed_in
from ..http.database import db_session
from ..http.envelope import ok


async def record_analytics_events(body: dict):
    # Anonymous unless a token is sent; a token that does not verify, or whose session has ended,
    # is a 401 (the client refreshes and retries) rather than an anonymous batch.
    user_id = (await signed_in()).user_id if request.headers.get("Authorization") else None
    async with db_session() as db:
        accepted = await analytics.record_events(
            db, body["events"], settings=settings(), user_id=user_id, address=client_address()
        )
    return ok({"accepted": accepted}), 202
