"""Signing up with an e-mail address and a password, and proving the address (issue 26 §5, §11).

A sign-up answers the same whether or not the address has an account, and costs the same: the
caller hashes the password either way, and either way one mail is written. A new address gets an
account waiting for confirmation and a link; a confirmed one gets a mail telling its owner that
someone tried. The link is 256 random bits stored only as its SHA-256 hash; spending it is one
conditional UPDATE (`used_at IS NULL AND expires_at > now`), so it works once, on SQLite and
PostgreSQL.

Until its address is confirmed an account has no password, and a federated sign-in with a
verified address does not join it (see federation.py). Each sign-up of a not yet confirmed
address gets a link of its own that carries the password typed with it: the link that is
opened sets its password. So whoever typed the address first cannot keep a password into the
account of the person who owns the mailbox, and a link works only while the account waits.
"""

import hashlib
import json
import logging
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import ApiError
from ..models import EmailVerification, OutboxMail, User, new_id
from ..settings import Settings
from . import mail, profiles

TOKEN_PREFIX = "ev_"
log = logging.getLogger(__name__)


class InvalidVerificationToken(ApiError):
    status = 400
    code = "invalid_verification_token"

    def __init__(self) -> None:
        super().__init__("This verification link is no longer valid")


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def verification_link(settings: Settings, token: str) -> str:
    return f"{settings.base_url}/auth/verify/?{urlencode({'token': token})}"


# --- the mails ------------------------------------------------------------------------------


def verification_message(link: str, hours: int, *, token: str) -> mail.Message:
    """`token` is the secret part of `link`, redacted for staff."""
    return mail.Message(
        "Confirm your Touchline sign-up",
        "Welcome to Touchline. To finish signing up, confirm that this address is yours:\n"
        f"{link}\n\n"
        f"The link works once, within {hours} hours. If you did not sign up, ignore this mail: "
        "nobody can sign in with this address until the link is opened.\n",
        secrets=(token,),
    )


def signup_attempt_message(base_url: str) -> mail.Message:
    return mail.Message(
        "Someone tried to sign up to Touchline with your address",
        "Someone just tried to create a Touchline account with this address, which has one already.\n\n"
        "If it was you, sign in instead, or choose a new password if you forgot it:\n"
        f"{base_url}/auth/password/forgot/\n\n"
        "If it was not you, there is nothing to do: your account is unchanged.\n",
    )


# --- signing up -----------------------------------------------------------------------------


async def _owner_of(db: AsyncSession, email: str) -> User | None:
    return await db.scalar(select(User).where(User.email == email))


async def register(
    db: AsyncSession,
    settings: Settings,
    *,
    email: str,
    password_hash: str,
    display_name: str,
    profile: Mapping[str, Any],
) -> OutboxMail:
    """Sign up `email` (lower-cased) and commit; returns the one mail written.

    Bad profile fields are refused the same way for a new and a taken address (they are checked
    on the would-be account before the address is looked at)."""
    now = clock.now()
    user = User(
        id=new_id(),
        email=email,
        password_hash=None,  # set by the link that is opened: the password typed with it
        display_name=display_name,
        club_list=[],
        options={},
        created=now,
        updated=now,
        email_verified_at=None,
    )
    await profiles.apply_profile(db, user, dict(profile))  # raises for bad fields, writes nothing
    owner = await _owner_of(db, email)
    if owner is None:
        db.add(user)
        try:
            await db.flush()
        except IntegrityError:  # another sign-up took the address first: it is taken now
            await db.rollback()
            owner = await _owner_of(db, email)
    if owner is None:
        outbox = _issue_link(db, settings, user, password_hash, now)
    elif owner.email_verified_at is None and owner.deleted_at is None:
        # A sign-up nobody confirmed yet, maybe not the owner's: this one gets a link of its own.
        outbox = _issue_link(db, settings, owner, password_hash, now)
    else:
        outbox = mail.write(
            db, settings, to=email, kind=mail.MailKind.SIGNUP_ATTEMPT, message=signup_attempt_message(settings.base_url)
        )
    await db.commit()
    return outbox


def _issue_link(db: AsyncSession, settings: Settings, user: User, password_hash: str, now: datetime) -> OutboxMail:
    token = new_token()
    lifetime = settings.email_verification_lifetime
    db.add(
        EmailVerification(
            id=new_id(),
            user_id=user.id,
            token_hash=token_hash(token),
            password_hash=password_hash,
            created=now,
            expires_at=now + timedelta(seconds=lifetime),
        )
    )
    assert user.email is not None
    message = verification_message(verification_link(settings, token), max(1, lifetime // 3600), token=token)
    return mail.write(db, settings, to=user.email, kind=mail.MailKind.EMAIL_VERIFICATION, message=message)


async def verify(db: AsyncSession, token: str) -> str:
    """Spend `token`, mark its account's address verified and give it the password typed with
    that sign-up; returns the user id. The caller signs the account in in the same transaction.
    Raises InvalidVerificationToken when the token is unknown, used or expired, or its account is
    gone or confirmed already (by another link, a password reset or a provider)."""
    now = clock.now()
    spent = await db.execute(
        update(EmailVerification)
        .where(
            EmailVerification.token_hash == token_hash(token),
            EmailVerification.used_at.is_(None),
            EmailVerification.expires_at > now,
        )
        .values(used_at=now)
        .returning(EmailVerification.user_id, EmailVerification.password_hash)
    )
    row = spent.first()
    user = None
    if row is not None:
        user = await db.scalar(
            select(User).where(User.id == row.user_id, User.deleted_at.is_(None), User.email_verified_at.is_(None))
        )
    if row is None or user is None:
        await db.rollback()
        raise InvalidVerificationToken()
    user.password_hash = row.password_hash
    user.email_verified_at = now
    user.updated = now
    await db.execute(  # the account's other links are spent too
        update(EmailVerification)
        .where(EmailVerification.user_id == user.id, EmailVerification.used_at.is_(None))
        .values(used_at=now)
    )
    return user.id


def drop(settings: Settings, outbox: OutboxMail) -> None:
    """Test runs only (`mail_drop_dir`): write the mail as JSON for clients outside the process.
    On a developer's `make run` (development, no SMTP) the mail goes to the server's console
    instead, the only place a developer signing up there could read its link."""
    if settings.environment == "development" and not settings.smtp_host:
        log.warning("development, no SMTP: mail %s to %s:\n%s", outbox.kind, outbox.to_address, outbox.text)
    if settings.mail_drop_dir is None:
        return
    settings.mail_drop_dir.mkdir(parents=True, exist_ok=True)
    record = {"id": outbox.id, "to": outbox.to_address, "kind": outbox.kind, "text": outbox.text}
    name = f"{clock.now().strftime('%Y%m%dT%H%M%S%f')}-{outbox.id}.json"
    (settings.mail_drop_dir / name).write_text(json.dumps(record))
