"""Connexion's bearer security bound to Touchline's access tokens.

Connexion looks up `x-bearerInfoFunc` per document; binding the verifier here instead keeps
the secret out of module globals and lets tests build apps with their own settings.
"""

from collections.abc import Callable
from typing import Any

from connexion.security import ApiKeySecurityHandler, BearerSecurityHandler

from ..settings import Settings
from .api_keys import looks_like_key
from .tokens import verify_access_token, verify_limit_ticket

# token_info["kind"]: what the bearer token is. Only `POST /user/delete_device` accepts a limit
# ticket (server.api.http.context.signed_in refuses it everywhere else).
ACCESS = "access"
LIMIT_TICKET = "limit_ticket"
# An API key (`Authorization: Bearer tlk_...` or `X-API-Key: tlk_...`): only admin operations take
# one, and check it against the database before the handler runs (server/api/http/staff_access.py).
API_KEY = "api_key"


def _api_key_info(key: str) -> dict[str, Any] | None:
    if not looks_like_key(key):
        return None
    return {"sub": None, "sid": None, "role": None, "kind": API_KEY, "key": key, "scope": []}


def security_map(settings: Settings) -> dict[str, type[BearerSecurityHandler] | type[ApiKeySecurityHandler]]:
    def token_info(token: str) -> dict[str, Any] | None:
        if looks_like_key(token):
            return _api_key_info(token)
        claims = verify_access_token(token, secret=settings.secret_key)
        if claims is not None:
            return {"sub": claims.user_id, "sid": claims.session_id, "role": claims.role, "kind": ACCESS, "scope": []}
        ticket = verify_limit_ticket(token, secret=settings.secret_key)
        if ticket is not None:
            return {
                "sub": ticket.user_id,
                "sid": None,
                "role": "viewer",
                "kind": LIMIT_TICKET,
                "ticket_id": ticket.ticket_id,
                "scope": [],
            }
        return None  # Connexion answers 401 "Provided token is not valid"

    class TouchlineBearer(BearerSecurityHandler):
        def _resolve_func(self, security_scheme: dict[str, Any]) -> Callable[[str], dict[str, Any] | None]:
            return token_info

    class TouchlineApiKey(ApiKeySecurityHandler):
        def _resolve_func(self, security_scheme: dict[str, Any]) -> Callable[[str], dict[str, Any] | None]:
            return _api_key_info

    return {"bearer": TouchlineBearer, "apiKey": TouchlineApiKey}
