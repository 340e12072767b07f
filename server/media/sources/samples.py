"""The shipped samples (fixtures/media/<sample>/, made by scripts/sample_video.py) as a source
of assets: a seeded event plays a sample through an asset of its own (server.media.assets.store
links it to the sample's bytes, provided once per store)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..assets.store import NAME, MediaStore

MASTER = "index.m3u8"
NOT_SAMPLES = ("ads",)  # fixtures/media/ads holds the test ad's creative


@lru_cache(maxsize=4)
def sample_names(samples_dir: Path) -> frozenset[str]:
    """The samples shipped in `samples_dir`: directories with a master playlist."""
    try:
        return frozenset(
            entry.name
            for entry in Path(samples_dir).iterdir()
            if entry.name not in NOT_SAMPLES and NAME.match(entry.name) and (entry / MASTER).is_file()
        )
    except OSError:
        return frozenset()


def provide(store: MediaStore, samples_dir: Path, sample: str) -> None:
    """Make `sample`'s bytes available in `store` (once). Raises ValueError for an unknown sample."""
    if sample not in sample_names(Path(samples_dir)):
        raise ValueError(f"no sample called {sample!r}")
    store.provide_sample(sample, Path(samples_dir) / sample)
