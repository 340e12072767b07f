"""HTTP route for stream media: /media/s/<token>/live/<sample>.m3u8 and /media/s/<token>/vod/...
(the layout: server.media.delivery.urls).

Every playlist and segment request is checked (server.media.delivery.signing), in this order:
- the token's signature and expiry, and that the path is one the token opens (server.media.delivery.reach):
  the stored playlist it was issued for, that playlist in each of the sample's renditions, and
  their segments; for a game or clip only the segments of its range (`seg-<j>.ts` with j among
  the segments covering it). So a free event's token opens neither the live stream of its sample
  nor another game length or clip on it (paid events' streams), a free highlight of a paid game
  opens the highlight and not the game, and a VOD token never opens a live path;
- a token issued to a viewer: that the request bears that viewer's access token (the bearer
  header, else the media cookie: server.media.delivery.credentials), of the session named by the token's
  `sid` when it has one, and that this session still stands (server.auth.standing: a per-process
  cache, STANDING_SECONDS at most behind the database, told at once when a session ends);
- a token bound to regions (`reg`): that the viewer's region (server.viewer_region, as the API
  reads it) is one of them.
Refusals are 403 in the error envelope: `stream_token_expired`, `stream_session_ended`,
`stream_region_denied`, else `stream_access_denied`. When the database cannot say whether a
session stands: 503 `service_unavailable` with Retry-After (the player tries again).

Live playlists (server.media.delivery.live) list the last `live_rewind_seconds` of the sample's endless
timeline, cut at the event's kickoff, which the token carries (`start`, set when the event
answer signed the URL): no database on this path for tokens issued to anyone. The live master
(`live/<sample>.m3u8`) lists one live playlist per rendition (`vod/<sample>/<rendition>/live.m3u8`);
all answer 409 `stream_not_started` with Retry-After before kickoff. The hot path is a dictionary
hit for the token (verified once per process), arithmetic for the window and a playlist rendered
once per segment period and rendition.

Seek previews (issue 29 §5, server.media.delivery.reach): a whole asset's master token opens the
asset's `thumbnails.vtt`, its sprite sheets and its poster, served as they are; a clip's token
opens a `thumbnails.vtt` made for its range (server.media.delivery.thumbnails) at the same place,
and only the sheets its cues name; a live token, a live recording's pictures of its rewind
window (server.media.packaging.live_previews). They are cached as VOD segments are (a live VTT,
which grows, as a live playlist), and need what the token's segments need (a viewer's bearer or
media cookie, the region). A VOD asset without them (a sample, a recording whose previews are
still being made) answers 404; a live stream without them an empty VTT (its player keeps asking).

Made VOD playlists (server.media.delivery.clips): `game-<seconds>.m3u8` and `clip-<from>-<to>.m3u8`, at a
sample's directory (the master) or a rendition's (its media playlist), rendered once per process
and range (a bounded cache) and gzipped for players that accept it; their segments,
`<rendition>/seg-<j>.ts`, are the rendition's file j mod N.

Caching. Everything here is addressed by a URL holding its token, so a shared cache keyed by
URL (a CDN) serves an answer only to holders of that URL. That is enough for tokens issued to
anyone (free events: `public`). A token issued to a viewer also needs that viewer's bearer,
which a shared cache cannot check: those answers are `private` (the viewer's browser only).
Lifetimes: live playlists, masters included, 1 s (they change every segment, ~2 s); VOD
playlists and segments never change, so up to an hour, never past the token's expiry. Refusals
are `no-store`. (A region-bound token's answers are cached like any other: a CDN in front keys
them by URL, and the region a URL plays in is the CDN's own header.)
"""

import math
import mimetypes
import re
from collections import OrderedDict
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import orjson
from starlette.responses import FileResponse
from starlette.types import Receive, Scope, Send

from ... import clock
from ...auth import standing
from ...auth.tokens import verify_access_token
from ...settings import Settings
from ...viewer_region import viewer_region
from ..packaging.previews import THUMBNAILS_VTT
from ..playlists import Ladder, Stream, VodPlaylist, load_stream
from ..recordings import RecordingInfo
from .clips import Made, PlaylistCache, clip_segments, is_made_name, load_media, made, timeline_of
from .credentials import viewer_token
from .live import LiveStream
from .live_recordings import LiveRecordings
from .reach import Place
from .signing import REGION_DENIED, SESSION_ENDED, StreamDenied, StreamGrant, verify
from .thumbnails import VTT_TYPE, ClipThumbnails, Thumbnails
from .urls import LIVE_VARIANT, SEGMENT_NAME, clip_file, live_variant_uri

