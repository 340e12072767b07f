"""Sign-in sessions: devices and the device limit, access and refresh tokens, limit tickets.

A session is one sign-in on one device. Its access tokens are short-lived JWTs carrying its id;
its refresh tokens are opaque, stored as SHA-256 hashes, and rotate on every use.

Rotation and the grace window: the successor of a refresh token is derived from it
(HMAC of the token under the server secret), so when two tabs of the same device refresh with
the same token at once, the one that loses the race can be given the very same new refresh
token without it ever being stored in clear. Reuse of a rotated token after the grace window
(or from another device) means it leaked: the whole session is revoked.

Write paths run in `Database.write_session()` (BEGIN IMMEDIATE on SQLite) and lock rows with
FOR UPDATE on PostgreSQL, so concurrent sign-ins cannot pass the device limit and concurrent
refreshes rotate once. The common refresh on PostgreSQL is a single statement instead; its update
of the token's row waits for a concurrent one and then finds the token used, so it too rotates once.
"""

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import Connection, Select, String, bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..auth.standing import Alive, session_alive
from ..auth.tokens import issue_access_token, issue_limit_ticket
from ..db import Database, rows_changed, run_pipelined
from ..errors import ApiError, NotFound, Unauthorized
from ..models import AuthSession, Device, LimitTicket, RefreshToken, User, new_id
from ..models.types import UTCDateTime
from ..settings import Settings
from ..text_rules import control_message, has_control_characters

# Longest chain of rotations followed inside the grace window (tabs refreshing in a burst).
MAX_CHAIN = 16
# Sessions' and devices' "last used" move at most this often (saves two writes per refresh).
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class SessionsEnded:
    """Sessions that have just ended (revoked or deleted), for the caller to announce once
    committed: their streams stop and their sockets close (server.realtime.announcements
    `announce_sessions_ended`). Services never announce it themselves."""

    session_ids: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.session_ids)

    def __add__(self, other: "SessionsEnded") -> "SessionsEnded":
        return SessionsEnded(tuple(dict.fromkeys(self.session_ids + other.session_ids)))


class RefreshFailed(Unauthorized):
    """The client signs out and shows the session-expired message (spec §8)."""

    code = "refresh_token_failed"

    def __init__(
        self,
        message: str = "Expired Session",
        *,
        revoked: tuple[str, str] | None = None,
        ended: SessionsEnded = SessionsEnded(),
    ):
        super().__init__(message)
        # (user id, device id) when this failure revoked a session: its device is told to sign out.
        self.revoked = revoked
        self.ended = ended  # that session, to announce


class LimitTicketInvalid(Unauthorized):
    code = "limit_ticket_invalid"

    def __init__(self) -> None:
        super().__init__("The sign-in ticket has expired, please sign in again")


@dataclass(frozen=True)
class Policy:
    secret: str
    access_lifetime: int
    refresh_lifetime: int
    session_lifetime: int
    grace_seconds: int
    device_limit: int
    ticket_lifetime: int

    @classmethod
    def from_settings(cls, settings: Settings) -> "Policy":
        return cls(
            secret=settings.secret_key,
            access_lifetime=settings.access_token_lifetime,
            refresh_lifetime=settings.refresh_token_lifetime,
            session_lifetime=settings.session_lifetime,
            grace_seconds=settings.refresh_grace_seconds,
            device_limit=settings.device_limit,
            ticket_lifetime=settings.limit_ticket_lifetime,
        )


@dataclass(frozen=True)
class DeviceIn:
    device_id: str
    device_name: str
    os_name: str | None = None
    os_version: str | None = None
    app_version: str | None = None

    def __post_init__(self) -> None:
        # Every way in (sign-up, sign-in, device check, token exchange) makes one of these; the
        # strings end up in staff terminals (`touchline devices list`) and, NUL, nowhere at all.
        for name in ("device_id", "device_name", "os_name", "os_version", "app_version"):
            value = getattr(self, name)
            if value is not None and has_control_characters(value):
                message = control_message(name)
                raise ApiError(message, code="validation_error", details=[{"field": name, "message": message}])


@dataclass
class SignInResult:
    """What a sign-in produced: tokens, or (device_error set) a stop at the device limit."""

    user: User
    provider: str
    is_register: bool
    devices: list[Device]
    token_data: dict | None = None
    device_error: dict | None = None
    session_id: str | None = None
    extra: dict = field(default_factory=dict)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_refresh_token() -> str:
    return "rt_" + secrets.token_urlsafe(32)


