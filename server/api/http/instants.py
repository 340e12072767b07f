"""A date-time field of a request body as an aware instant, or a 400 in the error envelope that
names the field (the contract's `format: date-time` is not checked by its validator)."""

from datetime import datetime

from ...errors import ApiError
from ...instants import parse_instant


def instant_field(field: str, value: str | None, *, naive_is_utc: bool = False) -> datetime | None:
    if value is None:
        return None
    try:
        parsed: datetime | None = parse_instant(value, naive_is_utc=naive_is_utc)
    except ValueError:
        parsed = None
    if parsed is None:
        offset = "" if naive_is_utc else " with its offset"
        message = f"{field} must be a date and time{offset}, like 2026-12-31T23:59:59Z"
        raise ApiError(message, code="validation_error", details=[{"field": field, "message": message}])
    return parsed
