"""Native HLS players (no Media Source Extensions) cannot send a bearer header with stream
requests: the viewer's access token rides in an HttpOnly cookie scoped to the signed media path
instead (ARCHITECTURE.md, "Decisions": native HLS playback)."""

from datetime import UTC, datetime
from urllib.parse import urlsplit

from connexion import request

from ... import clock
from ...auth.tokens import verify_access_token
from ...errors import Unauthorized
from ...media.delivery.credentials import MEDIA_COOKIE, MEDIA_COOKIE_PATH
from ..http.context import settings, signed_in
from ..http.envelope import ok


async def set_media_cookie():
    await signed_in()  # the session still stands
    kind, _, token = request.headers.get("Authorization", "").partition(" ")
    claims = verify_access_token(token.strip(), secret=settings().secret_key) if kind.lower() == "bearer" else None
    if claims is None:
        raise Unauthorized("Provided token is not valid")
    max_age = max(0, claims.expires_at - int(clock.timestamp()))
    secure = "; Secure" if _over_https() else ""
    attributes = f"Path={MEDIA_COOKIE_PATH}; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}"
    cookie = f"{MEDIA_COOKIE}={token.strip()}; {attributes}"
    expires = datetime.fromtimestamp(claims.expires_at, UTC).isoformat().replace("+00:00", "Z")
    return ok({"expiresAt": expires}), 200, {"Set-Cookie": cookie}


def _over_https() -> bool:
    """Whether browsers reach us over https: the public address says so (in any case), or this
    request came over it (directly, or through a proxy uvicorn trusts to say so)."""
    return urlsplit(settings().base_url).scheme.lower() == "https" or request.url.scheme == "https"
