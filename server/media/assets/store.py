"""Where assets' bytes live: one directory per asset below `<TOUCHLINE_MEDIA_DIR>/assets/`.

    <media dir>/assets/<asset id>/           the asset's directory, served at /media/vod/<asset id>/ (with a token)
    <media dir>/assets/.samples/<sample>/    the shipped samples' bytes (hard links of fixtures/media)

A sample asset's directory is a relative link to `.samples/<sample>`, and a clip's or
highlight's a link to its parent's bytes: many assets may share the same bytes, each under its
own name (so a stream token, which names one asset, opens one event's media whatever the bytes
behind it). A recording or an upload is a real directory. Links stay inside the assets root, so
every path served resolves below it. `.samples` is no asset: a path part never starts with a dot
(server.media.delivery.reach.PART).

Everything the media code writes or removes goes through this one small interface, so a store on
shared or object storage can take its place when Touchline runs on several machines; the one
exception is the made playlists the media routes keep below an asset's directory
(server.media.packaging.made_playlists), which such a store would hold beside the asset's own files.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
from pathlib import Path

from ...settings import Settings

ASSETS = "assets"
SAMPLES = ".samples"
# Asset ids (server.models.new_id) and sample names: what a directory below the root may be called.
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
# What _link and provide_sample stage under before renaming into place.
STAGING = re.compile(r"^\.[a-z0-9][a-z0-9-]{0,39}\.[0-9a-f]{8}$")


class MediaStore:
    def __init__(self, media_dir: Path):
        self.media_dir = Path(media_dir)
        self.root = self.media_dir / ASSETS

    def directory(self, asset_id: str) -> Path:
        """The directory of an asset (it may not exist)."""
        if not NAME.match(asset_id):
            raise ValueError(f"{asset_id!r} is not an asset id")
        return self.root / asset_id

    def exists(self, asset_id: str) -> bool:
        return NAME.match(asset_id) is not None and self.directory(asset_id).is_dir()

    def sample_directory(self, sample: str) -> Path:
        return self.root / SAMPLES / sample

    def provide_sample(self, sample: str, source: Path) -> Path:
        """The sample's bytes in the store (hard links of `source`, copies across file systems),
        made once; a sample already there is left as it is."""
        if not NAME.match(sample):
            raise ValueError(f"{sample!r} is not a sample name")
        target = self.sample_directory(sample)
        if target.is_dir():
            return target
        staging = target.with_name(f".{sample}.{secrets.token_hex(4)}")
        shutil.copytree(source, staging, copy_function=_link_or_copy)
        try:
            staging.rename(target)
        except OSError:  # another process made it meanwhile
            shutil.rmtree(staging, ignore_errors=True)
            if not target.is_dir():
                raise
        return target

    def link_sample(self, asset_id: str, sample: str) -> Path:
        """Make the asset's directory a link to a sample already provided."""
        return self._link(asset_id, Path(SAMPLES) / sample)

    def link_to(self, asset_id: str, parent_id: str) -> Path:
        """Make the asset's directory share the bytes of `parent_id` (a clip of a recording):
        a link to the parent's own target when the parent is a link, else to the parent."""
        parent = self.directory(parent_id)
        target = Path(os.readlink(parent)) if parent.is_symlink() else Path(parent_id)
        return self._link(asset_id, target)

    def make_directory(self, asset_id: str) -> Path:
        """A real, empty directory for an asset whose bytes are written here (a live input)."""
        directory = self.directory(asset_id)
        directory.mkdir(parents=True, exist_ok=True)
        return directory

    def remove(self, asset_id: str) -> None:
        """Remove an asset's directory (its link, or its own bytes); nothing if there is none."""
        directory = self.directory(asset_id)
        if directory.is_symlink() or directory.is_file():
            directory.unlink(missing_ok=True)
        elif directory.is_dir():
            shutil.rmtree(directory)

    def entries(self) -> tuple[dict[str, float], dict[str, float]]:
        """(asset directories, staging leftovers) below the root, each name with when it last
        changed (epoch seconds): asset directories and links, and the `.<name>.<hex>` a link or
        sample left half made. `.samples` is neither."""
        assets: dict[str, float] = {}
        leftovers: dict[str, float] = {}
        try:
            entries = list(os.scandir(self.root))
        except OSError:
            return {}, {}
        for entry in entries:
            try:
                changed = entry.stat(follow_symlinks=False).st_mtime
            except OSError:
                continue  # removed meanwhile
            if NAME.match(entry.name):
                assets[entry.name] = changed
            elif STAGING.match(entry.name):
                leftovers[entry.name] = changed
        return assets, leftovers

    def link_target(self, asset_id: str) -> str | None:
        """The asset whose bytes `asset_id`'s directory shares (a clip's recording), if it is a link to one."""
        try:
            target = Path(os.readlink(self.directory(asset_id)))
        except OSError:
            return None
        return target.parts[0] if target.parts and NAME.match(target.parts[0]) else None

    def remove_leftover(self, name: str) -> None:
        """Remove a staging leftover (entries)."""
        if not STAGING.match(name):
            raise ValueError(f"{name!r} is no staging leftover")
        path = self.root / name
        if path.is_symlink() or path.is_file():
            path.unlink(missing_ok=True)
        elif path.is_dir():
            shutil.rmtree(path, ignore_errors=True)

    def used_bytes(self) -> int:
        """What the store holds on disk: every file below it, each link counted once as a link
        (a sample's many assets are its bytes once)."""
        total = 0
        pending = [self.media_dir]
        while pending:
            try:
                entries = list(os.scandir(pending.pop()))
            except OSError:
                continue
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(Path(entry.path))
                    else:
                        total += entry.stat(follow_symlinks=False).st_size
                except OSError:
                    continue  # removed meanwhile
        return total

    def _link(self, asset_id: str, target: Path) -> Path:
        """Point the asset's directory at `target` (relative to the root), atomically: a link
        that exists already is replaced, so two processes seeding at once agree."""
        directory = self.directory(asset_id)
        self.root.mkdir(parents=True, exist_ok=True)
        if directory.is_symlink() and Path(os.readlink(directory)) == target:
            return directory
        staging = directory.with_name(f".{asset_id}.{secrets.token_hex(4)}")
        staging.symlink_to(target, target_is_directory=True)
        os.replace(staging, directory)
        return directory


def _link_or_copy(source: str, destination: str) -> str:
    try:
        os.link(source, destination)
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
            raise
        shutil.copy2(source, destination)
    return destination


def store_of(settings: Settings) -> MediaStore:
    return MediaStore(settings.media_dir)


def samples_dir(settings: Settings) -> Path:
    """Where the shipped samples are (server.media.sources.samples)."""
    return settings.fixtures_dir / "media"
