"""Instants read from requests: RFC 3339 text to an aware datetime in UTC.

An offset near the ends of the date range moves the instant out of it
(`9999-12-31T23:59:59-00:01` is in year 10000 in UTC): Python raises OverflowError for that,
which every caller must see as the same bad value as unparseable text. One parser does both.
"""

from datetime import UTC, datetime


def parse_instant(text: str, *, naive_is_utc: bool = True) -> datetime:
    """The instant `text` names, in UTC. ValueError when it is not a date and time, has no offset
    (unless `naive_is_utc`), or lies outside the years 1 to 9999 once in UTC."""
    moment = datetime.fromisoformat(text.strip().upper().replace(" ", "T"))
    return in_utc(moment, naive_is_utc=naive_is_utc)


def in_utc(moment: datetime, *, naive_is_utc: bool = True) -> datetime:
    """`moment` in UTC, with the same errors as parse_instant."""
    if moment.tzinfo is None:
        if not naive_is_utc:
            raise ValueError("a date and time without an offset")
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise ValueError("a date and time outside the years 1 to 9999 in UTC") from None
