"""Lengths of access: a contract period or a pay-per-view window, in calendar units."""

from datetime import datetime, timedelta

from dateutil.relativedelta import relativedelta

# A pay-per-view product without a duration gives this long after kickoff.
DEFAULT_PPV_WINDOW = timedelta(days=7)
# A renewal that failed keeps access this long while the viewer fixes the card.
RENEWAL_GRACE = timedelta(days=3)


def add_duration(start: datetime, duration: int | None, units: str | None) -> datetime | None:
    """`start` plus `duration` `units` (months and years are calendar months and years, so a
    contract started on 31 January ends on the last day of February); None when unbounded."""
    if not duration or not units:
        return None
    step = {
        "hours": relativedelta(hours=duration),
        "days": relativedelta(days=duration),
        "weeks": relativedelta(weeks=duration),
        "months": relativedelta(months=duration),
        "years": relativedelta(years=duration),
    }[units]
    return start + step


def ppv_window(now: datetime, kickoff: datetime | None, duration: int | None, units: str | None) -> datetime:
    """Access to a pay-per-view event runs from the purchase until `duration` after kickoff (or
    after the purchase, when that is later)."""
    start = max(now, kickoff) if kickoff else now
    return add_duration(start, duration, units) or start + DEFAULT_PPV_WINDOW
