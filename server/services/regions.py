"""Where something may be watched or bought: the region rule every check shares."""

from collections.abc import Iterable


def in_region(regions: Iterable[str] | None, available_anywhere: bool, region: str | None) -> bool:
    """True when it is available at all and, if it names regions, the viewer's region is one."""
    if not available_anywhere:
        return False
    allowed = tuple(regions or ())
    return not allowed or (region is not None and region in allowed)