SAMPLE_NAME = re.compile(r"^[a-z0-9-]{1,40}$")
PLAYLIST_TYPE = "application/vnd.apple.mpegurl"
# The types hls.js and browsers expect, whatever the platform's mimetypes table says.
MEDIA_TYPES = {
    ".m3u8": PLAYLIST_TYPE,
    ".ts": "video/mp2t",
    ".m4s": "video/mp4",
    ".mp4": "video/mp4",
    ".vtt": VTT_TYPE,
    ".jpg": "image/jpeg",
}

# A live playlist moves every segment: a cache may keep it for less than one.
LIVE_MAX_AGE = 1
# VOD playlists and segments never change; capped by what the token has left.
SEGMENT_MAX_AGE = 3600
NOT_STARTED = "stream_not_started"
UNAVAILABLE = "service_unavailable"
# Verified tokens kept per process (a viewer polls with the same one for its whole life).
GRANT_CACHE_ENTRIES = 8192


class SessionsUnknown(Exception):
    """Whether the viewer's session stands cannot be told now (the database does not answer)."""


def _scope(grant: StreamGrant) -> str:
    """`public` when the token alone entitles (anyone's), `private` when a bearer must match."""
    return "public" if grant.user_id is None else "private"


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")


async def _send(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes, head: bool) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else body})


