"""Accounts for support staff: find them, look at their sessions and devices, end a session or
remove a device (the device is told over the socket, as when the viewer removes it); their
purchases, contracts and follows in the viewer-side shapes (products as in admin lists)."""

import logging

from ... import clock
from ...models import Device
from ...realtime import emitter
from ...realtime.announcements import announce_role_changed, announce_sessions_ended
from ...services import staff_users
from ...services.commerce import products
from ...services.paging import PageQuery
from ...services.sessions import SessionsEnded
from ..http.audit import note_detail
from ..http.background import Work, ok_then
from ..http.context import settings, staff
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok, page_of
from ..presenters import commerce as present_commerce
from ..presenters.account import device as present_device
from ..presenters.account import profile as present_profile
from ..presenters.catalogue import followed

log = logging.getLogger(__name__)


def present_account(account: staff_users.Account) -> dict:
    user = account.user
    return {
        "userId": user.id,
        "added": iso(user.created),
        "email": user.email,
        "displayName": user.display_name,
        "role": user.role,
        "providers": account.providers,
        "deviceCount": account.device_count,
        "activeSessionCount": account.active_session_count,
        "lastSignIn": iso(user.last_sign_in),
        "deleted": account.deleted,
    }


def present_session(entry: staff_users.SessionOnDevice) -> dict:
    session, device = entry.session, entry.device
    return {
        "_id": session.id,
        "userId": session.user_id,
        "deviceId": device.device_id,
        "deviceName": device.device_name,
        "provider": session.provider,
        "added": iso(session.created),
        "lastUsed": iso(session.last_used),
        "expiresAt": iso(session.expires_at),
        "revoked": session.revoked_at is not None,
        "revokedAt": iso(session.revoked_at),
    }


def _devices(devices: list[Device]) -> dict:
    return {"devices": [present_device(d) for d in devices], "limit": settings().device_limit}


def _end_sessions(ended: SessionsEnded) -> Work:
    """Work that ends the sessions' streams and sockets, after the device was told."""

    async def end() -> None:
        await announce_sessions_ended(ended)

    return end


def _tell_signed_out(user_id: str, device_id: str) -> Work:
    """Work that sends remove-user-device to the account's room: that device's client signs out."""

    async def tell() -> None:
        await emitter.emit_remove_user_device(user_id, device_id)

    return tell


async def find_users(q: str, role: str | None = None, page: int = 0, size: int = 10):
    await staff()
    async with db_session() as db:
        result = await staff_users.find_users(db, q=q, role=role, query=PageQuery(page, size))
    return page_of(result, present_account)


async def get_user(id_: str):
    await staff()
    async with db_session() as db:
        account = await staff_users.get_user(db, id_)
    return ok({"user": present_account(account), "profile": present_profile(account.user)})


async def set_user_role(id_: str, body: dict):
    principal = await staff()
    # An API key acts for the account that made it: that account cannot change its own role either.
    async with db_write_session() as db:
        before = (await staff_users.get_user(db, id_)).user.role
        account = await staff_users.set_role(db, id_, body["role"], by=principal.user_id)
    note_detail({"oldRole": before, "newRole": account.user.role})
    log.info("staff %s gave user %s the role %s", principal.user_id, id_, body["role"])
    # Before answering: a role taken away ends the account's room watches at once, everywhere.
    await announce_role_changed(id_, account.user.role)
    return ok({"user": present_account(account), "profile": present_profile(account.user)})


async def list_user_sessions(id_: str, active: bool = True, page: int = 0, size: int = 10):
    await staff()
    async with db_session() as db:
        result = await staff_users.list_sessions(db, id_, active=active, query=PageQuery(page, size))
    return page_of(result, present_session)


async def revoke_session(id_: str, session_id: str):
    principal = await staff()
    async with db_write_session() as db:
        revoked = await staff_users.revoke_session(db, id_, session_id)
    log.info("staff %s revoked session %s of user %s", principal.user_id, session_id, id_)
    if not revoked.ended:
        return ok_then(present_session(revoked.session))
    tell = _tell_signed_out(id_, revoked.session.device.device_id)
    return ok_then(present_session(revoked.session), tell, _end_sessions(SessionsEnded((revoked.session.session.id,))))


async def list_user_devices(id_: str):
    await staff()
    async with db_session() as db:
        devices = await staff_users.list_devices(db, id_)
    return ok(_devices(devices))


async def revoke_device(id_: str, device_id: str):
    principal = await staff()
    async with db_write_session() as db:
        removed = await staff_users.revoke_device(db, id_, device_id)
    log.info("staff %s removed device %s of user %s", principal.user_id, device_id, id_)
    return ok_then(
        _devices(removed.remaining), _tell_signed_out(id_, removed.device.device_id), _end_sessions(removed.ended)
    )


async def list_user_purchases(id_: str, page: int = 0, size: int = 10):
    await staff()
    async with db_session() as db:
        result = await staff_users.list_purchases(db, id_, PageQuery(page, size))
        bought = await products.views_of(db, {p.product_id for p in result.entries})
    return page_of(
        result, lambda p: present_commerce.purchase(p, present_commerce.product_view(bought[p.product_id], None))
    )


async def list_user_contracts(id_: str, page: int = 0, size: int = 10):
    await staff()
    now = clock.now()
    async with db_session() as db:
        result = await staff_users.list_contracts(db, id_, PageQuery(page, size))
        bought = await products.views_of(db, {c.product_id for c in result.entries})
    return page_of(
        result,
        lambda c: present_commerce.contract(
            c, present_commerce.product_view(bought[c.product_id], None), gives_access=c.gives_access(now)
        ),
    )


async def list_user_follows(id_: str, page: int = 0, size: int = 10):
    await staff()
    async with db_session() as db:
        result = await staff_users.list_follows(db, id_, PageQuery(page, size))
    return page_of(result, followed)


__all__ = [
    "find_users",
    "get_user",
    "list_user_contracts",
    "list_user_devices",
    "list_user_follows",
    "list_user_purchases",
    "list_user_sessions",
    "revoke_device",
    "revoke_session",
    "set_user_role",
]
