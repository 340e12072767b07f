"""API keys for scripts (admin only): make one (its secret is shown once), list, revoke."""

import logging

from ...services import api_keys
from ...services.paging import PageQuery
from ..http.audit import note_detail, note_target
from ..http.context import staff
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok, page_of
from ..http.instants import instant_field

log = logging.getLogger(__name__)


def present(view: api_keys.KeyView) -> dict:
    key = view.key
    return {
        "_id": key.id,
        "name": key.name,
        "role": key.role,
        "prefix": key.prefix,
        "status": view.status,
        "createdBy": key.created_by,
        "createdByEmail": view.created_by_email,
        "added": iso(key.created),
        "expires_at": iso(key.expires_at),
        "revokedAt": iso(key.revoked_at),
        "lastUsed": iso(key.last_used),
    }


async def create_api_key(body: dict):
    principal = await staff()
    async with db_session() as db:
        created = await api_keys.create_key(
            db,
            name=body["name"].strip(),
            role=body["role"],
            expires_at=instant_field("expires_at", body.get("expires_at")),
            created_by=principal.user_id,
            created_by_key=principal.key_id,  # a key's key is capped by it and revoked with it
        )
    note_target(created.view.key.id)
    note_detail({"role": created.view.key.role, "name": created.view.key.name})
    log.info("staff %s made API key %s (%s)", principal.user_id, created.view.key.id, created.view.key.role)
    return ok({"key": present(created.view), "secret": created.secret})


async def list_api_keys(revoked: bool = False, page: int = 0, size: int = 10):
    await staff()
    async with db_session() as db:
        result = await api_keys.list_keys(db, include_revoked=revoked, query=PageQuery(page, size))
    return page_of(result, present)


async def revoke_api_key(id_: str):
    principal = await staff()
    async with db_write_session() as db:
        view = await api_keys.revoke_key(db, id_)
    log.info("staff %s revoked API key %s", principal.user_id, id_)
    return ok(present(view))
