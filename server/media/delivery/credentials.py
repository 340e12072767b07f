"""Who a stream request plays for: the viewer's access token from the `Authorization: Bearer`
header (hls.js sends it), else from the `touchline_media` cookie that native HLS players carry
(set by `POST /api/user/media_cookie`: they cannot add headers to their own requests)."""

from http.cookies import CookieError, SimpleCookie

from starlette.types import Scope

MEDIA_COOKIE = "touchline_media"
MEDIA_COOKIE_PATH = "/media/s/"


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return ""


def viewer_token(scope: Scope) -> str | None:
    """The access token a media request carries: the bearer header first, then the cookie."""
    kind, _, token = _header(scope, b"authorization").partition(" ")
    if kind.lower() == "bearer" and token.strip():
        return token.strip()
    raw = _header(scope, b"cookie")
    if not raw:
        return None
    try:
        jar = SimpleCookie(raw)
    except CookieError:
        return None
    morsel = jar.get(MEDIA_COOKIE)
    return morsel.value if morsel is not None and morsel.value else None
