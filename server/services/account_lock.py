"""Serialises one account's read-check-write sequences (limits, merges) across requests and processes."""

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import Unauthorized
from ..models import User


async def lock_account(db: AsyncSession, user_id: str) -> User:
    """The account's row, locked until the transaction ends.

    Open `db` with `Database.write_session()`: on SQLite that transaction already holds the write
    lock (there are no row locks); on PostgreSQL the row lock makes a second request for the same
    account wait, so a count taken after this call stays true until the commit.
    """
    statement = select(User).where(User.id == user_id, User.deleted_at.is_(None))
    if db.bind.dialect.name != "sqlite":
        statement = statement.with_for_update()
    user = (await db.execute(statement)).scalar_one_or_none()
    if user is None:  # deleted between the session check and here
        raise Unauthorized("Your session has ended, please sign in again")
    return user
