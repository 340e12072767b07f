"""Serving stream media: what a path of the edge layout stands for, answered
(server.media.delivery.edge_routes checks the token and says what the path stands for).

What a path may be is checked here, the same for every viewer (server.media.delivery.reach): the
stored playlist it stands for, that playlist in each of the asset's renditions, and their
segments; for a game or clip only the segments of its range (`seg-<j>.ts` with j among the
segments covering it, or a recording's own files within it); a whole asset's seek previews at its
root, a clip's `thumbnails.vtt` made for its range with only the sheets its cues name, a live
recording's pictures of its rewind window. Anything else answers 404.

Live playlists (server.media.delivery.live) list the last `live_rewind_seconds` of the sample's
endless timeline, cut at the event's kickoff (in the path: `from-<start>`); before kickoff they
answer 409 `stream_not_started` with Retry-After. A live input's recording lists its own rewind
window (server.media.delivery.live_recordings). The hot path is arithmetic for the window and a
playlist rendered once per segment period and rendition.

Made VOD playlists (server.media.delivery.clips): a game's or clip's master and media playlists,
rendered on their first request and written as files with a gzip copy
(server.media.packaging.made_playlists), then answered as files; their segments,
`<rendition>/seg-<j>.ts`, are the rendition's file j mod N.

Caching. Every answer is the same for everyone who may have it (the token only says who may), so
all are `public`: live playlists, masters included, for 1 s (they change every segment, ~2 s);
VOD playlists and segments never change: an hour. Refusals are `no-store`.
"""

import asyncio
import gzip
import math
import mimetypes
import re
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import orjson
from starlette.responses import FileResponse
from starlette.types import Receive, Scope, Send

from ...settings import Settings
from ..packaging.made_playlists import MadePlaylists, WrittenPlaylist
from ..packaging.previews import THUMBNAILS_VTT
from ..playlists import MASTER_PLAYLIST, Ladder, Stream, VodPlaylist, load_stream
from ..recordings import RecordingInfo
from .clips import Made, clip_segments, is_made_name, load_media, made, timeline_of
from .live import LiveStream
from .live_recordings import LiveRecordings
from .reach import PLAYLIST_SUFFIX, Place
from .signing import StreamGrant
from .thumbnails import VTT_TYPE, ClipThumbnails, Thumbnails
from .urls import LIVE_VARIANT, SEGMENT_NAME

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