def successor_of(token: str, secret: str) -> str:
    digest = hmac.new(secret.encode(), b"rotate:" + token.encode(), hashlib.sha256).digest()
    return "rt_" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


_Row = TypeVar("_Row", bound=tuple[Any, ...])


def _for_update(statement: Select[_Row], db: AsyncSession) -> Select[_Row]:
    # SQLite has no row locks; its write transactions are serialised by BEGIN IMMEDIATE.
    return statement if db.bind.dialect.name == "sqlite" else statement.with_for_update()


def access_token_data(user_id: str, role: str, session_id: str, refresh_token: str, policy: Policy) -> dict:
    access = issue_access_token(
        user_id,
        secret=policy.secret,
        role=role,
        session_id=session_id,
        lifetime=policy.access_lifetime,
        now=clock.timestamp(),
    )
    return {"access_token": access, "expires_in": policy.access_lifetime, "refresh_token": refresh_token}


async def list_devices(db: AsyncSession, user_id: str) -> list[Device]:
    rows = await db.execute(select(Device).where(Device.user_id == user_id).order_by(Device.updated.desc(), Device.id))
    return list(rows.scalars())


async def _find_device(db: AsyncSession, user_id: str, device_id: str) -> Device | None:
    return (
        await db.execute(select(Device).where(Device.user_id == user_id, Device.device_id == device_id))
    ).scalar_one_or_none()


def _touch_device(device: Device, info: DeviceIn, now: datetime) -> None:
    device.device_name = info.device_name
    device.os_name = info.os_name if info.os_name is not None else device.os_name
    device.os_version = info.os_version if info.os_version is not None else device.os_version
    device.app_version = info.app_version if info.app_version is not None else device.app_version
    device.updated = now


async def _start_session(
    db: AsyncSession,
    user: User,
    device: Device,
    provider: str,
    policy: Policy,
    now: datetime,
    client_address: str | None,
) -> tuple[str, str]:
    session = AuthSession(
        id=new_id(),
        user_id=user.id,
        device_ref=device.id,
        provider=provider,
        created=now,
        updated=now,
        expires_at=now + timedelta(seconds=policy.session_lifetime),
        last_used=now,
        client_address=client_address,
    )
    db.add(session)
    refresh = new_refresh_token()
    db.add(
        RefreshToken(
            id=new_id(),
            session_id=session.id,
            token_hash=token_hash(refresh),
            created=now,
            expires_at=min(now + timedelta(seconds=policy.refresh_lifetime), session.expires_at),
        )
    )
    return session.id, refresh


async def sign_in(
    db: AsyncSession,
    user_id: str,
    device_info: DeviceIn,
    *,
    policy: Policy,
    provider: str,
    is_register: bool = False,
    client_address: str | None = None,
) -> SignInResult:
    """Start a session for `user_id` on this device, or stop at the device limit with a ticket.

    The caller opened `db` with `Database.write_session()`; this commits."""
    now = clock.now()
    user = (await db.execute(_for_update(select(User).where(User.id == user_id), db))).scalar_one_or_none()
    if user is None or user.deleted_at is not None:
        raise Unauthorized("Wrong username or password", code="invalid_credentials")
    device = await _find_device(db, user.id, device_info.device_id)
    if device is None:
        count = (
            await db.execute(select(func.count()).select_from(Device).where(Device.user_id == user.id))
        ).scalar_one()
        if count >= policy.device_limit:
            return await _stop_at_limit(db, user, provider, is_register, policy, now)
        device = Device(
            id=new_id(),
            user_id=user.id,
            device_id=device_info.device_id,
            device_name=device_info.device_name,
            os_name=device_info.os_name,
            os_version=device_info.os_version,
            app_version=device_info.app_version,
            created=now,
            updated=now,
        )
        db.add(device)
        await db.flush()
    else:
        _touch_device(device, device_info, now)
    session_id, refresh = await _start_session(db, user, device, provider, policy, now, client_address)
    user.last_sign_in = now
    await db.commit()
    devices = await list_devices(db, user.id)
    return SignInResult(
        user=user,
        provider=provider,
        is_register=is_register,
        devices=devices,
        token_data=access_token_data(user.id, user.role, session_id, refresh, policy),
        session_id=session_id,
    )


