"""Media assets (server.media.assets) a test run makes go to a directory of the run's own, not
the project's var/media: every Settings() a test makes reads TOUCHLINE_MEDIA_DIR (Settings reads
the environment when made, not when imported). Imported by the conftests."""

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import overload

MEDIA_DIR = tempfile.mkdtemp(prefix="touchline-test-media-")
os.environ["TOUCHLINE_MEDIA_DIR"] = MEDIA_DIR
atexit.register(shutil.rmtree, MEDIA_DIR, ignore_errors=True)
# Every ladder the tests transcode (uploads and live inputs, here and in the servers they start)
# with x264's fastest preset: the same renditions, segments and playlists for about half the CPU
# of the default. The default preset's command is tested on its own (tests/media/packaging).
os.environ.setdefault("TOUCHLINE_X264_PRESET", "ultrafast")

# The broadcast samples' renditions (fixtures/media/<sport>), in their masters' order.
SAMPLE_LADDER = ("360p", "234p", "720p", "144p")


def _assets_named_after_the_samples() -> None:
    """Delivery tests sign stored paths by hand (`/media/vod/football/game-7200.m3u8`): the test
    store holds one asset named after each shipped sample, playing it. A fixture only: in a real
    store every asset has a generated id and belongs to one event (server.media.assets)."""
    from server.media.assets.store import MediaStore
    from server.media.sources import samples
    from server.seed.fixtures import FIXTURES_DIR

    store, shipped = MediaStore(Path(MEDIA_DIR)), FIXTURES_DIR / "media"
    for sample in samples.sample_names(shipped):
        samples.provide(store, shipped, sample)
        store.link_sample(sample, sample)


_assets_named_after_the_samples()


_ASSET_ID = re.compile(r"(?<=/)[0-9a-f]{24}(?=/|\.m3u8)")


@overload
def as_sample(url: str) -> str: ...
@overload
def as_sample(url: None) -> None: ...
def as_sample(url: str | None) -> str | None:
    """`url` with each asset id in it replaced by the name of the sample the asset plays (read
    off the asset's directory link): `/media/live/<asset>.m3u8` -> `/media/live/football.m3u8`.
    Lets a test say which video an event plays; that the asset is the event's own is tested in
    server/tests/media/test_assets.py."""
    if url is None:
        return None

    def sample(match: re.Match) -> str:
        link = Path(MEDIA_DIR) / "assets" / match[0]
        return Path(os.readlink(link)).name if link.is_symlink() else match[0]

    return _ASSET_ID.sub(sample, url)


def as_samples(value):
    """as_sample over every string in `value` (socket messages, lists of them)."""
    if isinstance(value, str):
        return as_sample(value)
    if isinstance(value, dict):
        return {k: as_samples(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(as_samples(v) for v in value)
    return value


def linked(data):
    """A built catalogue (server.seed.catalogue.SeedData) whose assets' directories are made in
    the test store, so its streams play as the seeded ones do."""
    from server.media.assets.store import MediaStore
    from server.seed import assets
    from server.seed.fixtures import FIXTURES_DIR

    assets.link(MediaStore(Path(MEDIA_DIR)), FIXTURES_DIR / "media", data.media_assets)
    return data


# Test servers start no nginx-rtmp (they would all want port 1935); the ingest tests start their own.
os.environ["TOUCHLINE_INGEST_ENABLED"] = "false"
