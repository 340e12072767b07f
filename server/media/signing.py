"""Signed stream URLs: knowing a stream's address is not enough to watch it.

Events store plain media URLs (`/media/vod/<sample>/index.m3u8`, `/media/live/<sample>.m3u8`).
The event presenter turns them, for a viewer allowed to watch (server.services.access), into
`/media/s/<token>/vod/...` or `/media/s/<token>/live/...`, and only those paths serve video
(server.media.routes). The token sits in the path, not the query, so the playlists' relative
URIs (a master's `360p/index.m3u8` or `../vod/<sample>/360p/live.m3u8`, a rendition's
`index3.ts`) carry it without rewriting anything (the layout: server.media.urls).

The token is an HS256 JWT (PyJWT's JWS) under a key derived from `secret_key` for media only (an
access token is never a stream token, nor the reverse), audience `touchline-media`, with claims:

    stream  the stream it opens: a VOD directory under /media/vod, which a live sample shares
            (a token for live sample X also opens vod/X/..., where its renditions' live
            playlists and segments are), with every rendition below it
    evt     the event it was issued for (the parent event for clips)
    sub     the viewer it was issued to; absent for events anyone may watch (free ones)
    sid     with `sub`: the viewer's sign-in session the URL was issued in
    range   clips and highlights only (a stored `clip-<from>-<to>.m3u8`): [from, to] ms of the
            stream's timeline; the token then opens that clip's playlists (master and each
            rendition's) and the segments of that range, nothing else of the stream: not its
            game, its other clips or its files (server.media.routes)
    reg     events limited to regions only: those regions (ISO 3166 alpha-2); requests from any
            other region are refused with `stream_region_denied`
    start   live streams only: the event's kickoff (epoch seconds), where its live playlist
            begins (server.media.live); absent: the stream has been on for ever
    exp     `stream_token_seconds` after issue, on server.clock

A token with `sub` is honoured only for a request bearing that viewer's access token
(`Authorization: Bearer ...`, or the media cookie: server.media.credentials) whose session still
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
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

import orjson
from jwt.algorithms import HMACAlgorithm
from jwt.api_jws import PyJWS
from jwt.exceptions import InvalidKeyError, PyJWTError

from .. import clock
from ..settings import Settings
from .urls import CLIP_NAME, MEDIA_PREFIX, signed_url

ALGORITHM = "HS256"
AUDIENCE = "touchline-media"
_KEY_LABEL = b"touchline-media-v1"

EXPIRED = "stream_token_expired"
DENIED = "stream_access_denied"
REGION_DENIED = "stream_region_denied"
SESSION_ENDED = "stream_session_ended"

# One path segment of a stream path: no empty, `.` or `..` segments, nothing to escape.
_PART = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$")
_SIGNABLE = (f"{MEDIA_PREFIX}/vod/", f"{MEDIA_PREFIX}/live/")


class StreamDenied(Exception):
    """The request may not have this media; `code` is the envelope's messageErrorCode."""

    def __init__(self, message: str, code: str = DENIED):
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class StreamGrant:
    stream: str
    event_id: str
    user_id: str | None
    expires_at: int
    starts_at: int | None = None  # the `start` claim
    session_id: str | None = None  # `sid`
    clip: tuple[int, int] | None = None  # `range`: the clip's [from, to] ms
    regions: tuple[str, ...] | None = None  # `reg`


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


def _parts_ok(parts: list[str]) -> bool:
    return bool(parts) and all(_PART.match(p) for p in parts)


def stream_of(media_path: str) -> str | None:
    """The stream a stored media path (without `/media/`) belongs to, or None if it names none:
    `vod/a/b/index.m3u8` -> `a/b`; `live/football.m3u8` -> `football`."""
    kind, _, rest = media_path.partition("/")
    if kind == "live":
        name = rest[: -len(".m3u8")] if rest.endswith(".m3u8") else ""
        return name if _parts_ok([name]) else None
    if kind == "vod":
        parts = rest.split("/")
        return "/".join(parts[:-1]) if len(parts) >= 2 and _parts_ok(parts) else None
    return None


