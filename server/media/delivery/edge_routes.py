"""The edge layout's media route (issue 30): `/media/vod/...` and `/media/live/...`, the same path
for every viewer, the token beside it (server.media.delivery.edge_tokens).

    edge path (below /media/)                    what it is (as server.media.delivery.urls)
    vod/<asset>/index.m3u8                       the asset's master, as stored
    vod/<asset>/<rendition>/<file>               its renditions' playlists and segments
    vod/<asset>/<preview>                        its seek previews (thumbnails.vtt, sheets, poster)
    vod/<asset>/<made>/index.m3u8                a game's or clip's master (<made>: `game-<seconds>`
                                                 or `clip-<from>-<to>`), variants `<rendition>/index.m3u8`
    vod/<asset>/<made>/<rendition>/index.m3u8    its media playlist in one rendition
    vod/<asset>/<made>/<rendition>/<segment>     the segments of its range alone
    vod/<asset>/clip-<from>-<to>/<preview>       a clip's thumbnails.vtt (its range) and its sheets
    live/<asset>/from-<start>/index.m3u8         the live master from a kickoff (epoch seconds),
                                                 variants `<rendition>/live.m3u8`
    live/<asset>/from-<start>/<rendition>/live.m3u8   a rendition's rewind window
    live/<asset>/from-<start>/<rendition>/<segment>   its segments
    live/<asset>/from-<start>/<preview>          the live recording's pictures of its window

Each edge path stands for a stored path (below the asset's directory, as urls names them), which
server.media.delivery.routes.MediaServer answers under a grant for the stored playlist it belongs
to. So what a path may be is checked once per path and not per viewer (a clip's directory serves
the segments of its range and no others, whoever asks), and an edge in front caches every answer
under its path alone.

A request's token comes from `?token=` or else the `tl_media` cookie; one in the query is set as
that cookie for its scope (the playlists' relative URIs carry no query). No token, or one that
does not open this path's scope: 403 in the error envelope, as the edge answers it
(server/media/delivery/edge_nginx.py). Answers are `public`: they are the same for everyone who may have them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ... import clock
from ...settings import Settings
from ..playlists import MASTER_PLAYLIST
from . import cmcd
from .edge_tokens import EDGE_COOKIE, TOKEN_PARAMETER, EdgeGrant, cookie_header, signer_of
from .reach import parts_ok, reach_of
from .routes import SEGMENT_MAX_AGE, MediaServer, error_answer
from .signing import StreamDenied, StreamGrant
from .urls import MADE_PATTERN

MADE_DIRECTORY = re.compile(MADE_PATTERN)
FROM = re.compile(r"from-([0-9]{1,12})")


@dataclass(frozen=True)
class StoredPath:
    """What an edge path stands for."""

    issued: str  # the stored playlist it belongs to (its reach)
    media_path: str  # the stored path of the answer (the playlist, a rendition's, a file)
    start: int | None = None  # a live stream's kickoff


def stored_path(path: str) -> StoredPath | None:
    """What the edge path `path` (below /media/) stands for, or None when it names nothing of the
    edge layout."""
    kind, _, rest = path.partition("/")
    parts = rest.split("/")
    if not parts_ok(parts) or len(parts) < 2:
        return None
    asset = parts[0]
    if kind == "live":
        found = FROM.fullmatch(parts[1])
        below = parts[2:]
        if found is None or not below:
            return None
        issued = f"live/{asset}.m3u8"
        media = issued if below == [MASTER_PLAYLIST] else "/".join(["vod", asset, *below])
        return StoredPath(issued, media, int(found[1]))
    if kind != "vod":
        return None
    if MADE_DIRECTORY.fullmatch(parts[1]) is not None:
        name = f"{parts[1]}.m3u8"
        below = parts[2:]
        issued = f"vod/{asset}/{name}"
        if below == [MASTER_PLAYLIST]:
            return StoredPath(issued, issued)
        if len(below) == 2 and below[1] == MASTER_PLAYLIST:
            return StoredPath(issued, f"vod/{asset}/{below[0]}/{name}")
        if not below or below[-1].endswith(".m3u8"):
            return None  # its playlists are the two above
        return StoredPath(issued, "/".join(["vod", asset, *below]))
    return StoredPath(f"vod/{asset}/{MASTER_PLAYLIST}", path)


def _query_token(scope: Scope) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(TOKEN_PARAMETER)
    return values[0] if values else None


def _cookie_token(scope: Scope) -> str | None:
    """The first `tl_media` cookie, as nginx's `$cookie_tl_media` reads it: browsers send the
    cookie of the longest path first (RFC 6265 5.4), which is the scope a nested path lies in (a
    clip's directory within its asset's)."""
    prefix = f"{EDGE_COOKIE}="
    for key, value in scope["headers"]:
        if key != b"cookie":
            continue
        for pair in value.decode("latin-1").split(";"):
            pair = pair.strip()
            if pair.startswith(prefix) and len(pair) > len(prefix):
                return pair[len(prefix) :]
    return None


class EdgeMedia(MediaServer):
    """The edge layout's media: `/media/vod/{path}` and `/media/live/{path}` (server.web mounts `endpoint`)."""

    def __init__(self, settings: Settings, media_root: Path):
        super().__init__(settings, media_root)
        self.signer = signer_of(settings)

    def endpoint(self, kind: str) -> ASGIApp:
        """The endpoint of `/media/<kind>/{path:path}` (`vod` or `live`)."""
        return _Endpoint(self, kind)

    async def answer(self, scope: Scope, receive: Receive, send: Send, path: str) -> None:
        """Answer for the edge path `path` (below /media/)."""
        head = scope["method"] == "HEAD"
        now = clock.timestamp()
        cmcd.record(scope, path)
        query_token = _query_token(scope)
        token = query_token or _cookie_token(scope)
        try:
            edge = self.signer.check(token, path, now=now)
        except StreamDenied as refusal:
            await error_answer(send, 403, refusal.message, refusal.code, head)
            return
        stored = stored_path(path)
        reach = reach_of(stored.issued) if stored is not None else None
        # Answers are cached by path for everyone: how long is the answer's, not the token's.
        grant = (
            StreamGrant(reach, math.ceil(now) + SEGMENT_MAX_AGE, stored.start)
            if stored is not None and reach is not None
            else None
        )
        if stored is None or grant is None or not self.opens(grant, stored.media_path):
            await error_answer(send, 404, "Not found", "not_found", head)
            return
        if query_token is not None:
            send = _setting_cookie(send, edge, query_token, now, secure=self.settings.base_url.startswith("https:"))
        await self.respond(scope, receive, send, stored.media_path, grant, now)


class _Endpoint:
    """An ASGI app (Starlette's Route calls a plain function with a Request instead)."""

    def __init__(self, media: EdgeMedia, kind: str):
        self.media, self.kind = media, kind

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.media.answer(scope, receive, send, f"{self.kind}/{scope['path_params']['path']}")


def _setting_cookie(send: Send, edge: EdgeGrant, token: str, now: float, *, secure: bool) -> Send:
    """`send`, adding the token's cookie to a successful answer."""
    cookie = cookie_header(edge, token, now=now, secure=secure).encode("latin-1")

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] < 300:
            message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
        await send(message)

    return sending
