"""Handlers for the `identity` tag."""

from ...services import identities as identities_service
from ...services.identities import IdentityFilters
from ...services.paging import PageQuery
from ..http.cache import cached_for_anonymous
from ..http.database import db_read_session
from ..http.envelope import ok, page_of
from ..presenters import catalogue as presenters


@cached_for_anonymous
async def list_identities(body: dict):
    raw = body.get("filters") or {}
    filters = IdentityFilters(
        media_type=raw.get("media_type", "identity"),
        parent_id=raw.get("identityId"),
        archived=raw.get("archived"),
    )
    size = body.get("size", body.get("pageSize", 10))
    query = PageQuery(body.get("page", 0), size, bool(body.get("next")), bool(body.get("count")))
    async with db_read_session() as db:
        result = await identities_service.list_identities(
            db, filters, body.get("sort", "order"), body.get("order", "asc") == "desc", query
        )
    return page_of(result, presenters.identity)


@cached_for_anonymous
async def get_identity_by_id(id_: str):
    async with db_read_session() as db:
        view = await identities_service.get_identity(db, id_)
    return ok(presenters.identity(view))
