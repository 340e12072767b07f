"""Accounts as support staff see them: finding accounts, one account, its sessions and devices,
ending one of its sessions and removing one of its devices; its purchases, contracts and follows
(the viewer-side lists, for an account that must exist).

Deleted accounts stay findable (by id, or by their display name "Deleted user"): their row is
kept for purchase records, with the personal data erased (see server.services.accounts).
Sessions end and devices go through server.services.sessions, like the viewer's own calls.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import ColumnElement, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import Conflict, NotFound
from ..models import AuthSession, Contract, Device, FederatedIdentity, Purchase, User
from . import follows, sessions
from .commerce import contracts, purchases
from .paging import Page, PageQuery, paginate

CREDENTIALS = "credentials"
# The order providers are listed in (the contract's SignInProvider enumeration).
PROVIDER_ORDER = (CREDENTIALS, "facebook", "apple", "google", "ifa")
STAFF_REVOKED = "staff"


class UserNotFound(NotFound):
    code = "user_not_found"

    def __init__(self) -> None:
        super().__init__("User not found")


class SessionNotFound(NotFound):
    code = "session_not_found"

    def __init__(self) -> None:
        super().__init__("Session not found")


class DeviceNotFound(NotFound):
    code = "device_not_found"

    def __init__(self) -> None:
        super().__init__("Device not found")


@dataclass(frozen=True)
class Account:
    """An account with what support asks about first: how it signs in, and where."""

    user: User
    providers: list[str]
    device_count: int
    active_session_count: int

    @property
    def deleted(self) -> bool:
        return self.user.deleted_at is not None


@dataclass(frozen=True)
class SessionOnDevice:
    session: AuthSession
    device: Device


@dataclass(frozen=True)
class SessionRevoked:
    session: SessionOnDevice
    # True when this call ended a live session (its device is then told it was signed out).
    ended: bool


@dataclass(frozen=True)
class DeviceRemoved:
    device: Device
    remaining: list[Device]
    ended: sessions.SessionsEnded = field(default_factory=sessions.SessionsEnded)  # its sessions, to announce


def _live_session(now: datetime) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    return AuthSession.revoked_at.is_(None), AuthSession.expires_at > now


async def _accounts(db: AsyncSession, users: Sequence[User]) -> list[Account]:
    """Providers, device and live-session counts of `users`, three queries for the lot."""
    ids = [u.id for u in users]
    if not ids:
        return []
    devices = dict(
        (await db.execute(select(Device.user_id, func.count()).where(Device.user_id.in_(ids)).group_by(Device.user_id)))
        .tuples()
        .all()
    )
    live = dict(
        (
            await db.execute(
                select(AuthSession.user_id, func.count())
                .where(AuthSession.user_id.in_(ids), *_live_session(clock.now()))
                .group_by(AuthSession.user_id)
            )
        )
        .tuples()
        .all()
    )
    linked: dict[str, set[str]] = {}
    for user_id, provider in (
        await db.execute(
            select(FederatedIdentity.user_id, FederatedIdentity.provider).where(FederatedIdentity.user_id.in_(ids))
        )
    ).tuples():
        linked.setdefault(user_id, set()).add(provider)
    accounts = []
    for user in users:
        providers = set(linked.get(user.id, ()))
        if user.password_hash:
            providers.add(CREDENTIALS)
        accounts.append(
            Account(
                user=user,
                providers=[p for p in PROVIDER_ORDER if p in providers],
                device_count=devices.get(user.id, 0),
                active_session_count=live.get(user.id, 0),
            )
        )
    return accounts


async def find_users(db: AsyncSession, *, q: str, role: str | None, query: PageQuery) -> Page[Account]:
    """Accounts whose e-mail address or display name contains `q` (case-insensitive), or whose
    id is `q`. Best match first: the id, the whole address, a prefix of the address or name,
    anywhere else; deleted accounts after the others, then the newest."""
    needle = q.lower()
    email, name = func.lower(User.email), func.lower(User.display_name)
    rank = case(
        (User.id == needle, 0),
        (email == needle, 1),
        (or_(email.startswith(needle, autoescape=True), name.startswith(needle, autoescape=True)), 2),
        else_=3,
    )
    stmt = select(User).where(
        or_(
            User.id == needle,
            email.contains(needle, autoescape=True),
            name.contains(needle, autoescape=True),
        )
    )
    if role:
        stmt = stmt.where(User.role == role)
    stmt = stmt.order_by(rank, case((User.deleted_at.is_(None), 0), else_=1), User.created.desc(), User.id.desc())
    page = await paginate(db, stmt, query)
    return Page(await _accounts(db, page.entries), page.query, page.total, page.next_exists)


async def _user(db: AsyncSession, user_id: str) -> User:
    user = await db.get(User, user_id)
    if user is None:
        raise UserNotFound()
    return user


async def get_user(db: AsyncSession, user_id: str) -> Account:
    [account] = await _accounts(db, [await _user(db, user_id)])
    return account


async def list_sessions(db: AsyncSession, user_id: str, *, active: bool, query: PageQuery) -> Page[SessionOnDevice]:
    """The account's sessions, most recently used first; `active`: only those not revoked or expired."""
    await _user(db, user_id)
    stmt = (
        select(AuthSession, Device)
        .join(Device, Device.id == AuthSession.device_ref)
        .where(AuthSession.user_id == user_id)
    )
    if active:
        stmt = stmt.where(*_live_session(clock.now()))
    stmt = stmt.order_by(AuthSession.last_used.desc(), AuthSession.created.desc(), AuthSession.id.desc())
    page = await paginate(db, stmt, query, scalars=False)
    entries = [SessionOnDevice(session, device) for session, device in page.entries]
    return Page(entries, page.query, page.total, page.next_exists)


