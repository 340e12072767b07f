"""The live side of recordings for the media route (server.media.delivery.routes): which assets
are recordings, their live master and each rendition's rewind window, rendered once per change of
the transcoder's files or of the window (a stat per request tells; no database)."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..playlists import MASTER_PLAYLIST, Ladder, parse_master_playlist
from ..recordings import RECORDING_FILE, Recording, RecordingInfo
from .urls import live_variant_uri


class LiveRecordings:
    """The live side of recordings for the media route: which assets are recordings, their live
    master and each rendition's rewind window, rendered once per change of the transcoder's files
    (a stat per request tells; no database)."""

    def __init__(self, root: Path):
        self.root = root
        self._cache: dict[tuple[str, str], tuple[tuple[int, int, object], Any]] = {}

    def _cached(self, key: tuple[str, str], path: Path, make: Callable[[bytes], Any], also: object = None) -> Any:
        """What `make` makes of `path`, made again when the file changes (or `also` does)."""
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_mtime_ns, stat.st_size, also)
        hit = self._cache.get(key)
        if hit is not None and hit[0] == version:
            return hit[1]
        try:
            value = make(path.read_bytes())
        except (OSError, ValueError, KeyError, TypeError):
            value = None
        if len(self._cache) >= RECORDING_CACHE_ENTRIES:
            self._cache.clear()
        self._cache[key] = (version, value)
        return value

    def info(self, asset: str) -> RecordingInfo | None:
        """The recording's info, or None when `asset` is no recording."""
        return self._cached((asset, RECORDING_FILE), self.root / asset / RECORDING_FILE, RecordingInfo.loads)

    def master(self, asset: str) -> Rendered | None:
        """The live master: the recording's measured master, its variants at their live playlists
        (`../vod/<asset>/<rendition>/live.m3u8`). None until the first segments are measured."""

        def make(data: bytes) -> Rendered:
            ladder = parse_master_playlist(data.decode())
            return Rendered(ladder.render(lambda v: live_variant_uri(v.rendition)).encode())

        return self._cached((asset, MASTER_PLAYLIST), self.root / asset / MASTER_PLAYLIST, make)

    def recording(self, asset: str, rendition: str) -> Recording | None:
        """A rendition's recording so far (or its archive)."""
        playlist = self.root / asset / rendition / MASTER_PLAYLIST
        return self._cached((asset, f"{rendition}/recording"), playlist, lambda data: Recording.parse(data.decode()))

    def ladder(self, asset: str) -> Ladder | None:
        """The recording's master as measured (None before its first segments)."""
        master = self.root / asset / MASTER_PLAYLIST
        return self._cached(
            (asset, f"{MASTER_PLAYLIST}/ladder"), master, lambda data: parse_master_playlist(data.decode())
        )

    def window(self, asset: str, rendition: str, dvr_seconds: float) -> Rendered | None:
        """A rendition's live playlist now; None before its first segment."""

        def make(data: bytes) -> Rendered:
            return Rendered(Recording.parse(data.decode()).live_playlist(dvr_seconds).encode())

        playlist = self.root / asset / rendition / MASTER_PLAYLIST
        return self._cached((asset, rendition), playlist, make, also=dvr_seconds)  # staff may change it live


RECORDING_CACHE_ENTRIES = 1024


class Rendered:
    """A playlist's bytes and, once a player accepts it, their gzip."""

    def __init__(self, body: bytes):
        self.body = body
        self._compressed: bytes | None = None

    def encoded(self, *, compressed: bool) -> bytes:
        if not compressed:
            return self.body
        if self._compressed is None:
            self._compressed = gzip.compress(self.body, compresslevel=6, mtime=0)
        return self._compressed