def covers(stream: str, media_path: str) -> bool:
    """Whether a token for `stream` opens `media_path` (`live/...` or `vod/...`, no `/media/`).
    Refuses `..` and empty segments, so nothing outside the stream's directory is reachable."""
    if media_path == f"live/{stream}.m3u8":
        return True
    prefix = f"vod/{stream}/"
    return media_path.startswith(prefix) and _parts_ok(media_path[len(prefix) :].split("/"))


def clip_range(media_path: str) -> tuple[int, int] | None:
    """The range a stored clip path (`vod/<stream>/clip-<from>-<to>.m3u8`) plays, else None."""
    found = CLIP_NAME.fullmatch(media_path.rpartition("/")[2])
    if found is None:
        return None
    start, end = int(found[1]), int(found[2])
    return (start, end) if start < end else None


def issue(
    stream: str,
    *,
    event_id: str,
    user_id: str | None,
    secret: str,
    lifetime: int,
    now: float | None = None,
    start: float | None = None,
    session_id: str | None = None,
    clip: tuple[int, int] | None = None,
    regions: Sequence[str] | None = None,
) -> str:
    issued = int(clock.timestamp() if now is None else now)
    claims: dict[str, object] = {"aud": AUDIENCE, "stream": stream, "evt": event_id, "exp": issued + lifetime}
    if user_id is not None:
        claims["sub"] = user_id
        if session_id is not None:
            claims["sid"] = session_id
    if clip is not None:
        claims["range"] = list(clip)
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
    unchanged. `start` (epoch seconds, the event's kickoff) goes into live URLs' tokens: their
    playlists begin there. A clip's URL gets a token for its range alone; `regions` (the event's,
    when it is limited to some) bind the token to them."""
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
    stream = stream_of(media_path)
    if stream is None:
        return url  # not a stream this server serves; the unsigned path answers 404 anyway
    live = media_path.startswith("live/")
    issued = clock.timestamp() if now is None else now
    lifetime = settings.stream_token_seconds
    key = (media_path, event_id, user_id, session_id, start if live else None, tuple(regions or ()), lifetime)
    token = _recent_tokens.get(key, settings.secret_key, issued, lifetime)
    if token is None:
        token = issue(
            stream,
            event_id=event_id,
            user_id=user_id,
            secret=settings.secret_key,
            lifetime=lifetime,
            now=issued,
            start=start if live else None,
            session_id=session_id,
            clip=None if live else clip_range(media_path),
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
    stream, event_id, user_id, exp = claims.get("stream"), claims.get("evt"), claims.get("sub"), claims.get("exp")
    start, session_id, clip, regions = claims.get("start"), claims.get("sid"), claims.get("range"), claims.get("reg")
    if (
        not isinstance(stream, str)
        or not isinstance(event_id, str)
        or type(exp) is not int
        or (user_id is not None and not isinstance(user_id, str))
        or (start is not None and type(start) is not int)
        or (session_id is not None and not isinstance(session_id, str))
        or (clip is not None and not _is_range(clip))
        or (regions is not None and not (isinstance(regions, list) and all(isinstance(r, str) for r in regions)))
    ):
        raise StreamDenied("This stream link is not valid")
    if (clock.timestamp() if now is None else now) >= exp:
        raise StreamDenied("This stream link has expired, reload the event for a new one", EXPIRED)
    return StreamGrant(
        stream,
        event_id,
        user_id,
        exp,
        start,
        session_id,
        (clip[0], clip[1]) if clip is not None else None,
        tuple(regions) if regions is not None else None,
    )


def _is_range(value: object) -> bool:
    return (
        isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value) and 0 <= value[0] < value[1]
    )
