"""Accounts (signing up is in signup.py): finding one to sign in, changing the password, ending
other sessions, deleting the account.

Deleting an account keeps the `users` row (purchase and contract records will point at it) and
erases everything personal. What is erased is listed once, in ERASURE: a table that holds
personal data (clips, private tags, stored cards, purchases...) adds its line there.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import Forbidden
from ..models import (
    AccessCode,
    AccessCodeRedemption,
    AnalyticsEvent,
    ApiKey,
    AuthSession,
    CalendarFeed,
    CardHandle,
    Contract,
    Device,
    EmailVerification,
    Event,
    FederatedIdentity,
    Follow,
    IdempotencyKey,
    LimitTicket,
    LiveAlertDelivery,
    OutageCredit,
    OutageCreditGrant,
    OutboxMail,
    PasswordReset,
    PaymentCharge,
    PlaybackPosition,
    Purchase,
    StoredCard,
    Tag,
    User,
    WatchlistItem,
)
from ..settings import Settings
from . import mail, sessions
from .account_lock import lock_account

DELETED_DISPLAY_NAME = "Deleted user"


async def find_for_sign_in(db: AsyncSession, email: str) -> User | None:
    """The account that may sign in with this e-mail address (deleted accounts cannot)."""
    return await db.scalar(select(User).where(User.email == email, User.deleted_at.is_(None)))


class WrongPassword(Forbidden):
    code = "wrong_password"

    def __init__(self) -> None:
        super().__init__("The current password is wrong")


async def devices_with_live_sessions(
    db: AsyncSession, user_id: str, *, keep_session: str | None = None, keep_device: str | None = None
) -> list[str]:
    """The `deviceId`s of the user's devices that have a live session other than `keep_session`,
    leaving out the device `keep_device` (a Device row id): the devices to tell they were signed out."""
    stmt = (
        select(Device.device_id)
        .distinct()
        .join(AuthSession, AuthSession.device_ref == Device.id)
        .where(AuthSession.user_id == user_id, AuthSession.revoked_at.is_(None), AuthSession.expires_at > clock.now())
    )
    if keep_session:
        stmt = stmt.where(AuthSession.id != keep_session)
    if keep_device:
        stmt = stmt.where(Device.id != keep_device)
    return sorted((await db.execute(stmt)).scalars())


# --- password change ------------------------------------------------------------------------


async def password_hash_of(db: AsyncSession, user_id: str) -> str | None:
    return (
        await db.execute(select(User.password_hash).where(User.id == user_id, User.deleted_at.is_(None)))
    ).scalar_one_or_none()


@dataclass
class PasswordChanged:
    other_sessions: int
    mail: OutboxMail | None


async def change_password(
    db: AsyncSession, settings: Settings, user_id: str, session_id: str | None, *, verified_hash: str, new_hash: str
) -> PasswordChanged:
    """Replace the password whose hash the caller verified (`verified_hash`) by `new_hash`; commits.

    The update only applies while the stored hash is still `verified_hash`, so of two changes
    racing from the same old password one wins and the other gets WrongPassword. Unused reset
    links stop working; the account gets a `password_changed` mail. Sessions stay signed in."""
    now = clock.now()
    changed = await db.execute(
        update(User)
        .where(User.id == user_id, User.deleted_at.is_(None), User.password_hash == verified_hash)
        .values(password_hash=new_hash, updated=now)
        .returning(User.email)
    )
    row = changed.first()
    if row is None:
        await db.rollback()
        raise WrongPassword()
    await db.execute(
        update(PasswordReset)
        .where(PasswordReset.user_id == user_id, PasswordReset.used_at.is_(None))
        .values(used_at=now)
    )
    outbox = None
    if row.email:
        outbox = mail.write(
            db,
            settings,
            to=row.email,
            kind=mail.MailKind.PASSWORD_CHANGED,
            message=mail.password_changed_message(settings.base_url),
        )
    await db.commit()
    return PasswordChanged(await sessions.count_other_sessions(db, user_id, session_id), outbox)


# --- other sessions -------------------------------------------------------------------------


async def end_other_sessions(
    db: AsyncSession, user_id: str, session_id: str | None, device_ref: str | None
) -> tuple[sessions.SessionsEnded, list[str]]:
    """Revoke every live session of the user but `session_id`; commits. Returns the sessions that
    ended (for the caller to announce) and the `deviceId`s that lost a session (this session's
    device left out)."""
    devices = await devices_with_live_sessions(db, user_id, keep_session=session_id, keep_device=device_ref)
    ended = await sessions.revoke_user_sessions(db, user_id, reason="ended_by_user", keep=session_id)
    await db.commit()
    return ended, devices


# --- deletion -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Erase:
    """Personal data of one table: the account's rows (`owner` column equals the user id) are
    deleted, or, with `scrub`, kept with those columns overwritten (records that must stay)."""

    model: type
    owner: str = "user_id"
    scrub: Mapping[str, Any] | None = None
    only: Any = None  # a further condition on the rows (e.g. private tags only)

    async def apply(self, db: AsyncSession, user_id: str) -> None:
        mine = getattr(self.model, self.owner) == user_id
        if self.only is not None:
            mine = mine & self.only
        if self.scrub is None:
            await db.execute(delete(self.model).where(mine).execution_options(synchronize_session=False))
        else:
            await db.execute(
                update(self.model).where(mine).values(**self.scrub).execution_options(synchronize_session=False)
            )


# Everything an account deletion erases, in order.
ERASURE: tuple[Erase, ...] = (
    Erase(FederatedIdentity),
    Erase(AuthSession),  # their refresh tokens go with them (foreign key cascade)
    Erase(Device),
    Erase(LimitTicket),
    Erase(PasswordReset),
    Erase(EmailVerification),
    Erase(Follow),
    Erase(WatchlistItem),
    Erase(PlaybackPosition),  # where the viewer stopped in each video
    Erase(CalendarFeed),  # the calendar feed's address stops working
    Erase(LiveAlertDelivery),  # which go-live alerts reached the viewer
    Erase(IdempotencyKey),  # recorded answers of money-moving calls
    Erase(AnalyticsEvent),  # what the viewer did, and the traits an identify carried
    Erase(CardHandle, owner="owner_id"),  # card tokens and stored cards
    # Charges are money records: kept, no longer tied to the person (brand and last 4 digits only).
    Erase(PaymentCharge, owner="owner_id", scrub={"owner_id": None}),
    Erase(StoredCard),
    # What was bought stays in the books, without the buyer.
    Erase(Purchase, scrub={"user_id": None}),
    Erase(Contract, scrub={"user_id": None, "auto_renew": False}),  # never charged again
    Erase(AccessCodeRedemption, scrub={"user_id": None}),
    Erase(OutageCreditGrant, scrub={"user_id": None}),  # a credit of a purchase: kept, like the purchase
    Erase(OutageCredit, owner="created_by", scrub={"created_by": None}),  # staff who triggered one
    Erase(OutageCredit, owner="cancelled_by", scrub={"cancelled_by": None}),
    Erase(AccessCode, owner="created_by", scrub={"created_by": None}),
    # A staff account's API keys stop working with it (a key without its account is refused).
    Erase(ApiKey, owner="created_by", scrub={"created_by": None}),
    Erase(Event, owner="owner_id"),  # the viewer's own clips (their tags go with them)
    Erase(Tag, only=Tag.is_global.is_(False)),  # private tags; global ones stay, unsigned:
    Erase(Tag, scrub={"user_id": None}),
    Erase(
        User,
        owner="id",
        scrub={
            "email": None,
            "password_hash": None,
            "display_name": DELETED_DISPLAY_NAME,
            "global_tags": False,
            "city": None,
            "gender": None,
            "date_of_birth": None,
            "phone": None,
            "country_name": None,
            "postal_code": None,
            "identity_id": None,
            "identity_item_id": None,
            "club_list": [],
            "options": {},
            "last_sign_in": None,
        },
    ),
)


async def erase_personal_data(db: AsyncSession, user_id: str, now: datetime) -> None:
    """Apply ERASURE to the account and mark it deleted. The caller commits."""
    for step in ERASURE:
        await step.apply(db, user_id)
    await db.execute(
        update(User)
        .where(User.id == user_id)
        .values(deleted_at=now, updated=now)
        .execution_options(synchronize_session=False)
    )


@dataclass
class AccountDeleted:
    mail: OutboxMail | None
    devices: list[str] = field(default_factory=list)  # the account's other devices (deviceIds)
    ended: sessions.SessionsEnded = field(default_factory=sessions.SessionsEnded)  # to announce


async def delete_account(
    db: AsyncSession, settings: Settings, user_id: str, *, keep_device: str | None = None
) -> AccountDeleted:
    """Sign the account out everywhere, mail the old address, erase its personal data; commits.

    The answer lists the account's devices other than `keep_device` (the caller's Device row id):
    those to tell they were signed out; and the sessions that ended, to announce.

    `db` comes from `Database.write_session()`: two deletions of one account run one after the
    other (see lock_account) and the second answers 401, the account being gone."""
    user = await lock_account(db, user_id)
    others = select(Device.device_id).where(Device.user_id == user_id)
    if keep_device:
        others = others.where(Device.id != keep_device)
    devices = sorted((await db.execute(others)).scalars())
    ended = await sessions.revoke_user_sessions(db, user_id, reason="account_deleted")
    outbox = None
    if user.email:  # written before the address is erased
        outbox = mail.write(
            db, settings, to=user.email, kind=mail.MailKind.ACCOUNT_DELETED, message=mail.account_deleted_message()
        )
    await erase_personal_data(db, user_id, clock.now())
    await db.commit()
    return AccountDeleted(outbox, devices, ended)
