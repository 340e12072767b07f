"""`--since` and `--until` of a period: an instant (ISO 8601: `2026-11-30T18:00:00Z`, a date, or a
local time with its offset; without one, UTC) or an age (`45s`, `30m`, `2h`, `1d`, `1w`: that long
ago). An age is taken from the moment it is read, so `touchline qoe --since 30m --watch` looks at
the last thirty minutes at every look rather than at the thirty minutes before the command began.

A value that is neither is a usage error (exit code 2) naming both forms, before any request."""

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import typer

AGE = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])", re.IGNORECASE)
UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
EARLIEST = datetime.min.replace(tzinfo=UTC)
FORMS = "an instant (2026-11-30T18:00:00Z) or an age (30m, 2h, 1d: that long ago)"


@dataclass(frozen=True)
class InstantOrAge:
    """An instant, or an age before whatever moment it is read at."""

    instant: datetime | None = None
    age: timedelta | None = None

    def at(self, now: datetime) -> datetime:
        if self.instant is not None:
            return self.instant
        assert self.age is not None
        return now - self.age

    def wire(self, now: datetime) -> str:
        """The API's form: UTC, to the second, with Z."""
        return self.at(now).astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def instant_or_age(value: str) -> InstantOrAge:
    """Typer's parser for the options: a usage error when `value` is neither form."""
    text = value.strip()
    age = AGE.fullmatch(text)
    if age:
        amount, unit = float(age.group(1)), age.group(2).lower()
        try:
            ago = timedelta(**{UNITS[unit]: amount})
        except OverflowError:
            ago = timedelta.max
        if ago > datetime.now(UTC) - EARLIEST:  # no instant is that long ago
            raise typer.BadParameter(f"{value!r} is too long ago")
        return InstantOrAge(age=ago)
    try:
        instant = datetime.fromisoformat(text.upper())
        in_utc = instant.astimezone(UTC) if instant.tzinfo is not None else instant.replace(tzinfo=UTC)
    except (ValueError, OverflowError):
        raise typer.BadParameter(f"{value!r} is not {FORMS}") from None
    return InstantOrAge(instant=in_utc)
