"""A series as one line of unicode block characters (▁▂▃▄▅▆▇█), for terminals that show no widget:
`touchline qoe` draws viewers and rebuffering over a period with it.

The lowest block is zero and the highest the series' peak, so a flat line reads as flat whatever
its level; a step without a figure (None: nothing played in it) is a space, which a zero is not."""

from collections.abc import Sequence

BLOCKS = "▁▂▃▄▅▆▇█"
GAP = " "


def fitted(values: Sequence[float | None], width: int) -> list[float | None]:
    """At most `width` values: adjacent steps merged, each keeping its highest figure, so a short
    spike stays in sight however long the period."""
    if width < 1:
        raise ValueError("a sparkline is at least one character wide")
    if len(values) <= width:
        return list(values)
    merged: list[float | None] = []
    for index in range(width):
        chunk = values[index * len(values) // width : (index + 1) * len(values) // width]
        known = [value for value in chunk if value is not None]
        merged.append(max(known) if known else None)
    return merged


def sparkline(values: Sequence[float | None], width: int = 60) -> str:
    """'▁▂▅█ ▃': each value as a block scaled to the series' peak; '' for no values."""
    points = fitted(values, width) if values else []
    peak = max((value for value in points if value is not None), default=0.0)
    top = len(BLOCKS) - 1
    return "".join(GAP if value is None else BLOCKS[round(value / peak * top) if peak > 0 else 0] for value in points)
