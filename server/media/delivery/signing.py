"""Signed stream URLs: knowing a stream's address is not enough to watch it.

Events store plain media URLs (`/media/vod/<sample>/index.m3u8`, `/media/live/<sample>.m3u8`).
The event presenter turns them, for a viewer allowed to watch (server.services.access), into
`/media/s/<token>/vod/...` or `/media/s/<token>/live/...`, and only those paths serve video
(server.media.delivery.routes). The token sits in the path, not the query, so the playlists' relative
URIs (a master's `360p/index.m3u8` or `../vod/<sample>/360p/live.m3u8`, a rendition's
`index3.ts`) carry it without rewriting anything (the layout: server.media.delivery.urls).

The token is an HS256 JWT (PyJWT's JWS) under a key derived from `secret_key` for media only (an
access token is never a stream token, nor the reverse), audience `touchline-media`, with claims:

    path    the stored media path it was issued for, without `/media/` and the query
            (`vod/football/game-7200.m3u8`, `live/football.m3u8`): the token opens that playlist,
            the same playlist in each rendition of its sample and the segments they list, nothing
            else (server.media.delivery.reach): not the sample's live stream for a VOD token nor the reverse,
            not another game length or clip range on the same sample, so not another event's
            stream. A clip's or highlight's token opens the segments of its range alone
    evt     the event it was issued for (the parent event for clips)
    sub     the viewer it was issued to; absent for events anyone may watch (free ones)
    sid     with `sub`: the viewer's sign-in session the URL was issued in
    reg     events limited to regions only: those regions (ISO 3166 alpha-2); requests from any
            other region are refused with `stream_region_denied`
    start   live streams only, and always there: the event's kickoff (epoch seconds), where its
            live playlist begins (server.media.delivery.live); a live URL signed without a kickoff begins
            where it was signed, never the whole rewind window before
    exp     `stream_token_seconds` after issue, on server.clock

A token with `sub` is honoured only for a request bearing that viewer's access token
(`Authorization: Bearer ...`, or the media cookie: server.media.delivery.credentials) whose session still
stands (server.auth.standing), and with `sid` only for that very session: a copied URL plays for
nobody else, and a URL issued before a logout plays for nobody, even the same viewer signed in
again (the player fetches the event again for a new URL). The viewer's region is read as the API
reads it (server.viewer_region).

URLs that are not this server's VOD or live media (another host's CDN, posters) are returned
unchanged: this server cannot sign for them.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

import orjson
from jwt.algorithms import HMACAlgorithm
from jwt.api_jws import PyJWS
from jwt.exceptions import InvalidKeyError, PyJWTError

from ... import clock
from ...settings import Settings
from .reach import Reach, reach_of
from .reach import stream_of as stream_of
from .urls import MEDIA_PREFIX, signed_url

ALGORITHM = "HS256"
AUDIENCE = "touchline-media"
_KEY_LABEL = b"touchline-media-v1"

EXPIRED = "stream_token_expired"
DENIED = "stream_access_denied"
REGION_DENIED = "stream_region_denied"
SESSION_ENDED = "stream_session_ended"

_SIGNABLE = (f"{MEDIA_PREFIX}/vod/", f"{MEDIA_PREFIX}/live/")


class StreamDenied(Exception):
    """The request may not have this media; `code` is the envelope's messageErrorCode."""

    def __init__(self, message: str, code: str = DENIED):
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class StreamGrant:
    reach: Reach  # `path`, and what a token for it opens
    event_id: str
    user_id: str | None
    expires_at: int
    starts_at: int | None = None  # the `start` claim
    session_id: str | None = None  # `sid`
    regions: tuple[str, ...] | None = None  # `reg`

    @property
    def path(self) -> str:
        """The stored media path the token was issued for."""
        return self.reach.issued

    @property
    def stream(self) -> str:
        """The sample's directory below the media root."""
        return self.reach.stream

    @property
    def clip(self) -> tuple[int, int] | None:
        """A clip's or highlight's [from, to) ms: its token opens that range alone."""
        return self.reach.clip


@lru_cache(maxsize=8)
def media_key(secret: str) -> bytes:
    """HMAC-SHA256(secret, label): a key for stream tokens only, derived once per secret."""
    return hmac.new(secret.encode(), _KEY_LABEL, hashlib.sha256).digest()


class _MediaHS256(HMACAlgorithm):
    """HS256 for keys from `media_key` only. PyJWT re-examines an HMAC key on every call (is it
    PEM, DER, a JWK?), which is most of the cost of a token; ours is always 32 derived bytes."""

    def __init__(self) -> None:
        super().__init__(HMACAlgorithm.SHA256)

    def prepare_key(self, key: bytes | str) -> bytes:
        if not isinstance(key, bytes) or len(key) != hashlib.sha256().digest_size:
            raise InvalidKeyError("stream tokens are signed with media_key(secret) only")
        return key


# A JWS codec that knows HS256 alone (no `none`, no asymmetric algorithms to confuse it with).
_JWS = PyJWS(algorithms=[])
_JWS.register_algorithm(ALGORITHM, _MediaHS256())


