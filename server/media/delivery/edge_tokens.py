"""Stream tokens an edge can check (issue 30): one path prefix, an expiry and a MAC, nothing else.

Every media URL of the edge layout (server.media.delivery.urls) means the same for every viewer:
what it serves is in its path alone. A token is a capability for one *scope*, the directory a
stream's playlists and segments lie in, and travels beside the path, never in it:

    ?token=<token>              on the first request (the player's master playlist); the answer
                                sets the cookie below, so the playlists' relative URIs need no
                                token of their own
    Cookie: tl_media=<token>    HttpOnly, `Path=/media/<scope>`: the browser sends it with every
                                request below the scope, native HLS players included, and a
                                viewer watching four streams holds four cookies, one per path

A cache keys its answers by path alone (it ignores the query and the cookie), so one copy of a
segment serves every viewer, whatever their token.

The token is nginx's `secure_link` (the edge checks it with no application code):

    <token>  = <expires>.<mac>           expires: epoch seconds
    <mac>    = base64url(MD5("<expires><scope> <edge key>")), unpadded
    <scope>  = scope_of(path), e.g. `vod/<asset>/`; `<edge key>` = edge_key(secret_key)

which is what `secure_link_md5 "$secure_link_expires$media_scope <edge key>"` computes, with
`$media_scope` the same rule as `scope_of` written as an nginx `map` (server/media/delivery/edge_nginx.py).
MD5 because secure_link offers nothing else; the key is at the end of the hashed text (no length
extension) and the only texts signed are our own scopes. The server checks the same tokens
itself when no edge is in front (`make run`).

For a CDN that checks tokens of its own kind, `TOUCHLINE_STREAM_TOKEN_FLAVOUR=akamai` makes them
EdgeAuth 2.0 tokens (Akamai's Token Auth; other CDNs' token checks take the same shape), carried
the same way:

    <token>  = exp=<expires>~acl=/media/<scope>*~hmac=<hex HMAC-SHA256(key bytes, "exp=<expires>~acl=/media/<scope>*")>

An ACL is a path prefix: the token opens every path below its scope's, as the CDN checks it (an
asset's token then also opens the games and clips of that asset, made of the same segments; a
clip's never opens its asset). `touchline cluster` runs its nginx edge for `secure_link` alone.
Both are made with the same key (`TOUCHLINE_STREAM_TOKEN_KEY`, hex; by default derived from the
secret key), which an operator shares with the CDN.

What a token no longer carries, and where that moved (ARCHITECTURE.md, "Media at the edge"):
the viewer, their sign-in session and their region are checked when the token is issued (the
event answer signs only for a viewer entitled there and then); a token lives
`edge_token_seconds`, and the player renews it before then. A logout or a session ended by staff
stops the media within that lifetime: the bound, stated and tested.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from .urls import MADE_PATTERN

if TYPE_CHECKING:
    from ...settings import Settings

Flavour = Literal["secure_link", "akamai"]

EXPIRED = "stream_token_expired"
DENIED = "stream_access_denied"
EDGE_COOKIE = "tl_media"
TOKEN_PARAMETER = "token"
_KEY_LABEL = b"touchline-edge-v1"

# One path part, as server.media.delivery.reach.PART: no empty, `.` or `..` parts.
_PART = r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,239}"
# The scopes, most specific first (the nginx map tries its regular expressions in this order):
#   vod/<asset>/clip-<from>-<to>/   a clip or highlight: its own playlists and its range's segments
#   vod/<asset>/game-<seconds>/     an archived game: a sample looped for its length
#   vod/<asset>/keys-<ranges>/      a catch-up: its playlists and its ranges' segments
#   vod/<asset>/                    the asset as stored: its master, renditions, files and previews
#   live/<asset>/                   its live stream, from any kickoff (`from-<start>/`)
SCOPE_PATTERNS = (
    rf"(?:vod/{_PART}/{MADE_PATTERN}/)",
    rf"(?:(?:vod|live)/{_PART}/)",
)
_SCOPE = re.compile(rf"^(?P<scope>{'|'.join(SCOPE_PATTERNS)})")
_TOKEN = re.compile(r"^(?P<expires>[0-9]{1,12})\.(?P<mac>[A-Za-z0-9_-]{22})$")


def scope_of(path: str) -> str | None:
    """The scope a media path (below `/media/`, no query) lies in, or None when it lies in none.
    A path lies in exactly one scope: a clip's or game's directory is not its asset's."""
    found = _SCOPE.match(path)
    return found["scope"] if found is not None else None


class StreamDenied(Exception):
    """The request may not have this media; `code` is the envelope's messageErrorCode."""

    def __init__(self, message: str, code: str = DENIED):
        super().__init__(message)
        self.message = message
        self.code = code