async def _stop_at_limit(
    db: AsyncSession, user: User, provider: str, is_register: bool, policy: Policy, now: datetime
) -> SignInResult:
    ticket_id = secrets.token_hex(16)
    db.add(
        LimitTicket(
            id=ticket_id,
            user_id=user.id,
            provider=provider,
            is_register=is_register,
            created=now,
            expires_at=now + timedelta(seconds=policy.ticket_lifetime),
        )
    )
    await db.commit()
    ticket = issue_limit_ticket(
        user.id, ticket_id, secret=policy.secret, lifetime=policy.ticket_lifetime, now=now.timestamp()
    )
    device_error = {
        "code": "device_limit_exceeded",
        "message": "Device Limit Exceeded",
        "limit": policy.device_limit,
        "limit_ticket": ticket,
        "limit_ticket_expires_in": policy.ticket_lifetime,
    }
    return SignInResult(
        user=user,
        provider=provider,
        is_register=is_register,
        devices=await list_devices(db, user.id),
        device_error=device_error,
    )


async def live_limit_ticket(db: AsyncSession, ticket_id: str, user_id: str) -> LimitTicket | None:
    """The ticket if it is unused and unexpired (it may then remove devices)."""
    return (
        await db.execute(
            select(LimitTicket).where(
                LimitTicket.id == ticket_id,
                LimitTicket.user_id == user_id,
                LimitTicket.used_at.is_(None),
                LimitTicket.expires_at > clock.now(),
            )
        )
    ).scalar_one_or_none()


async def complete_with_ticket(
    db: AsyncSession,
    ticket_id: str,
    user_id: str,
    device_info: DeviceIn,
    *,
    policy: Policy,
    client_address: str | None = None,
) -> SignInResult:
    """Spend a limit ticket (once) and sign in again; at the limit still, a new ticket comes back."""
    now = clock.now()
    spent = await db.execute(
        update(LimitTicket)
        .where(
            LimitTicket.id == ticket_id,
            LimitTicket.user_id == user_id,
            LimitTicket.used_at.is_(None),
            LimitTicket.expires_at > now,
        )
        .values(used_at=now)
        .returning(LimitTicket.provider, LimitTicket.is_register)
    )
    row = spent.first()
    if row is None:
        await db.rollback()
        raise LimitTicketInvalid()
    return await sign_in(
        db,
        user_id,
        device_info,
        policy=policy,
        provider=row.provider,
        is_register=row.is_register,
        client_address=client_address,
    )


# Built once, reading plain columns: refreshes are the busiest write, and building ORM statements
# and objects per call cost more than running the SQL.
_REFRESH_LOOKUP = (
    select(
        RefreshToken.id,
        RefreshToken.used_at,
        RefreshToken.expires_at,
        AuthSession.id.label("session_id"),
        AuthSession.revoked_at,
        AuthSession.last_used,
        AuthSession.expires_at.label("session_expires_at"),
        AuthSession.device_ref,
        User.id.label("user_id"),
        User.role,
        User.deleted_at,
        Device.device_id,
    )
    .join(AuthSession, AuthSession.id == RefreshToken.session_id)
    .join(User, User.id == AuthSession.user_id)
    .join(Device, Device.id == AuthSession.device_ref)
    .where(RefreshToken.token_hash == bindparam("token_hash"))
)
_REFRESH_LOOKUP_LOCKED = _REFRESH_LOOKUP.with_for_update(of=RefreshToken)
_ROTATE = (
    update(RefreshToken)
    .where(RefreshToken.id == bindparam("row_id"), RefreshToken.used_at.is_(None))
    .values(used_at=bindparam("used_at"), replaced_by=bindparam("replaced_by"))
    .execution_options(synchronize_session=False)
)
_INSERT_SUCCESSOR = insert(RefreshToken).values(
    id=bindparam("id"),
    session_id=bindparam("session_id"),
    token_hash=bindparam("token_hash"),
    created=bindparam("created"),
    expires_at=bindparam("expires_at"),
)


