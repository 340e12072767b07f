"""Who may call an admin operation: the role its contract entry names, checked in one place.

Every operation of the `admin` tag states `x-touchline-role: support|admin` in
openapi/openapi.yaml. The resolver (server/api/http/routing.py, given `guard` by server.app) wraps its
handler with `require_role`, which runs before the handler: it recognises the caller, a staff account's
bearer token or an API key (`Authorization: Bearer tlk_...` or `X-API-Key`), refuses a role
below the operation's with 403 `forbidden_role`, and tells the audit log who is asking. An
operation of the tag without the extension needs `admin` (server/tests/test_contract.py makes
sure none is left without).
"""

import functools
from collections.abc import Callable
from typing import Any

from connexion import request
from connexion.context import context

from ...auth.bearer import API_KEY
from ...auth.tokens import STAFF_ROLES
from ...errors import Forbidden, Unauthorized
from ...services import api_keys, audit
from .audit import note_actor
from .context import Principal, signed_in
from .database import db_session

STAFF_TAG = "admin"
ROLE_EXTENSION = "x-touchline-role"
DEFAULT_ROLE = "admin"


def allowed(role: str, needed: str) -> bool:
    """`role` may do what `needed` may (admin > support > anything else)."""
    return role in STAFF_ROLES and STAFF_ROLES.index(role) >= STAFF_ROLES.index(needed)


async def _caller() -> tuple[Principal, audit.Actor]:
    info = context.get("token_info") or {}
    if info.get("kind") == API_KEY:
        async with db_session() as db:
            holder = await api_keys.authenticate(db, info["key"])
        if holder.created_by is None:
            raise Unauthorized("This API key's account no longer exists", code="api_key_revoked")
        principal = Principal(holder.created_by, None, holder.role, None, key_id=holder.key_id)
        return principal, audit.Actor("key", holder.key_id, f"{holder.name} ({holder.prefix}…)")
    principal = await signed_in(fresh=True)  # a demoted account loses its role at once
    async with db_session() as db:
        label = await audit.user_label(db, principal.user_id)
    return principal, audit.Actor("user", principal.user_id, label)


def guard(function: Callable[..., Any], tag: str, operation: dict) -> Callable[..., Any]:
    """For the resolver: the admin tag's handlers behind their contract role; others unchanged."""
    if tag != STAFF_TAG:
        return function
    return require_role(function, operation.get(ROLE_EXTENSION, DEFAULT_ROLE))


def require_role(function: Callable[..., Any], role: str) -> Callable[..., Any]:
    """`function` behind the role check (its signature is kept: Connexion reads it)."""
    if role not in STAFF_ROLES:
        raise LookupError(f"{ROLE_EXTENSION} of {function.__name__} must be one of {STAFF_ROLES}, not {role!r}")

    @functools.wraps(function)
    async def guarded(*args: Any, **kwargs: Any) -> Any:
        principal, actor = await _caller()
        note_actor(actor)
        if not allowed(principal.role, role):
            if principal.is_staff:
                raise Forbidden(f"This needs the {role} role; yours is {principal.role}", code="forbidden_role")
            raise Forbidden("Staff only", code="forbidden_role")
        request.state.staff_principal = principal
        return await function(*args, **kwargs)

    guarded.required_role = role  # type: ignore[attr-defined]
    return guarded
