"""Forgotten passwords: single-use reset links, and choosing a new password with one.

The token is 256 random bits, mailed as a link and stored only as its SHA-256 hash. Using it is
one conditional UPDATE (`used_at IS NULL AND expires_at > now`), so two resets racing with the
same token cannot both win, on SQLite or PostgreSQL. A successful reset spends every other
link of the account, ends every session and sends a `password_changed` mail.
"""

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from urllib.parse import urlencode

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import ApiError
from ..models import OutboxMail, PasswordReset, User, new_id
from ..settings import Settings
from . import mail, sessions, signin_limits
from .accounts import devices_with_live_sessions

TOKEN_PREFIX = "pr_"


class InvalidResetToken(ApiError):
    status = 400
    code = "invalid_reset_token"

    def __init__(self) -> None:
        super().__init__("This reset link is no longer valid")


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def reset_link(settings: Settings, token: str) -> str:
    return f"{settings.base_url}/auth/password/reset/?{urlencode({'token': token})}"


async def request_reset(db: AsyncSession, settings: Settings, email: str) -> OutboxMail | None:
    """Create a reset link for the account with this address (if any) and mail it; commits.

    Returns the outbox mail, or None when no live account has the address."""
    user = (
        await db.execute(select(User).where(User.email == email.strip().lower(), User.deleted_at.is_(None)))
    ).scalar_one_or_none()
    if user is None or user.email is None:
        return None
    token, now = new_token(), clock.now()
    lifetime = settings.password_reset_lifetime
    db.add(
        PasswordReset(
            id=new_id(),
            user_id=user.id,
            token_hash=token_hash(token),
            created=now,
            expires_at=now + timedelta(seconds=lifetime),
        )
    )
    message = mail.password_reset_message(reset_link(settings, token), max(1, lifetime // 60), token=token)
    outbox = mail.write(db, settings, to=user.email, kind=mail.MailKind.PASSWORD_RESET, message=message)
    await db.commit()
    return outbox


async def token_is_live(db: AsyncSession, token: str) -> bool:
    """A cheap check before the caller spends a password hash on the new password."""
    found = await db.execute(
        select(PasswordReset.id).where(
            PasswordReset.token_hash == token_hash(token),
            PasswordReset.used_at.is_(None),
            PasswordReset.expires_at > clock.now(),
        )
    )
    return found.first() is not None


@dataclass
class ResetDone:
    user_id: str
    mail: OutboxMail | None
    signed_out_devices: list[str] = field(default_factory=list)
    ended: sessions.SessionsEnded = field(default_factory=sessions.SessionsEnded)  # to announce


async def reset_password(db: AsyncSession, settings: Settings, token: str, password_hash: str) -> ResetDone:
    """Spend `token` and set the new password (already hashed); commits.

    Raises InvalidResetToken when the token is unknown, used, expired or its account is gone.
    `db` comes from `Database.write_session()`."""
    now = clock.now()
    spent = await db.execute(
        update(PasswordReset)
        .where(
            PasswordReset.token_hash == token_hash(token),
            PasswordReset.used_at.is_(None),
            PasswordReset.expires_at > now,
        )
        .values(used_at=now)
        .returning(PasswordReset.user_id)
    )
    user_id = spent.scalar_one_or_none()
    user = None
    if user_id is not None:
        user = (
            await db.execute(select(User).where(User.id == user_id, User.deleted_at.is_(None)))
        ).scalar_one_or_none()
    if user is None:
        await db.rollback()
        raise InvalidResetToken()
    user.password_hash = password_hash
    user.updated = now
    if user.email_verified_at is None:  # the link reached the address: it is the owner's
        user.email_verified_at = now
    await db.execute(
        update(PasswordReset)
        .where(PasswordReset.user_id == user.id, PasswordReset.used_at.is_(None))
        .values(used_at=now)
    )
    devices = await devices_with_live_sessions(db, user.id)
    ended = await sessions.revoke_user_sessions(db, user.id, reason="password_reset")
    if user.email:  # the owner proved themselves: failed sign-ins from everywhere no longer count
        await signin_limits.forget_account(db, settings, user.email)
    outbox = None
    if user.email:
        outbox = mail.write(
            db,
            settings,
            to=user.email,
            kind=mail.MailKind.PASSWORD_CHANGED,
            message=mail.password_changed_message(settings.base_url),
        )
    await db.commit()
    return ResetDone(user.id, outbox, devices, ended)