class MediaServer:
    """Answers for the stored paths a request's path stands for, under a grant saying what that is
    (server.media.delivery.edge_routes makes it). Raw ASGI: no Request/Response objects on the
    live path."""

    def __init__(self, settings: Settings, media_root: Path):
        self.settings = settings
        self.rewind = settings.live_rewind_seconds
        self.root = media_root.resolve()
        self.live_stream = lru_cache(maxsize=32)(self._load_live_stream)
        self.made_playlists = MadePlaylists(self.root)
        self.recordings = LiveRecordings(self.root)
        self.thumbnails = Thumbnails(self.root)

    def _load_live_stream(self, name: str) -> LiveStream | None:
        if not SAMPLE_NAME.match(name):
            return None
        stream = load_stream(self.root, name)
        return LiveStream(stream, name) if stream is not None else None

    # --- what a path may be -----------------------------------------------------------------

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
        return any(
            recording.segments[i].uri == name for start, end in made.spans for i in recording.covering(start, end)
        )

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
            return made is not None and timeline is not None and made.covers(timeline, place.segment)
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

    async def respond(
        self, scope: Scope, receive: Receive, send: Send, media_path: str, grant: StreamGrant, now: float
    ) -> None:
        """Serve `media_path`, which `grant` opens (checked)."""
        head = scope["method"] == "HEAD"
        kind, _, rest = media_path.partition("/")
        if kind == "live":  # the live master
            await self.live(scope, send, rest[: -len(".m3u8")], None, grant, now, head)
            return
        # opens() held: a VOD path lies below the stream directory.
        below = media_path.removeprefix(f"vod/{grant.stream}/")
        directory, _, name = below.rpartition("/")
        if name == LIVE_VARIANT and directory and "/" not in directory:  # a rendition's live playlist
            await self.live(scope, send, grant.stream, directory, grant, now, head)
        elif is_made_name(name) and "/" not in directory:
            await self.made(scope, receive, send, grant, directory, name, now, head)
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
        await self._playlist(send, body, f"public, max-age={LIVE_MAX_AGE}", compressed, head)

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
        await self._playlist(send, body, f"public, max-age={LIVE_MAX_AGE}", compressed, head)

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
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        grant: StreamGrant,
        directory: str,
        name: str,
        now: float,
        head: bool,
    ) -> None:
        """A game or clip playlist: the master at the stream's directory (when it is a ladder), a
        media playlist at a rendition's; written once as files (server.media.packaging.made_playlists)."""
        wanted = made(name)
        if wanted is not None and wanted.clip and self.recordings.info(grant.stream) is not None:
            await self.recording_clip(scope, receive, send, grant, directory, name, wanted, now, head)
            return
        ladder: Stream | None = load_stream(self.root, grant.stream) if not directory else None
        media = None if ladder is not None or wanted is None else self._media_playlist(grant.stream, directory)
        if wanted is None or (ladder is None and media is None):
            await error_answer(send, 404, "Not found", "not_found", head)
            return
        chosen = wanted

        def render() -> str:
            if ladder is not None:
                return chosen.master(ladder.ladder, ladder.timeline)
            assert media is not None
            return chosen.media_playlist(media[0])

        written = await self._written(grant.stream, name, directory, render)
        await self._made_file(scope, receive, send, written, grant, now)

    async def recording_clip(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        grant: StreamGrant,
        directory: str,
        name: str,
        wanted: Made,
        now: float,
        head: bool,
    ) -> None:
        """A clip of a live input's recording (server.media.recordings): the master with the
        clip's EXT-X-START, or one rendition's segments of the range. A clip cut during the live
        lies before the edge it was cut at, so its playlists never change once its range is
        recorded: then they are written once; before, answered as a live playlist is."""
        ladder = self.recordings.ladder(grant.stream)
        first = ladder.variants[0].rendition if ladder is not None else ""
        recording = self.recordings.recording(grant.stream, directory or first)
        numbers = recording.covering(wanted.start_ms, wanted.end_ms) if recording is not None else range(0)
        if ladder is None or recording is None or not numbers or (directory and not ladder_has(ladder, directory)):
            await error_answer(send, 404, "Not found", "not_found", head)
            return

        def render() -> str:
            assert ladder is not None and recording is not None
            if directory:
                return recording.range_playlist(*wanted.spans[0], more=wanted.spans[1:])
            start = recording.start_tag(wanted.start_ms, numbers)
            return ladder.render(lambda v: f"{v.rendition}/{MASTER_PLAYLIST}", extra=(start,))

        if recording.duration * 1000 < wanted.end_ms:  # still being recorded: not final yet
            compressed = _accepts_gzip(scope)
            body = render().encode()
            body = gzip.compress(body, compresslevel=6, mtime=0) if compressed else body
            await self._playlist(send, body, f"public, max-age={LIVE_MAX_AGE}", compressed, head)
            return
        written = await self._written(grant.stream, name, directory, render)
        await self._made_file(scope, receive, send, written, grant, now)

    async def _written(self, stream: str, name: str, directory: str, render: Callable[[], str]) -> WrittenPlaylist:
        """A made playlist's files (server.media.packaging.made_playlists), written on its first
        request: then in a thread, as a week-long game's playlist is megabytes of text."""
        made_name = name.removesuffix(PLAYLIST_SUFFIX)
        place = self.made_playlists.location(stream, made_name, directory or None)
        if place.compressed.is_file():
            return place
        return await asyncio.to_thread(self.made_playlists.written, stream, made_name, directory or None, render)

    async def _made_file(
        self, scope: Scope, receive: Receive, send: Send, written: WrittenPlaylist, grant: StreamGrant, now: float
    ) -> None:
        """A made playlist's file answer: gzipped for players that accept it, cached as a segment is."""
        compressed = _accepts_gzip(scope)
        max_age = max(0, min(SEGMENT_MAX_AGE, int(grant.expires_at - now)))
        headers = {"Cache-Control": f"public, max-age={max_age}", "Vary": "Accept-Encoding"}
        if compressed:
            headers["Content-Encoding"] = "gzip"
        path = written.compressed if compressed else written.plain
        await FileResponse(path, media_type=PLAYLIST_TYPE, headers=headers)(scope, receive, send)

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
            (b"cache-control", f"public, max-age={max_age}".encode()),
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
            (b"cache-control", f"public, max-age={max_age}".encode()),
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
        response = FileResponse(path, media_type=media_type, headers={"Cache-Control": f"public, max-age={max_age}"})
        await response(scope, receive, send)


def ladder_has(ladder: Ladder, rendition: str) -> bool:
    return any(v.rendition == rendition for v in ladder.variants)
