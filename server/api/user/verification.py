"""Proving a sign-up's address: the mailed link sets the password typed at sign-up and signs in."""

from ...services import ratelimit, sessions, signup
from ..http.context import client_address, session_policy, settings
from ..http.database import db_session, db_write_session
from ..presenters.account import login_response
from .signin import CREDENTIALS


def _client() -> str:
    return client_address() or "unknown"


async def verify_email(body: dict):
    by_address, _ = ratelimit.signin_limits(settings())
    async with db_session() as db:
        await ratelimit.hit(db, by_address, _client())
    async with db_write_session() as db:
        user_id = await signup.verify(db, body["token"])
        result = await sessions.sign_in(
            db,
            user_id,
            sessions.DeviceIn(device_id=body["device_id"], device_name=body["device_name"]),
            policy=session_policy(),
            provider=CREDENTIALS,
            is_register=True,
            client_address=client_address(),
        )
    return login_response(result)
