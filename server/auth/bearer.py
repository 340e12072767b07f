"""Connexion's bearer security bound to Touchline's access tokens.

Connexion looks up `x-bearerInfoFunc` per document; binding the verifier here instead keeps
the secret out of module globals and lets tests build apps with their own settings.
"""

from collections.abc import Callable
from typing import Any

from connexion.security import BearerSecurityHandler

from ..settings import Settings
from .tokens import verify_access_token, verify_limit_ticket

# token_info["kind"]: what the bearer token is. Only `POST /user/delete_device` accepts a limit
# ticket (server.api.http.context.signed_in refuses it everywhere else).
ACCESS = "access"
LIMIT_TICKET = "limit_ticket"


def security_map(settings: Settings) -> dict[str, type[BearerSecurityHandler]]:
    def token_info(token: str) -> dict[str, Any] | None:
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

    return {"bearer": TouchlineBearer}
