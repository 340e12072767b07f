"""Linking a provider's identity to a Touchline account (spec §4: sign-in or registration).

An identity is (provider, subject). The first sign-in with it creates an account, unless the
provider vouches that the person owns the e-mail address of an existing account whose address
was verified too: then that account is linked instead. An account whose sign-up was never
confirmed is not linked (issue 26 §5): it is erased, and the identity gets a new account with
the address. An unverified address never finds an account, and it is not put on a new one
either (someone could claim an address that is not theirs); the provider's address is still
remembered on the link.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..auth.providers.identity import Identity
from ..models import FederatedIdentity, User, new_id
from ..text_rules import without_control_characters
from .accounts import erase_personal_data

MAX_DISPLAY_NAME = 100  # the column users.display_name
FALLBACK_DISPLAY_NAME = "Touchline viewer"


@dataclass(frozen=True)
class Linked:
    user_id: str
    is_register: bool


def display_name_for(identity: Identity, requested: str | None) -> str:
    """The new account's name: the one the client sent (trimmed; for Apple, the first and last
    name the SDK returned once), else the provider's name claims, else the e-mail's local part."""
    family = " ".join(part for part in (identity.given_name, identity.family_name) if part)
    for candidate in (requested, identity.name, family, identity.email and identity.email.split("@", 1)[0]):
        candidate = without_control_characters(candidate or "")  # the provider's claims, as sent
        if candidate.strip():
            return candidate.strip()[:MAX_DISPLAY_NAME].strip()
    return FALLBACK_DISPLAY_NAME


async def link(db: AsyncSession, identity: Identity, *, display_name: str | None = None) -> Linked:
    """The account this identity signs in to, created or linked on first use. The caller opened
    `db` with `Database.write_session()` and commits (sessions.sign_in does)."""
    try:
        return await _link(db, identity, display_name)
    except IntegrityError:
        # A concurrent first sign-in with the same identity (or e-mail) won; use its account.
        await db.rollback()
        return await _link(db, identity, display_name)


async def _link(db: AsyncSession, identity: Identity, display_name: str | None) -> Linked:
    now = clock.now()
    row = (
        await db.execute(
            select(FederatedIdentity, User)
            .join(User, User.id == FederatedIdentity.user_id)
            .where(FederatedIdentity.provider == identity.provider, FederatedIdentity.subject == identity.subject)
        )
    ).first()
    if row is not None:
        federated, user = row
        if user.deleted_at is None:
            if identity.email and federated.email != identity.email:
                federated.email = identity.email
                federated.updated = now
            return Linked(user.id, False)
        # The account was deleted: its old link must not keep the identity from a new account.
        await db.execute(delete(FederatedIdentity).where(FederatedIdentity.id == federated.id))

    if identity.email and identity.email_verified:
        owner = (
            await db.execute(select(User).where(User.email == identity.email, User.deleted_at.is_(None)))
        ).scalar_one_or_none()
        if owner is not None and owner.email_verified_at is not None:
            _add_link(db, owner.id, identity, now)
            await db.flush()
            return Linked(owner.id, False)
        if owner is not None:
            # A sign-up nobody confirmed: whoever typed the address never proved it, and may not be
            # this person (issue 26 §5). It never signed in; it is erased and the address goes to
            # the account made below, which the sign-up's password does not open.
            await erase_personal_data(db, owner.id, now)
            await db.flush()

    email = identity.email if identity.email_verified else None
    user = User(
        id=new_id(),
        email=email,
        email_verified_at=now if email else None,
        password_hash=None,
        display_name=display_name_for(identity, display_name),
        club_list=[],
        options={},
        created=now,
        updated=now,
    )
    db.add(user)
    await db.flush()  # the user row first: the link refers to it
    _add_link(db, user.id, identity, now)
    await db.flush()
    return Linked(user.id, True)


def _add_link(db: AsyncSession, user_id: str, identity: Identity, now: datetime) -> None:
    db.add(
        FederatedIdentity(
            id=new_id(),
            user_id=user_id,
            provider=identity.provider,
            subject=identity.subject,
            email=identity.email,
            created=now,
            updated=now,
        )
    )