async def revoke_session(db: AsyncSession, user_id: str, session_id: str) -> SessionRevoked:
    """End one session of the account (a second time changes nothing); commits.

    Open `db` with `Database.write_session()`."""
    await _user(db, user_id)
    found = (
        await db.execute(
            select(AuthSession, Device)
            .join(Device, Device.id == AuthSession.device_ref)
            .where(AuthSession.id == session_id, AuthSession.user_id == user_id)
        )
    ).first()
    if found is None:
        raise SessionNotFound()
    session, device = found
    was_live = session.revoked_at is None and session.expires_at > clock.now()
    await sessions.revoke_session(db, session.id, reason=STAFF_REVOKED)
    await db.commit()
    await db.refresh(session)
    return SessionRevoked(SessionOnDevice(session, device), ended=was_live)


class OwnRole(Conflict):
    code = "own_role"

    def __init__(self) -> None:
        super().__init__("Staff cannot change their own role")


async def set_role(db: AsyncSession, user_id: str, role: str, *, by: str | None) -> Account:
    """Give the account `role` (viewer, support, admin); `by` (the caller's account) may not be
    the account itself. Takes effect on its next request (roles are read per request). Commits."""
    user = await _user(db, user_id)
    if by is not None and user.id == by:
        raise OwnRole()
    if user.role != role:
        user.role = role
        await db.commit()
    return await get_user(db, user_id)


async def list_devices(db: AsyncSession, user_id: str) -> list[Device]:
    await _user(db, user_id)
    return await sessions.list_devices(db, user_id)


async def revoke_device(db: AsyncSession, user_id: str, device_ref: str) -> DeviceRemoved:
    """Remove the account's device whose `_id` is `device_ref`, with its sessions; commits.

    Open `db` with `Database.write_session()`."""
    await _user(db, user_id)
    device = (
        await db.execute(select(Device).where(Device.id == device_ref, Device.user_id == user_id))
    ).scalar_one_or_none()
    if device is None:
        raise DeviceNotFound()
    removed, ended = await sessions.remove_device(db, user_id, device.id)
    await db.commit()
    return DeviceRemoved(removed, await sessions.list_devices(db, user_id), ended)


async def list_purchases(db: AsyncSession, user_id: str, query: PageQuery) -> Page[Purchase]:
    """The account's pay-per-view purchases, newest first, as it lists them itself."""
    await _user(db, user_id)
    return await purchases.list_page(db, user_id, None, query)


async def list_contracts(db: AsyncSession, user_id: str, query: PageQuery) -> Page[Contract]:
    """All the account's contracts (active or not, canceled or not), newest first."""
    await _user(db, user_id)
    return await contracts.list_page(db, user_id, active=None, canceled=None, now=clock.now(), page=query)


async def list_follows(db: AsyncSession, user_id: str, query: PageQuery) -> Page[follows.FollowView]:
    """What the account follows, most recent first, as it lists it itself."""
    await _user(db, user_id)
    return await follows.list_follows(db, user_id, (), query)


__all__ = [
    "Account",
    "DeviceNotFound",
    "DeviceRemoved",
    "OwnRole",
    "SessionNotFound",
    "SessionOnDevice",
    "SessionRevoked",
    "UserNotFound",
    "find_users",
    "get_user",
    "list_contracts",
    "list_devices",
    "list_follows",
    "list_purchases",
    "list_sessions",
    "revoke_device",
    "revoke_session",
    "set_role",
]
