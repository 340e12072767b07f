"""Short-lived access tokens: HS256 JWTs signed with the server's secret.

Claims: `sub` (user id), `sid` (session id, so a revoked session's tokens can be refused),
`role` (`viewer`, `support` or `admin`), `iat`, `exp`. A token issued before the `staff` role
was split still verifies: its `staff` claim reads as `admin` (what `staff` became). Refresh
tokens are opaque and live in the database; only access tokens are self-contained.

Limit tickets (a sign-in stopped at the device limit) are JWTs too, with `typ: limit` and a
`jti` that the database makes single-use. Each verifier refuses the other kind, so a ticket
can never be used as an access token.
"""

from collections import OrderedDict
from dataclasses import dataclass

import jwt
from jwt.types import Options

from .. import clock

ALGORITHM = "HS256"
ROLES = ("viewer", "support", "admin")
# Staff roles, least powerful first: a role may do what the roles before it may.
STAFF_ROLES = ("support", "admin")
LEGACY_ROLES = {"staff": "admin"}
DEFAULT_LIFETIME_S = 15 * 60


@dataclass(frozen=True)
class TokenClaims:
    user_id: str
    session_id: str | None
    role: str
    expires_at: int


def issue_access_token(
    user_id: str,
    *,
    secret: str,
    role: str = "viewer",
    session_id: str | None = None,
    lifetime: int = DEFAULT_LIFETIME_S,
    now: float | None = None,
) -> str:
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    issued = int(now if now is not None else clock.timestamp())
    claims = {"sub": user_id, "role": role, "iat": issued, "exp": issued + lifetime}
    if session_id:
        claims["sid"] = session_id
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


LIMIT_TICKET_TYPE = "limit"


@dataclass(frozen=True)
class LimitTicketClaims:
    user_id: str
    ticket_id: str
    expires_at: int


def issue_limit_ticket(user_id: str, ticket_id: str, *, secret: str, lifetime: int, now: float | None = None) -> str:
    issued = int(now if now is not None else clock.timestamp())
    claims = {"sub": user_id, "jti": ticket_id, "typ": LIMIT_TICKET_TYPE, "iat": issued, "exp": issued + lifetime}
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


# Lifetimes are checked against server.clock (tokens are issued with it), not PyJWT's wall clock.
_OWN_TIME_CHECKS: Options = {"verify_exp": False, "verify_iat": False, "verify_nbf": False}


def _within_lifetime(claims: dict, leeway: int) -> bool:
    """Issued, not yet expired and (when it says so) already valid, on server.clock. Our tokens
    carry no `nbf` and no `iss`: a token naming an issuer was made for, or by, someone else."""
    issued, expires, not_before = claims.get("iat"), claims.get("exp"), claims.get("nbf", 0)
    if not (
        isinstance(issued, (int, float)) and isinstance(expires, (int, float)) and isinstance(not_before, (int, float))
    ):
        return False
    if "iss" in claims:
        return False
    now = clock.timestamp()
    return issued - leeway <= now < expires + leeway and now >= not_before - leeway


def verify_limit_ticket(token: str, *, secret: str) -> LimitTicketClaims | None:
    """The ticket's claims, or None (malformed, forged, expired, or not a ticket). Single use is
    the database's job (server.services.sessions)."""
    try:
        claims = jwt.decode(
            token, secret, algorithms=[ALGORITHM], options={**_OWN_TIME_CHECKS, "require": ["sub", "exp", "iat", "jti"]}
        )
    except jwt.PyJWTError:
        return None
    if not _within_lifetime(claims, 0):
        return None
    if (
        claims.get("typ") != LIMIT_TICKET_TYPE
        or not isinstance(claims["sub"], str)
        or not isinstance(claims["jti"], str)
    ):
        return None
    return LimitTicketClaims(claims["sub"], claims["jti"], int(claims["exp"]))


# Access tokens already verified: a viewer sends the same token with every call for its 15
# minutes, and checking its signature and claims again each time cost more than the rest of a
# cached answer. Keyed by the whole token (and the key it was checked with), so only that exact
# string hits; expiry is checked again on every hit; failures are never kept.
VERIFIED_ENTRIES = 65_536
_verified: OrderedDict[tuple[str, str], tuple[TokenClaims, float]] = OrderedDict()


def verify_access_token(token: str, *, secret: str, leeway: int = 5) -> TokenClaims | None:
    """The token's claims, or None when it is malformed, forged, expired or incomplete."""
    known = _verified.get((token, secret))
    if known is not None:
        claims, issued = known
        now = clock.timestamp()
        if issued - leeway <= now < claims.expires_at + leeway:
            return claims
        del _verified[(token, secret)]
        return None
    verified = _verify_access_token(token, secret=secret, leeway=leeway)
    if verified is not None:
        _verified[(token, secret)] = verified
        while len(_verified) > VERIFIED_ENTRIES:
            _verified.popitem(last=False)
        return verified[0]
    return None


def _verify_access_token(token: str, *, secret: str, leeway: int) -> tuple[TokenClaims, float] | None:
    try:
        claims = jwt.decode(
            token, secret, algorithms=[ALGORITHM], options={**_OWN_TIME_CHECKS, "require": ["sub", "exp", "iat"]}
        )
    except jwt.PyJWTError:
        return None
    if not _within_lifetime(claims, leeway):
        return None
    if "typ" in claims:  # a limit ticket (or anything else that is not an access token)
        return None
    role = claims.get("role", "viewer")
    role = LEGACY_ROLES.get(role, role) if isinstance(role, str) else role
    if role not in ROLES or not isinstance(claims["sub"], str):
        return None
    return TokenClaims(claims["sub"], claims.get("sid"), role, int(claims["exp"])), claims["iat"]
