"""The signed-in viewer's profile (only ever their own: the id comes from the session)."""

from ...services import profiles
from ..http.context import signed_in
from ..http.database import db_session, db_write_session
from ..http.envelope import ok
from ..presenters.account import profile as present_profile


async def get_profile():
    principal = await signed_in()
    async with db_session() as db:
        user = await profiles.get_profile(db, principal.user_id)
    return ok(present_profile(user))


async def update_profile(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        user = await profiles.update_profile(db, principal.user_id, body["data"])
    return ok(present_profile(user))