def _rotation_in_one_statement(*, same_device: bool) -> Select[Any]:
    """The common refresh as one statement (PostgreSQL's data-modifying WITH clauses): an unused,
    unexpired token of a standing session (on the device that asks, when it says) is marked used,
    its successor inserted and the session's last use touched, in one round trip and its own
    transaction. No row when anything is less ordinary: a concurrent refresh got there first (the
    update waits for its row and then finds it used), the token is unknown, used, expired or from
    another device; the caller then takes the general way, which decides those cases."""
    now = bindparam("now", type_=UTCDateTime)
    current = (
        select(
            RefreshToken.id,
            RefreshToken.session_id,
            AuthSession.expires_at.label("session_expires_at"),
            User.id.label("user_id"),
            User.role,
        )
        .join(AuthSession, AuthSession.id == RefreshToken.session_id)
        .join(User, User.id == AuthSession.user_id)
        .where(
            RefreshToken.token_hash == bindparam("token_hash"),
            RefreshToken.used_at.is_(None),
            RefreshToken.expires_at > now,
            AuthSession.revoked_at.is_(None),
            AuthSession.expires_at > now,
            User.deleted_at.is_(None),
        )
    )
    if same_device:
        current = current.join(Device, Device.id == AuthSession.device_ref).where(
            Device.device_id == bindparam("device_id")
        )
    token = current.cte("current_token")
    rotated = (
        update(RefreshToken)
        .where(RefreshToken.id == token.c.id, RefreshToken.used_at.is_(None))
        .values(used_at=now, replaced_by=bindparam("successor_id"))
        .returning(RefreshToken.id, RefreshToken.session_id)
        .cte("rotated")
    )
    added = insert(RefreshToken).from_select(
        ["id", "session_id", "token_hash", "created", "expires_at"],
        select(
            bindparam("successor_id", type_=String),
            rotated.c.session_id,
            bindparam("successor_hash", type_=String),
            now,
            func.least(bindparam("refresh_until", type_=UTCDateTime), token.c.session_expires_at, type_=UTCDateTime),
        ).join_from(rotated, token, token.c.id == rotated.c.id),
    )
    touched = (
        update(AuthSession)
        .where(
            AuthSession.id == rotated.c.session_id, AuthSession.last_used < bindparam("stale_before", type_=UTCDateTime)
        )
        .values(last_used=now, updated=now)  # `updated` too: its onupdate is Python's, not run here
        .returning(AuthSession.device_ref)
        .cte("touched")
    )
    device_touched = update(Device).where(Device.id == touched.c.device_ref).values(updated=now)
    return (
        select(token.c.user_id, token.c.role, token.c.session_id)
        .join_from(token, rotated, rotated.c.id == token.c.id)
        .add_cte(added.cte("added"), device_touched.cte("device_touched"))
    )


_ROTATE_IN_ONE = {same: _rotation_in_one_statement(same_device=same) for same in (False, True)}


async def _refresh_in_one_statement(
    database: Database, token: str, *, policy: Policy, device_id: str | None, now: datetime
) -> dict | None:
    """The common refresh on PostgreSQL in one statement; None where the general way decides."""
    successor = successor_of(token, policy.secret)
    parameters = {
        "token_hash": token_hash(token),
        "now": now,
        "successor_id": new_id(),
        "successor_hash": token_hash(successor),
        "refresh_until": now + timedelta(seconds=policy.refresh_lifetime),
        "stale_before": now - LAST_USED_RESOLUTION,
    }
    if device_id is not None:
        parameters["device_id"] = device_id
    rows = await database.commit_statement(_ROTATE_IN_ONE[device_id is not None], parameters)
    if not rows:
        return None
    row = rows[0]
    return _refresh_result(row.user_id, row.role, row.session_id, successor, policy)


async def refresh(database: Database, token: str, *, policy: Policy, device_id: str | None = None) -> dict:
    """Rotate `token`; answers `{token, expires_in, refresh_token}` or raises RefreshFailed.

    On PostgreSQL the common case is one statement (`_rotation_in_one_statement`). Otherwise, and
    in every other case, one write transaction (Database.write_transaction: on SQLite one hop to
    its writer thread): three statements (read, conditional update, insert) and the commit; a
    session ended for a reused token is committed before RefreshFailed is raised.
    """
    now = clock.now()
    if not database.is_sqlite:
        done = await _refresh_in_one_statement(database, token, policy=policy, device_id=device_id, now=now)
        if done is not None:
            return done
    locked = not database.is_sqlite  # SQLite serialises writers; PostgreSQL locks the token's row
    outcome = await database.write_transaction(
        lambda conn: _refresh_now(conn, token, policy=policy, device_id=device_id, now=now, locked=locked)
    )
    if isinstance(outcome, RefreshFailed):
        raise outcome
    return outcome


