"""Stream addresses for viewers: knowing a stream's address is not enough to watch it.

Events store plain media URLs (`/media/vod/<asset>/index.m3u8`, `/media/vod/<asset>/clip-<from>-<to>.m3u8`,
`/media/live/<asset>.m3u8`). The event presenter turns them, for a viewer allowed to watch there
and then (server.services.access: entitled, in the event's regions), into the edge layout's
address with a token beside it (server.media.delivery.edge_routes, server.media.delivery.edge_tokens):

    /media/vod/<asset>/index.m3u8?token=<token>
    /media/vod/<asset>/clip-<from>-<to>/index.m3u8?token=<token>
    /media/live/<asset>/from-<kickoff>/index.m3u8?token=<token>

The token opens that stream's directory (its scope) until `stream_token_seconds` after issue, for
whoever holds it: what it does not carry (the viewer, their sign-in session, their region) was
checked when it was issued. The player renews it before it expires by asking for the event again,
which needs a standing session: a logout, or a session staff end, stops the media within one token
lifetime (ARCHITECTURE.md, "Media at the edge"). A live stream's address begins at the event's
kickoff (`start`), or where it was signed when the event has none.

URLs that are not this server's VOD or live media (another host's CDN, posters) are returned
unchanged: this server cannot sign for them.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from ... import clock
from ...settings import Settings
from .edge_tokens import DENIED as DENIED
from .edge_tokens import EXPIRED as EXPIRED
from .edge_tokens import TOKEN_PARAMETER, scope_of, signer_of
from .edge_tokens import StreamDenied as StreamDenied
from .reach import Reach
from .reach import stream_of as stream_of
from .urls import MEDIA_PREFIX, edge_path

_SIGNABLE = (f"{MEDIA_PREFIX}/vod/", f"{MEDIA_PREFIX}/live/")


@dataclass(frozen=True)
class StreamGrant:
    """What a media request may have, as the media route serves it: the stored path a request's
    path stands for (its reach), until when its answer may be kept, and a live stream's kickoff."""

    reach: Reach
    expires_at: int
    starts_at: int | None = None

    @property
    def stream(self) -> str:
        """The asset's directory below the media root."""
        return self.reach.stream

    @property
    def clip(self) -> tuple[int, int] | None:
        """A clip's or highlight's [from, to) ms."""
        return self.reach.clip


class _RecentTokens:
    """Tokens minted in the last moments, handed out again for the same scope and lifetime.

    A token is the same for everyone (scope and expiry), so a kickoff crowd asking for one event
    gets one token a second, not one per answer; one is reused for at most a tenth of its
    lifetime (REUSE_SECONDS at most), so an address handed out lives at least nine tenths of
    `stream_token_seconds`. Keyed by the key it was signed with too."""

    REUSE_SECONDS = 60.0
    ENTRIES = 65_536

    def __init__(self) -> None:
        self._tokens: OrderedDict[tuple, tuple[str, float]] = OrderedDict()

    def get(self, key: tuple, now: float, lifetime: int) -> str | None:
        known = self._tokens.get(key)
        if known is None:
            return None
        token, issued = known
        return token if 0 <= now - issued < min(self.REUSE_SECONDS, lifetime / 10) else None

    def put(self, key: tuple, issued: float, token: str) -> None:
        self._tokens[key] = (token, issued)
        self._tokens.move_to_end(key)
        while len(self._tokens) > self.ENTRIES:
            self._tokens.popitem(last=False)


_recent_tokens = _RecentTokens()


def sign_stream(
    url: str | None, *, settings: Settings, now: float | None = None, start: float | None = None
) -> str | None:
    """The address a viewer gets for a stored stream URL (module docstring); any other URL
    unchanged. `start` (epoch seconds, the event's kickoff) is where a live stream begins
    (without one: where the URL is signed)."""
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
        return url  # not a stream this server serves; its path answers 404 anyway
    issued = clock.timestamp() if now is None else now
    live = media_path.startswith("live/")
    # A whole second, never before the kickoff.
    path = edge_path(media_path, math.ceil(start if start is not None else issued) if live else None)
    scope = scope_of(path) if path is not None else None
    if path is None or scope is None:
        return url
    lifetime = settings.stream_token_seconds
    signer = signer_of(settings)
    key = (scope, lifetime, signer)
    token = _recent_tokens.get(key, issued, lifetime)
    if token is None:
        token = signer.issue(scope, int(issued) + lifetime)
        _recent_tokens.put(key, issued, token)
    signed = f"{MEDIA_PREFIX}/{path}?{TOKEN_PARAMETER}={quote(token, safe='.')}"
    if parts.scheme:
        signed = f"{parts.scheme}://{parts.netloc}{signed}"
    return signed + (f"&{parts.query}" if parts.query else "")
