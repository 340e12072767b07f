"""POST /qoe/beacons: a batch of one browser's playback beacons, anonymous or a viewer's."""

from connexion import request

from ...services import qoe_beacons
from ..http.context import client_address, settings, signed_in
from ..http.database import db_session
from ..http.envelope import ok


async def record_qoe_beacons(body: dict):
    # The viewer's session, never the account: a token that does not verify is a 401 (the client
    # refreshes and retries) rather than an anonymous batch, as for analytics.
    session = (await signed_in()).session_id if request.headers.get("Authorization") else None
    async with db_session() as db:
        accepted = await qoe_beacons.record(
            db, body, settings=settings(), viewer_session=session, address=client_address()
        )
    return ok({"accepted": accepted}), 202
