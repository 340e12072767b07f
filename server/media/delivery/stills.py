"""Public stills: the poster of an archive or a highlight as cards and event pages show it
(issue 29 §5), at `/media/stills/<asset>.jpg?v=<hash>`.

An asset's own `poster.jpg` (server.media.packaging.previews) lies beside its media, which only a
stream token opens; a poster is artwork anyone may see, like the league posters. So publishing an
asset copies its poster here, `<media dir>/stills/<asset>.jpg`, served as static, immutable
artwork (server.web.ArtworkFiles). A highlight cut from a recording gets a frame of its own
range (`extract`), not its parent's poster. Deleting the asset removes its still.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path

from ..assets.store import NAME
from ..packaging.previews import POSTER, PreviewFailed, poster_command, run_quietly
from .urls import MEDIA_PREFIX, versioned

STILLS = "stills"


class Stills:
    def __init__(self, media_dir: Path):
        self.root = Path(media_dir) / STILLS

    def path(self, asset_id: str) -> Path:
        if not NAME.match(asset_id):
            raise ValueError(f"{asset_id!r} is not an asset id")
        return self.root / f"{asset_id}.jpg"

    def url(self, asset_id: str) -> str | None:
        """The still's versioned address, None when the asset has none."""
        path = self.path(asset_id)
        return versioned(f"{MEDIA_PREFIX}/{STILLS}/{path.name}", path) if path.is_file() else None

    def publish(self, asset_id: str, asset_directory: Path) -> str | None:
        """Copy the asset's poster (when it has one) as its still; its address."""
        poster = asset_directory / POSTER
        if not poster.is_file():
            return None
        self._place(asset_id, lambda staging: shutil.copyfile(poster, staging))
        return self.url(asset_id)

    async def extract(self, asset_id: str, media: Path, at_seconds: float) -> str | None:
        """A frame of `media` (a segment or a playlist) at `at_seconds` as the asset's still;
        None when ffmpeg cannot make one (the caller falls back on the parent's)."""
        self.root.mkdir(parents=True, exist_ok=True)
        staging = self.root / f".{asset_id}.{secrets.token_hex(4)}.jpg"
        try:
            await run_quietly(poster_command(media, at_seconds, staging))
            if not staging.is_file() or staging.stat().st_size == 0:
                return None
            os.replace(staging, self.path(asset_id))
        except (PreviewFailed, OSError):
            return None
        finally:
            with contextlib.suppress(FileNotFoundError):
                staging.unlink()
        return self.url(asset_id)

    def remove(self, asset_id: str) -> None:
        with contextlib.suppress(FileNotFoundError, ValueError):
            self.path(asset_id).unlink()

    def _place(self, asset_id: str, write: Callable[[Path], object]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        staging = self.root / f".{asset_id}.{secrets.token_hex(4)}.jpg"
        try:
            write(staging)
            os.replace(staging, self.path(asset_id))
        finally:
            with contextlib.suppress(FileNotFoundError):
                staging.unlink()