def issue(
    path: str,
    *,
    event_id: str,
    user_id: str | None,
    secret: str,
    lifetime: int,
    now: float | None = None,
    start: float | None = None,
    session_id: str | None = None,
    regions: Sequence[str] | None = None,
) -> str:
    """A token for the stored media path `path` (`vod/...` or `live/...`, no `/media/`). A live
    path needs its `start`. Raises ValueError for a path that names no stream."""
    reach = reach_of(path)
    if reach is None:
        raise ValueError(f"{path!r} names no stream of this server")
    if reach.live != (start is not None):
        raise ValueError("a live stream's token carries its kickoff (`start`), and only a live stream's")
    issued = int(clock.timestamp() if now is None else now)
    claims: dict[str, object] = {"aud": AUDIENCE, "path": path, "evt": event_id, "exp": issued + lifetime}
    if user_id is not None:
        claims["sub"] = user_id
        if session_id is not None:
            claims["sid"] = session_id
    if regions:
        claims["reg"] = sorted(set(regions))
    if start is not None:
        claims["start"] = math.ceil(start)  # a whole second, never before the kickoff
    # No `typ` header: the audience says what the token is, and the URL is shorter.
    return _JWS.encode(orjson.dumps(claims), media_key(secret), algorithm=ALGORITHM, headers={"typ": None})


class _RecentTokens:
    """Tokens minted in the last moments, handed out again for the same grant.

    Every answer about an event signs its streams for the viewer asking: a kickoff crowd asking
    the same list would otherwise pay a signature per stream per answer (free events' tokens are
    bound to no one, so they are the same for everyone). A token is reused for at most a tenth of
    its lifetime (REUSE_SECONDS at most), so a URL handed out lives at least nine tenths of
    `stream_token_seconds`. Keyed by everything the token says, and the key it was signed with.
    """

    REUSE_SECONDS = 60.0
    ENTRIES = 65_536

    def __init__(self) -> None:
        self._tokens: OrderedDict[tuple, tuple[str, float, str]] = OrderedDict()

    def get(self, key: tuple, secret: str, now: float, lifetime: int) -> str | None:
        known = self._tokens.get(key)
        if known is None or known[2] != secret:
            return None
        token, issued, _ = known
        if 0 <= now - issued < min(self.REUSE_SECONDS, lifetime / 10):
            return token
        return None

    def put(self, key: tuple, secret: str, issued: float, token: str) -> None:
        self._tokens[key] = (token, issued, secret)
        self._tokens.move_to_end(key)
        while len(self._tokens) > self.ENTRIES:
            self._tokens.popitem(last=False)


_recent_tokens = _RecentTokens()


def sign_stream(
    url: str | None,
    *,
    user_id: str | None,
    event_id: str,
    settings: Settings,
    now: float | None = None,
    start: float | None = None,
    session_id: str | None = None,
    regions: Sequence[str] | None = None,
) -> str | None:
    """The URL a viewer gets for a stored stream URL: this server's VOD and live media signed for
    `user_id` (None: anyone) in their session `session_id`, and `event_id`; any other URL
    unchanged. The token opens that stored playlist alone (with its renditions and segments).
    `start` (epoch seconds, the event's kickoff) goes into live URLs' tokens: their playlists
    begin there (without one: where the URL is signed). `regions` (the event's, when it is
    limited to some) bind the token to them."""
    if not url:
        return url
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        # An absolute URL is ours only when it points at this server's public address.
        own = urlsplit(settings.base_url)
        if (parts.scheme, parts.netloc) != (own.scheme, own.netloc):
            return url
    if not parts.path.startswith(_SIGNABLE):
        return url
    media_path = parts.path[len(MEDIA_PREFIX) + 1 :]
    if stream_of(media_path) is None:
        return url  # not a stream this server serves; the unsigned path answers 404 anyway
    live = media_path.startswith("live/")
    issued = clock.timestamp() if now is None else now
    lifetime = settings.stream_token_seconds
    if live and start is None:
        start = issued  # no kickoff named: nothing before the URL was signed
    key = (media_path, event_id, user_id, session_id, start if live else None, tuple(regions or ()), lifetime)
    token = _recent_tokens.get(key, settings.secret_key, issued, lifetime)
    if token is None:
        token = issue(
            media_path,
            event_id=event_id,
            user_id=user_id,
            secret=settings.secret_key,
            lifetime=lifetime,
            now=issued,
            start=start if live else None,
            session_id=session_id,
            regions=regions,
        )
        _recent_tokens.put(key, settings.secret_key, issued, token)
    signed = signed_url(token, media_path)
    if parts.scheme:
        signed = f"{parts.scheme}://{parts.netloc}{signed}"
    return signed + (f"?{parts.query}" if parts.query else "")


def verify(token: str, *, secret: str, now: float | None = None) -> StreamGrant:
    """The grant a token carries. Raises StreamDenied: `stream_token_expired` for a genuine token
    past its `exp`, `stream_access_denied` for anything forged, altered or malformed."""
    try:
        claims = orjson.loads(_JWS.decode(token, media_key(secret), algorithms=[ALGORITHM]))
    except (PyJWTError, orjson.JSONDecodeError):
        raise StreamDenied("This stream link is not valid") from None
    if not isinstance(claims, dict) or claims.get("aud") != AUDIENCE:
        raise StreamDenied("This stream link is not valid")
    path, event_id, user_id, exp = claims.get("path"), claims.get("evt"), claims.get("sub"), claims.get("exp")
    start, session_id, regions = claims.get("start"), claims.get("sid"), claims.get("reg")
    reach = reach_of(path) if isinstance(path, str) else None
    if (
        reach is None
        or not isinstance(event_id, str)
        or type(exp) is not int
        or (user_id is not None and not isinstance(user_id, str))
        # A live token always names where its stream begins; nothing else has a beginning.
        or (type(start) is not int if reach.live else start is not None)
        or (session_id is not None and not isinstance(session_id, str))
        or (regions is not None and not (isinstance(regions, list) and all(isinstance(r, str) for r in regions)))
    ):
        raise StreamDenied("This stream link is not valid")
    if (clock.timestamp() if now is None else now) >= exp:
        raise StreamDenied("This stream link has expired, reload the event for a new one", EXPIRED)
    return StreamGrant(
        reach, event_id, user_id, exp, start, session_id, tuple(regions) if regions is not None else None
    )
