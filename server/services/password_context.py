"""The account a new password is for, as the password rules see it (server/auth/password_rules.py):
its e-mail address and display name, which the password must not be or contain."""

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..auth.password_rules import PasswordContext
from ..models import PasswordReset, User
from .password_reset import token_hash


async def of_account(db: AsyncSession, user_id: str) -> PasswordContext:
    row = (await db.execute(select(User.email, User.display_name).where(User.id == user_id))).first()
    return PasswordContext(row.email, row.display_name) if row else PasswordContext(None, None)


async def of_reset_token(db: AsyncSession, token: str) -> PasswordContext | None:
    """The account of a live reset token (unused, unexpired, account not deleted), else None."""
    row = (
        await db.execute(
            select(User.email, User.display_name)
            .join(PasswordReset, PasswordReset.user_id == User.id)
            .where(
                PasswordReset.token_hash == token_hash(token),
                PasswordReset.used_at.is_(None),
                PasswordReset.expires_at > clock.now(),
                User.deleted_at.is_(None),
            )
        )
    ).first()
    return PasswordContext(row.email, row.display_name) if row else None
