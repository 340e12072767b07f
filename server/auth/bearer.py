"""Connexion's bearer security bound to Touchline's access tokens.

Connexion looks up `x-bearerInfoFunc` per document; binding the verifier here instead keeps
the secret out of module globals and lets tests build apps with their own settings.
"""

from connexion.security import BearerSecurityHandler

from ..settings import Settings
from .tokens import verify_access_token


def security_map(settings: Settings) -> dict:
    def token_info(token: str):
        claims = verify_access_token(token, secret=settings.secret_key)
        if claims is None:
            return None  # Connexion answers 401 "Provided token is not valid"
        return {"sub": claims.user_id, "sid": claims.session_id, "role": claims.role, "scope": []}

    class TouchlineBearer(BearerSecurityHandler):
        def _resolve_func(self, security_scheme):
            return token_info

    return {"bearer": TouchlineBearer}