@lru_cache(maxsize=8)
def edge_key(secret: str) -> str:
    """The key edge tokens are hashed with: derived from `secret_key` for them alone (hex, so it
    can be written into nginx's configuration as it is)."""
    return hmac.new(secret.encode(), _KEY_LABEL, hashlib.sha256).hexdigest()


def _mac(expires: int, scope: str, key: str) -> str:
    # nginx's secure_link offers MD5 alone; keyed, over our own scopes only (module docstring).
    digest = hashlib.md5(f"{expires}{scope} {key}".encode()).digest()  # nosec B324
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


@dataclass(frozen=True)
class EdgeGrant:
    scope: str  # the scope the token names (an Akamai-style token: its ACL's prefix)
    expires_at: int


_INVALID = "This stream link is not valid"
_EXPIRED = "This stream link has expired, reload the event for a new one"
_AKAMAI = re.compile(
    r"^exp=(?P<expires>[0-9]{1,12})~acl=/media/(?P<scope>[A-Za-z0-9._/-]{1,300})\*~hmac=(?P<mac>[0-9a-f]{64})$"
)


@dataclass(frozen=True)
class EdgeSigner:
    """Issues and checks the stream tokens of one flavour with one key (hex)."""

    flavour: Flavour
    key: str

    def issue(self, scope: str, expires: int) -> str:
        """A token opening `scope` (a value of scope_of) until `expires` (epoch seconds)."""
        if scope_of(scope) != scope:
            raise ValueError(f"{scope!r} is not a media scope")
        if self.flavour == "akamai":
            signed = f"exp={expires}~acl=/media/{scope}*"
            return f"{signed}~hmac={self._hmac(signed)}"
        return f"{expires}.{_mac(expires, scope, self.key)}"

    def check(self, token: str | None, path: str, *, now: float) -> EdgeGrant:
        """The grant `token` gives for the media path `path`. Raises StreamDenied as the edge
        refuses: `stream_token_expired` for a genuine token past its expiry,
        `stream_access_denied` for none, a forged or altered one, or one of another scope."""
        scope = scope_of(path)
        if scope is None or not token:
            raise StreamDenied(_INVALID)
        grant = self._akamai(token, path) if self.flavour == "akamai" else self._secure_link(token, scope)
        if int(now) > grant.expires_at:  # as nginx's secure_link and Akamai: its expiry second is still good
            raise StreamDenied(_EXPIRED, EXPIRED)
        return grant

    def _secure_link(self, token: str, scope: str) -> EdgeGrant:
        found = _TOKEN.match(token)
        if found is None:
            raise StreamDenied(_INVALID)
        expires = int(found["expires"])
        if not hmac.compare_digest(found["mac"], _mac(expires, scope, self.key)):
            raise StreamDenied(_INVALID)
        return EdgeGrant(scope, expires)

    def _akamai(self, token: str, path: str) -> EdgeGrant:
        found = _AKAMAI.match(token)
        if found is None or not hmac.compare_digest(found["mac"], self._hmac(token.rpartition("~hmac=")[0])):
            raise StreamDenied(_INVALID)
        scope = found["scope"]
        # The ACL is one of our scopes, and the path lies below it (the CDN's prefix match).
        if scope_of(scope) != scope or not path.startswith(scope):
            raise StreamDenied(_INVALID)
        return EdgeGrant(scope, int(found["expires"]))

    def _hmac(self, signed: str) -> str:
        return hmac.new(bytes.fromhex(self.key), signed.encode(), hashlib.sha256).hexdigest()


def signer_of(settings: Settings) -> EdgeSigner:
    """The configured flavour, with the configured key or else one derived from the secret key."""
    key = settings.stream_token_key.get_secret_value().lower() if settings.stream_token_key else None
    return EdgeSigner(settings.stream_token_flavour, key or edge_key(settings.secret_key))


def issue_edge_token(scope: str, *, secret: str, expires: int) -> str:
    """A default-flavour (`secure_link`) token for `scope` with the key derived from `secret`."""
    return EdgeSigner("secure_link", edge_key(secret)).issue(scope, expires)


def check_edge_token(token: str | None, path: str, *, secret: str, now: float) -> EdgeGrant:
    """EdgeSigner.check for the default flavour with the key derived from `secret`."""
    return EdgeSigner("secure_link", edge_key(secret)).check(token, path, now=now)


def cookie_header(grant: EdgeGrant, token: str, *, now: float, secure: bool) -> str:
    """The Set-Cookie value that keeps `token` for the requests below its scope, as long as it lives."""
    max_age = max(0, int(grant.expires_at - now))
    attributes = f"Path=/media/{grant.scope}; Max-Age={max_age}; HttpOnly; SameSite=Strict"
    return f"{EDGE_COOKIE}={token}; {attributes}{'; Secure' if secure else ''}"