def _refresh_now(
    conn: Connection, token: str, *, policy: Policy, device_id: str | None, now: datetime, locked: bool
) -> dict | RefreshFailed:
    """The rotation, on a synchronous connection inside the caller's transaction: the answer,
    or the failure to raise once the transaction is committed."""
    # Concurrent refreshes of one token queue on its row (PostgreSQL; SQLite serialises writers).
    lookup = _REFRESH_LOOKUP_LOCKED if locked else _REFRESH_LOOKUP
    params = {"token_hash": token_hash(token)}
    row = conn.execute(lookup, params).first()
    if row is None:
        return RefreshFailed()
    if row.revoked_at is not None or row.session_expires_at <= now or row.deleted_at is not None:
        return RefreshFailed()
    same_device = device_id is None or device_id == row.device_id
    if row.used_at is None and same_device:
        if row.expires_at <= now:
            return RefreshFailed()
        successor = successor_of(token, policy.secret)
        successor_id = new_id()
        rotate = {"row_id": row.id, "used_at": now, "replaced_by": successor_id}
        add = {
            "id": successor_id,
            "session_id": row.session_id,
            "token_hash": token_hash(successor),
            "created": now,
            "expires_at": min(now + timedelta(seconds=policy.refresh_lifetime), row.session_expires_at),
        }
        if _rotate(conn, rotate, add, locked=locked):
            if now - row.last_used > LAST_USED_RESOLUTION:  # "last used" needs no finer grain
                conn.execute(update(AuthSession).where(AuthSession.id == row.session_id).values(last_used=now))
                conn.execute(update(Device).where(Device.id == row.device_ref).values(updated=now))
            return _refresh_result(row.user_id, row.role, row.session_id, successor, policy)
        row = conn.execute(lookup, params).first()  # another refresh rotated it meanwhile
        if row is None:  # ... or the session went with its device meanwhile
            return RefreshFailed()
    if row.used_at is not None and same_device and now - row.used_at <= timedelta(seconds=policy.grace_seconds):
        current = _live_successor(conn, token, policy, now)
        if current is not None:
            return _refresh_result(row.user_id, row.role, row.session_id, current, policy)
    # A rotated token came back too late, or from another device: it leaked. End the session.
    conn.execute(_REVOKE, {"session_id": row.session_id, "revoked_at": now, "reason": "refresh_token_reuse"})
    return RefreshFailed(revoked=(row.user_id, row.device_id), ended=SessionsEnded((row.session_id,)))


def _rotate(conn: Connection, rotate: dict, add: dict, *, locked: bool) -> bool:
    """Mark the token used and insert its successor; False if another refresh got there first."""
    if locked:
        # The lookup locked the unused row, so the update cannot miss: the successor's insert goes
        # out with it, one round trip for both.
        rotated, _ = run_pipelined(conn, [(_ROTATE, rotate), (_INSERT_SUCCESSOR, add)])
        if rotated != 1:
            raise RuntimeError("a locked refresh token was rotated by another transaction")
        return True
    if conn.execute(_ROTATE, rotate).rowcount != 1:
        return False
    conn.execute(_INSERT_SUCCESSOR, add)
    return True


def _live_successor(conn: Connection, token: str, policy: Policy, now: datetime) -> str | None:
    """Follow the rotation chain from `token` to the refresh token that is still unused."""
    current = token
    for _ in range(MAX_CHAIN):
        current = successor_of(current, policy.secret)
        row = conn.execute(
            select(RefreshToken.used_at, RefreshToken.expires_at).where(RefreshToken.token_hash == token_hash(current))
        ).first()
        if row is None:
            return None
        if row.used_at is None:
            return current if row.expires_at > now else None
    return None


def _refresh_result(user_id: str, role: str, session_id: str, refresh_token: str, policy: Policy) -> dict:
    data = access_token_data(user_id, role, session_id, refresh_token, policy)
    return {"token": data["access_token"], "expires_in": data["expires_in"], "refresh_token": data["refresh_token"]}


_REVOKE = (
    update(AuthSession)
    .where(AuthSession.id == bindparam("session_id"), AuthSession.revoked_at.is_(None))
    .values(revoked_at=bindparam("revoked_at"), revoked_reason=bindparam("reason"))
)


async def revoke_session(db: AsyncSession, session_id: str, *, reason: str) -> bool:
    """Revoke one session (its access and refresh tokens stop working). The caller commits."""
    result = await db.execute(
        update(AuthSession)
        .where(AuthSession.id == session_id, AuthSession.revoked_at.is_(None))
        .values(revoked_at=clock.now(), revoked_reason=reason)
    )
    return rows_changed(result) > 0


async def sign_out(db: AsyncSession, session_id: str | None) -> SessionsEnded:
    """End the caller's own session (logout), committed; answers it, to announce."""
    if session_id is None:
        return SessionsEnded()
    await revoke_session(db, session_id, reason="logout")
    await db.commit()
    return SessionsEnded((session_id,))