async def error_answer(
    send: Send, status: int, message: str, code: str, head: bool = False, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    body = orjson.dumps({"error": True, "message": message, "messageErrorCode": code})
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store"), *extra]
    await _send(send, status, headers, body, head)


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return ""


def _accepts_gzip(scope: Scope) -> bool:
    return b"gzip" in _header(scope, b"accept-encoding").encode()


class SignedMedia:
    """The ASGI endpoint of `/s/{token}/{path:path}` (raw ASGI: no Request/Response objects on
    the live path). Whether a viewer's session stands is asked of the database the app's lifespan
    shares with the API (`scope["state"]["database"]`); without one, streams issued to viewers are
    refused."""

    def __init__(self, settings: Settings, media_root: Path):
        self.settings = settings
        self.secret = settings.secret_key
        self.rewind = settings.live_rewind_seconds
        self.root = media_root.resolve()
        self.grants: OrderedDict[str, StreamGrant] = OrderedDict()
        self.live_stream = lru_cache(maxsize=32)(self._load_live_stream)
        self.playlists = PlaylistCache()
        self.recordings = LiveRecordings(self.root, self.live_variant)
        self.thumbnails = Thumbnails(self.root)

    def _load_live_stream(self, name: str) -> LiveStream | None:
        if not SAMPLE_NAME.match(name):
            return None
        stream = load_stream(self.root, name)
        # The master is served at .../<token>/live/<name>.m3u8, each rendition's live playlist at
        # .../<token>/vod/<name>/<rendition>/live.m3u8, beside its segments: one token for all.
        return LiveStream(stream, name, variant_uri=self.live_variant) if stream is not None else None

    # --- how masters name what they list (the edge layout's: server.media.delivery.edge_routes) --

    # A made master's variants: the made playlist's own name in each rendition's directory.
    made_variant_name: str | None = None

    def live_variant(self, asset: str, rendition: str) -> str:
        """The live master's URI of a rendition's live playlist."""
        return live_variant_uri(asset, rendition)

    # --- who may have what -----------------------------------------------------------------

    def grant(self, token: str, now: float) -> StreamGrant:
        """The token's grant, verified once per process; raises StreamDenied."""
        grant = self.grants.get(token)
        if grant is not None and now < grant.expires_at:
            return grant
        # Unknown, or known and expired: verify() gives the refusal (and its envelope code).
        grant = verify(token, secret=self.secret, now=now)
        if len(self.grants) >= GRANT_CACHE_ENTRIES:
            self.grants.popitem(last=False)  # the oldest
        self.grants[token] = grant
        return grant

    async def check(self, scope: Scope, media_path: str, now: float) -> StreamGrant:
        """The request's grant for `media_path`; raises StreamDenied, or SessionsUnknown."""
        grant = self.grant(scope["path_params"]["token"], now)
        if not self.opens(grant, media_path):
            raise StreamDenied("This stream link opens only the stream it was issued for")
        if grant.user_id is not None:
            await self.check_viewer(scope, grant)
        if grant.regions is not None:
            region = viewer_region(self.settings, lambda name: _header(scope, name.lower().encode()) or None)
            if region not in grant.regions:
                raise StreamDenied("This stream is not available in your region", REGION_DENIED)
        return grant

    def opens(self, grant: StreamGrant, media_path: str) -> bool:
        """Whether `media_path` is one the grant opens (reach), with what the sample says of it."""
        place = grant.reach.place(media_path)
        issued = media_path == grant.reach.issued
        return place is not None and self.within(
            grant, place, issued=issued, media_path_name=media_path.rpartition("/")[2]
        )

    def in_range(self, grant: StreamGrant, rendition: str, name: str) -> bool:
        """Whether `name` is a segment of a recording's rendition that the token's clip covers."""
        made, recording = grant.reach.made, self.recordings.recording(grant.stream, rendition)
        if made is None or recording is None:
            return False
        return any(recording.segments[i].uri == name for i in recording.covering(made.start_ms, made.end_ms))

    def within(self, grant: StreamGrant, place: Place, *, issued: bool = False, media_path_name: str = "") -> bool:
        """The checks of a place that need the sample: a game's or clip's segment lies in its
        range; a file served as it is lies in one of the sample's renditions (not in another
        sample below this one's directory). A recording's files are its renditions' alone (not
        its `recording.json`), and a ladder's directory serves its seek previews alone."""
        if place.preview:
            return self.preview_within(grant, media_path_name)
        recording = self.recordings.info(grant.stream)
        if place.ranged:
            return recording is not None and self.in_range(grant, place.rendition, media_path_name)
        if recording is not None and place.segment is None:
            return issued or place.rendition in recording.rendition_names
        if place.segment is not None:
            made, timeline = grant.reach.made, timeline_of(self.root, grant.stream)
            return (
                made is not None
                and timeline is not None
                and place.segment in clip_segments(timeline, made.start_ms, made.end_ms)
            )
        if place.file and place.rendition:
            if grant.reach.live:  # a live segment: the hot path, no file system to ask
                live = self.live_stream(grant.stream)
                return live is not None and place.rendition in live.renditions
            ladder = load_stream(self.root, grant.stream)
            return ladder is not None and ladder.rendition(place.rendition) is not None
        if place.file and not issued:
            # Beside the stream's own playlist: the segments of a stream of one rendition. A
            # ladder's directory holds nothing else to serve (its previews are `Place.preview`).
            return load_stream(self.root, grant.stream) is None
        return True

    def preview_within(self, grant: StreamGrant, name: str) -> bool:
        """A whole asset's token opens the previews reach named; a clip's its own VTT, and the
        sheets that VTT names."""
        if grant.reach.clip is None or name == THUMBNAILS_VTT:
            return True
        made = self.clip_thumbnails(grant)
        return made is not None and name in made.sheets

    def clip_thumbnails(self, grant: StreamGrant) -> ClipThumbnails | None:
        """The thumbnails of a clip's range (server.media.delivery.thumbnails), or None."""
        clip = grant.reach.clip
        if clip is None:
            return None
        return self.thumbnails.clip(grant.stream, *clip, lambda: self.clip_origin(grant.stream, *clip))

    def clip_origin(self, stream: str, start_ms: int, end_ms: int) -> int | None:
        """Where a clip's playlists begin on its asset's timeline (ms): the first segment covering
        the range, of a recording (server.media.recordings) or of a ladder's timeline
        (server.media.delivery.clips)."""
        if self.recordings.info(stream) is not None:
            ladder = self.recordings.ladder(stream)
            recording = self.recordings.recording(stream, ladder.variants[0].rendition) if ladder else None
            numbers = recording.covering(start_ms, end_ms) if recording is not None else range(0)
            if recording is None or not numbers:
                return None
            return sum(round(s.duration * 1000) for s in recording.segments[: numbers[0]])
        timeline = timeline_of(self.root, stream)
        return timeline.starts_at(clip_segments(timeline, start_ms, end_ms)[0]) if timeline is not None else None

    async def check_viewer(self, scope: Scope, grant: StreamGrant) -> None:
        token = viewer_token(scope)
        claims = verify_access_token(token, secret=self.secret) if token else None
        if claims is None or claims.user_id != grant.user_id:
            raise StreamDenied("This stream link is for another viewer: sign in as its viewer to play it")
        if grant.session_id is not None and claims.session_id != grant.session_id:
            raise StreamDenied("This stream link was issued to another sign-in: reload the event for a new one")
        database = scope.get("state", {}).get("database")
        if database is None:
            raise StreamDenied("This server cannot check sign-in sessions: streams for viewers do not play here")
        try:
            alive = await standing.default.standing(database, claims.user_id, claims.session_id)
        except standing.SessionsUnavailable as exc:
            raise SessionsUnknown() from exc
        if not alive:
            raise StreamDenied("Your session has ended, please sign in again", SESSION_ENDED)

    # --- serving ---------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.serve(scope, receive, send, scope["path_params"]["path"])

    async def serve(self, scope: Scope, receive: Receive, send: Send, media_path: str) -> None:
        """Answer for `media_path` (`live/...` or `vod/...`, below the token)."""
        head = scope["method"] == "HEAD"
        now = clock.timestamp()
        try:
            grant = await self.check(scope, media_path, now)
        except StreamDenied as refusal:
            await error_answer(send, 403, refusal.message, refusal.code, head)
            return
        except SessionsUnknown:
            message = "The server cannot check your session right now, please try again"
            await error_answer(send, 503, message, UNAVAILABLE, head, ((b"retry-after", b"1"),))
            return
        await self.respond(scope, receive, send, media_path, grant, now)

    async def respond(
        self, scope: Scope, receive: Receive, send: Send, media_path: str, grant: StreamGrant, now: float
    ) -> None:
        """Serve `media_path`, which `grant` opens (checked)."""
        head = scope["method"] == "HEAD"
        kind, _, rest = media_path.partition("/")
        if kind == "live":  # the live master
            await self.live(scope, send, rest[: -len(".m3u8")], None, grant, now, head)
            return
        # check() held: a VOD path lies below the token's stream directory.
        below = media_path.removeprefix(f"vod/{grant.stream}/")
        directory, _, name = below.rpartition("/")
        if name == LIVE_VARIANT and directory and "/" not in directory:  # a rendition's live playlist
            await self.live(scope, send, grant.stream, directory, grant, now, head)
        elif is_made_name(name) and "/" not in directory:
            await self.made(scope, send, grant, directory, made(name), now, head)
        elif (segment := SEGMENT_NAME.fullmatch(name)) is not None and "/" not in directory:
            await self.segment(scope, receive, send, grant, directory, int(segment[1]), now)
        elif name == THUMBNAILS_VTT and not directory and grant.reach.clip is not None:
            await self.clip_vtt(send, grant, now, head)
        elif name == THUMBNAILS_VTT and not directory and grant.reach.live:
            await self.live_vtt(scope, receive, send, grant, rest, now, head)
        else:
            await self.vod_file(scope, receive, send, rest, grant, now)

    async def live(
        self, scope: Scope, send: Send, name: str, rendition: str | None, grant: StreamGrant, now: float, head: bool
    ) -> None:
        """The live master (`rendition` None) or one rendition's live playlist of sample `name`."""
        recording = self.recordings.info(name)
        if recording is not None:
            await self.live_recording(scope, send, name, rendition, recording, grant, head)
            return
        stream = self.live_stream(name)
        sample = stream.renditions.get(rendition) if stream is not None and rendition is not None else None
        if stream is None or (rendition is not None and sample is None):
            await error_answer(send, 404, "Stream not found", "stream_not_found", head)
            return
        span = stream.window(now, rewind_seconds=self.rewind, kickoff=grant.starts_at)
        if span is None:
            kickoff = grant.starts_at if grant.starts_at is not None else now
            wait = max(1, math.ceil(stream.available_at(kickoff) - now))
            await error_answer(
                send,
                409,
                f"This stream has not started: it goes live at {_iso(kickoff)}",
                NOT_STARTED,
                head,
                ((b"retry-after", str(wait).encode()),),
            )
            return
        compressed = _accepts_gzip(scope)
        if sample is None:
            body = stream.master_playlist(compressed=compressed)
        else:
            body = sample.encoded(*span, compressed=compressed)
        await self._playlist(send, body, f"{_scope(grant)}, max-age={LIVE_MAX_AGE}", compressed, head)

    async def live_recording(
        self,
        scope: Scope,
        send: Send,
        asset: str,
        rendition: str | None,
        recording: RecordingInfo,
        grant: StreamGrant,
        head: bool,
    ) -> None:
        """A live input's master or one rendition's rewind window (server.media.recordings)."""
        if rendition is None:
            playlist = self.recordings.master(asset)
        elif rendition in recording.rendition_names:
            playlist = self.recordings.window(asset, rendition, recording.dvr_seconds)
        else:
            await error_answer(send, 404, "Stream not found", "stream_not_found", head)
            return
        if playlist is None:
            wait = str(max(1, math.ceil(recording.segment_seconds))).encode()
            message = "This stream has not started: its first seconds are on their way"
            await error_answer(send, 409, message, NOT_STARTED, head, ((b"retry-after", wait),))
            return
        compressed = _accepts_gzip(scope)
        body = playlist.encoded(compressed=compressed)
        await self._playlist(send, body, f"{_scope(grant)}, max-age={LIVE_MAX_AGE}", compressed, head)

    def _media_playlist(self, stream: str, directory: str) -> tuple[VodPlaylist, Path] | None:
        """The media playlist of a stream's rendition `directory` (or of the stream itself when it
        is one rendition and `directory` is empty), with the directory its files are in."""
        ladder = load_stream(self.root, stream)
        if directory:
            rendition = ladder.rendition(directory) if ladder is not None else None
            return (rendition.playlist, self.root / stream / directory) if rendition is not None else None
        if ladder is not None:
            return None  # the stream's own index is a master
        vod = load_media(self.root, stream)
        return (vod, self.root / stream) if vod is not None else None

    async def made(
        self, scope: Scope, send: Send, grant: StreamGrant, directory: str, wanted: Made | None, now: float, head: bool
    ) -> None:
        """A game or clip playlist: the master at the stream's directory (when it is a ladder), a
        media playlist at a rendition's."""
        if wanted is not None and wanted.clip and self.recordings.info(grant.stream) is not None:
            await self.recording_clip(scope, send, grant, directory, wanted, now, head)
            return
        ladder: Stream | None = load_stream(self.root, grant.stream) if not directory else None
        media = None if ladder is not None or wanted is None else self._media_playlist(grant.stream, directory)
        if wanted is None or (ladder is None and media is None):
            await error_answer(send, 404, "Not found", "not_found", head)
            return
        compressed = _accepts_gzip(scope)
        key = (grant.stream, wanted, ladder is not None)
        if ladder is not None:
            variant = self.made_variant_name
            body = self.playlists.get(
                key, lambda: wanted.master(ladder.ladder, ladder.timeline, variant), compressed=compressed
            )
        else:
            assert media is not None
            vod = media[0]
            body = self.playlists.get(key, lambda: wanted.media_playlist(vod), compressed=compressed)
        max_age = max(0, min(SEGMENT_MAX_AGE, int(grant.expires_at - now)))
        await self._playlist(send, body, f"{_scope(grant)}, max-age={max_age}", compressed, head)

    async def recording_clip(
        self, scope: Scope, send: Send, grant: StreamGrant, directory: str, wanted: Made, now: float, head: bool
    ) -> None:
        """A clip of a live input's recording (server.media.recordings): the master with the
        clip's EXT-X-START, or one rendition's segments of the range. A clip cut during the live
        lies before the edge it was cut at, so its playlists never change."""
        ladder = self.recordings.ladder(grant.stream)
        first = ladder.variants[0].rendition if ladder is not None else ""
        recording = self.recordings.recording(grant.stream, directory or first)
        numbers = recording.covering(wanted.start_ms, wanted.end_ms) if recording is not None else range(0)
        if ladder is None or recording is None or not numbers or (directory and not ladder_has(ladder, directory)):
            await error_answer(send, 404, "Not found", "not_found", head)
            return
        name = clip_file(wanted.start_ms, wanted.end_ms)
        key = (grant.stream, wanted, directory)

        def render() -> str:
            assert ladder is not None and recording is not None
            if directory:
                return recording.range_playlist(wanted.start_ms, wanted.end_ms)
            start = recording.start_tag(wanted.start_ms, numbers)
            variant = self.made_variant_name or name
            return ladder.render(lambda v: f"{v.rendition}/{variant}", extra=(start,))

        compressed = _accepts_gzip(scope)
        body = self.playlists.get(key, render, compressed=compressed)
        max_age = max(0, min(SEGMENT_MAX_AGE, int(grant.expires_at - now)))
        await self._playlist(send, body, f"{_scope(grant)}, max-age={max_age}", compressed, head)

    async def live_vtt(
        self, scope: Scope, receive: Receive, send: Send, grant: StreamGrant, relative: str, now: float, head: bool
    ) -> None:
        """A live stream's previews VTT. A recording's grows with it: cached no longer than a live
        playlist, and empty until its first pictures. A looped sample has none, ever: an empty VTT
        too (a player asks every few seconds and must not see failures), cached as long as a segment."""
        path = self.root / relative
        recording = self.recordings.info(grant.stream) is not None
        if recording and self._existing(path) is not None:
            await self._file(scope, receive, send, path, grant, now, max_age=LIVE_MAX_AGE)
            return
        max_age = LIVE_MAX_AGE if recording else max(0, min(SEGMENT_MAX_AGE, int(grant.expires_at - now)))
        headers = [
            (b"content-type", VTT_TYPE.encode()),
            (b"cache-control", f"{_scope(grant)}, max-age={max_age}".encode()),
        ]
        await _send(send, 200, headers, b"WEBVTT\n", head)

    async def clip_vtt(self, send: Send, grant: StreamGrant, now: float, head: bool) -> None:
        """A clip's thumbnails.vtt: its asset's cues within its range, on its own timeline."""
        made = self.clip_thumbnails(grant)
        if made is None:
            await error_answer(send, 404, "Not found", "not_found", head)
            return
        max_age = max(0, min(SEGMENT_MAX_AGE, int(grant.expires_at - now)))
        headers = [
            (b"content-type", VTT_TYPE.encode()),
            (b"cache-control", f"{_scope(grant)}, max-age={max_age}".encode()),
        ]
        await _send(send, 200, headers, made.body, head)

    async def _playlist(self, send: Send, body: bytes, cache: str, compressed: bool, head: bool) -> None:
        headers = [
            (b"content-type", PLAYLIST_TYPE.encode()),
            (b"cache-control", cache.encode()),
            (b"vary", b"Accept-Encoding"),
        ]
        if compressed:
            headers.append((b"content-encoding", b"gzip"))
        await _send(send, 200, headers, body, head)

    async def segment(
        self, scope: Scope, receive: Receive, send: Send, grant: StreamGrant, directory: str, j: int, now: float
    ) -> None:
        """Segment j of the stream's timeline in one rendition: its file j mod N."""
        media = self._media_playlist(grant.stream, directory)
        if media is None:
            await error_answer(send, 404, "Not found", "not_found", scope["method"] == "HEAD")
            return
        vod, folder = media
        await self._file(scope, receive, send, folder / vod.segments[j % len(vod.segments)].uri, grant, now)

    async def vod_file(
        self, scope: Scope, receive: Receive, send: Send, relative: str, grant: StreamGrant, now: float
    ) -> None:
        await self._file(scope, receive, send, self.root / relative, grant, now)

    def _existing(self, wanted: Path) -> Path | None:
        """`wanted` when it is a file below the media root (no `..` leads out of it)."""
        path = wanted.resolve()
        return path if path.is_relative_to(self.root) and path.is_file() else None

    async def _file(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        wanted: Path,
        grant: StreamGrant,
        now: float,
        *,
        max_age: int = SEGMENT_MAX_AGE,
    ) -> None:
        path = self._existing(wanted)
        if path is None:
            await error_answer(send, 404, "Not found", "not_found", scope["method"] == "HEAD")
            return
        media_type = MEDIA_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        max_age = max(0, min(max_age, int(grant.expires_at - now)))
        # FileResponse answers HEAD, Range (206, multipart for several ranges, 416) and If-Range.
        response = FileResponse(
            path, media_type=media_type, headers={"Cache-Control": f"{_scope(grant)}, max-age={max_age}"}
        )
        await response(scope, receive, send)


def ladder_has(ladder: Ladder, rendition: str) -> bool:
    return any(v.rendition == rendition for v in ladder.variants)


def signed_media_route(settings: Settings, media_root: Path) -> SignedMedia:
    """The endpoint server.web mounts at /media/s/{token}/{path:path}."""
    return SignedMedia(settings, media_root)
