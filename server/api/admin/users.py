"""Accounts for support staff: find them, look at their sessions and devices, end a session or
remove a device (the device is told over the socket, as when the viewer removes it)."""

import logging

from ...models import Device
from ...realtime import emitter
from ...services import staff_users
from ...services.paging import PageQuery
from ..http.background import Work, ok_then
from ..http.context import settings, staff
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok, page_of
from ..presenters.account import device as present_device
from ..presenters.account import profile as present_profile

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
    tell = _tell_signed_out(id_, revoked.session.device.device_id) if revoked.ended else None
    return ok_then(present_session(revoked.session), tell)


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
    return ok_then(_devices(removed.remaining), _tell_signed_out(id_, removed.device.device_id))


__all__ = ["find_users", "get_user", "list_user_devices", "list_user_sessions", "revoke_device", "revoke_session"]
