"""Access codes for staff: issue a batch granting a product, list codes, revoke one."""

import logging

from ...services.commerce import access_codes
from ...services.paging import PageQuery
from ..http.audit import note_target
from ..http.context import staff, state
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok, page_of
from ..http.instants import instant_field

log = logging.getLogger(__name__)


def present(view: access_codes.CodeView) -> dict:
    code = view.code
    return {
        "_id": code.id,
        "code": code.display_code,
        "batchId": code.batch_id,
        "product_id": code.product_id,
        "event_id": view.event_id,
        "uses": code.uses,
        "redeemedCount": code.redeemed_count,
        "status": view.status,
        "revoked": code.revoked_at is not None,
        "expires_at": iso(code.expires_at),
        "added": iso(code.created),
        "redemptions": [{"userId": r.user_id, "redeemedAt": iso(r.redeemed_at)} for r in view.redemptions],
    }


async def issue_access_codes(body: dict):
    principal = await staff()
    batch = await access_codes.issue(
        state("database"),
        count=body["count"],
        product_id=body.get("product_id"),
        event_id=body.get("event_id"),
        uses=body.get("uses", 1),
        expires_at=instant_field("expires_at", body.get("expires_at"), naive_is_utc=True),
        prefix=body.get("prefix"),
        issued_by=principal.user_id,
    )
    note_target(batch.batch_id)
    log.info(
        "staff %s issued %d access codes (batch %s) for product %s",
        principal.user_id,
        len(batch.codes),
        batch.batch_id,
        batch.product_id,
    )
    return ok(
        {
            "batchId": batch.batch_id,
            "product_id": batch.product_id,
            "count": len(batch.codes),
            "uses": batch.uses,
            "expires_at": iso(batch.expires_at),
            "codes": batch.codes,
        }
    )


async def list_access_codes(
    product_id: str | None = None,
    event_id: str | None = None,
    batch_id: str | None = None,
    status: str | None = None,
    code: str | None = None,
    page: int = 0,
    size: int = 10,
    next_: bool = False,
    count: bool = False,
):
    await staff()
    filters = access_codes.Filters(
        product_id=product_id, event_id=event_id, batch_id=batch_id, status=status, code=code
    )
    async with db_session() as db:
        result = await access_codes.list_codes(db, filters, PageQuery(page, size, next_, count))
    return page_of(result, present)


async def get_access_code(id_: str):
    await staff()
    async with db_session() as db:
        view = await access_codes.get(db, id_)
    return ok(present(view))


async def revoke_access_code(id_: str):
    principal = await staff()
    async with db_write_session() as db:
        view = await access_codes.revoke(db, id_)
    log.info("staff %s revoked access code %s", principal.user_id, id_)
    return ok(present(view))


__all__ = ["get_access_code", "issue_access_codes", "list_access_codes", "revoke_access_code"]