async def revoke_user_sessions(
    db: AsyncSession, user_id: str, *, reason: str, keep: str | None = None
) -> SessionsEnded:
    """Revoke every live session of a user except `keep`; answers those it ended. The caller
    commits (and then announces them)."""
    where = [AuthSession.user_id == user_id, AuthSession.revoked_at.is_(None), AuthSession.expires_at > clock.now()]
    if keep:
        where.append(AuthSession.id != keep)
    ended = await db.scalars(
        update(AuthSession)
        .where(*where)
        .values(revoked_at=clock.now(), revoked_reason=reason)
        .returning(AuthSession.id)
        .execution_options(synchronize_session=False)
    )
    return SessionsEnded(tuple(sorted(ended)))


async def sessions_of_device(db: AsyncSession, device_ref: str) -> SessionsEnded:
    """The sessions of one device (a Device row id) that still stand: those its removal ends."""
    ids = await db.scalars(
        select(AuthSession.id).where(
            AuthSession.device_ref == device_ref, AuthSession.revoked_at.is_(None), AuthSession.expires_at > clock.now()
        )
    )
    return SessionsEnded(tuple(sorted(ids)))


async def count_other_sessions(db: AsyncSession, user_id: str, keep: str | None) -> int:
    where = [AuthSession.user_id == user_id, AuthSession.revoked_at.is_(None), AuthSession.expires_at > clock.now()]
    if keep:
        where.append(AuthSession.id != keep)
    return (await db.execute(select(func.count()).select_from(AuthSession).where(*where))).scalar_one()


async def remove_device(db: AsyncSession, user_id: str, device_id: str) -> tuple[Device, SessionsEnded]:
    """Delete one of the user's devices; its sessions and refresh tokens go with it (cascade).
    Answers the device and the sessions that ended with it.

    Matches the device's `deviceId` (the browser's identification string) or its `_id`.
    The caller commits, then tells the device through `remove-user-device` and announces the
    sessions' end."""
    device = (
        (
            await db.execute(
                select(Device).where(
                    Device.user_id == user_id, (Device.device_id == device_id) | (Device.id == device_id)
                )
            )
        )
        .scalars()
        .first()
    )
    if device is None:
        raise NotFound("Device not found", code="device_not_found")
    ended = await sessions_of_device(db, device.id)
    await db.delete(device)
    await db.flush()
    return device, ended


async def remove_own_device(
    db: AsyncSession, user_id: str, device_id: str
) -> tuple[Device, list[Device], SessionsEnded]:
    """A viewer removes one of their devices (`remove_device`), committed; with the devices left
    and the sessions that ended. The caller then tells the removed device through
    `remove-user-device` and announces the sessions' end."""
    removed, ended = await remove_device(db, user_id, device_id)
    await db.commit()
    return removed, await list_devices(db, user_id), ended


async def check_device(
    db: AsyncSession, user_id: str, device_info: DeviceIn, *, register: bool, policy: Policy
) -> tuple[bool, list[Device]]:
    """Whether this device belongs to the account (registering it when asked and allowed)."""
    device = await _find_device(db, user_id, device_info.device_id)
    now = clock.now()
    if device is not None:
        _touch_device(device, device_info, now)
        await db.commit()
        return True, await list_devices(db, user_id)
    if register:
        count = (
            await db.execute(select(func.count()).select_from(Device).where(Device.user_id == user_id))
        ).scalar_one()
        if count < policy.device_limit:
            db.add(
                Device(
                    id=new_id(),
                    user_id=user_id,
                    device_id=device_info.device_id,
                    device_name=device_info.device_name,
                    os_name=device_info.os_name,
                    os_version=device_info.os_version,
                    app_version=device_info.app_version,
                    created=now,
                    updated=now,
                )
            )
            await db.commit()
            return True, await list_devices(db, user_id)
    return False, await list_devices(db, user_id)


__all__ = [
    "Alive",
    "DeviceIn",
    "LimitTicketInvalid",
    "Policy",
    "RefreshFailed",
    "SessionsEnded",
    "SignInResult",
    "check_device",
    "complete_with_ticket",
    "count_other_sessions",
    "list_devices",
    "live_limit_ticket",
    "refresh",
    "remove_device",
    "revoke_session",
    "revoke_user_sessions",
    "session_alive",
    "sessions_of_device",
    "sign_in",
    "successor_of",
    "token_hash",
]
