"""Game and clip playlists written once, as files (issue 30 §3).

A made playlist (server.media.delivery.clips) lists segments of a finished asset, or of a
recording before the point a clip was cut at: its text never changes. So it is rendered on its
first request and written beside its asset, with its gzip copy, and every later request (from any
process, after a restart too) is a file answer, as a segment's is:

    <asset>/.made/<made>/index.m3u8[.gz]              the master (`<made>`: `game-<s>`, `clip-<f>-<t>`)
    <asset>/.made/<made>/<rendition>.m3u8[.gz]        one rendition's media playlist

The directory's name starts with a dot, which no path of the media routes may hold
(server.media.delivery.reach), so these files are answered only as the made playlists they are.
Two processes writing the same playlist at once write the same text: each writes its own temporary
file and renames it into place, so a reader never sees half a file. A clip of a recording that has
not reached its end yet is not written (server.media.delivery.routes answers it as a live one).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..playlists import MASTER_PLAYLIST
from ..recordings import write_atomically

MADE_DIRECTORY = ".made"


@dataclass(frozen=True)
class WrittenPlaylist:
    plain: Path
    compressed: Path


class MadePlaylists:
    """The made playlists of the assets below `root`."""

    def __init__(self, root: Path):
        self.root = root

    def location(self, asset: str, made: str, rendition: str | None) -> WrittenPlaylist:
        """Where the playlist of `made` (a directory name of the URL layout) is kept: the master
        when `rendition` is None."""
        name = f"{rendition}.m3u8" if rendition else MASTER_PLAYLIST
        plain = self.root / asset / MADE_DIRECTORY / made / name
        return WrittenPlaylist(plain, plain.with_name(f"{name}.gz"))

    def written(self, asset: str, made: str, rendition: str | None, render: Callable[[], str]) -> WrittenPlaylist:
        """The playlist's files, rendered and written by this call when they are not there yet."""
        place = self.location(asset, made, rendition)
        if place.compressed.is_file():  # written last: both are there
            return place
        body = render().encode()
        place.plain.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(place.plain, body)
        write_atomically(place.compressed, gzip.compress(body, compresslevel=6, mtime=0))
        return place
