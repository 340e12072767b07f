"""`--since` and `--until` of `touchline qoe`: an ISO 8601 instant, or an age counted back from the
moment the period is asked for; anything else is a usage error naming both forms."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
import typer

from cli.commands.instant_or_age import InstantOrAge, instant_or_age

NOW = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "ago"),
    [
        ("45s", timedelta(seconds=45)),
        ("30m", timedelta(minutes=30)),
        ("2h", timedelta(hours=2)),
        ("1d", timedelta(days=1)),
        ("1w", timedelta(weeks=1)),
        ("1.5h", timedelta(minutes=90)),
        (" 10 M ", timedelta(minutes=10)),  # as typed in a hurry: spaces, capitals
    ],
)
def test_an_age_is_that_long_before_the_moment_it_is_read(value, ago):
    assert instant_or_age(value).at(NOW) == NOW - ago


def test_an_age_moves_with_the_clock_an_instant_does_not():
    age, instant = instant_or_age("30m"), instant_or_age("2026-11-30T19:00:00Z")
    later = NOW + timedelta(minutes=5)
    assert age.at(later) - age.at(NOW) == timedelta(minutes=5)
    assert instant.at(later) == instant.at(NOW)


@pytest.mark.parametrize(
    ("value", "wire"),
    [
        ("2026-11-30T18:00:00Z", "2026-11-30T18:00:00Z"),
        ("2026-11-30T19:00:00+01:00", "2026-11-30T18:00:00Z"),  # an offset is turned into UTC
        ("2026-11-30T18:00:00", "2026-11-30T18:00:00Z"),  # none means UTC
        ("2026-11-30", "2026-11-30T00:00:00Z"),
        ("2026-11-30t18:00:00.750z", "2026-11-30T18:00:00Z"),  # lower case; to the second
    ],
)
def test_an_instant_is_sent_in_utc_to_the_second(value, wire):
    assert instant_or_age(value).wire(NOW) == wire


def test_an_age_is_sent_as_the_instant_it_names():
    later_zone = NOW.astimezone(timezone(timedelta(hours=-5)))
    assert instant_or_age("2h").wire(later_zone) == "2026-11-30T18:00:00Z"


@pytest.mark.parametrize("value", ["yesterday", "30", "-5m", "5 minutes", "2026-13-01", "", "10y"])
def test_anything_else_is_a_usage_error_naming_both_forms(value):
    with pytest.raises(typer.BadParameter) as refused:
        instant_or_age(value)
    assert (
        str(refused.value)
        == f"{value!r} is not an instant (2026-11-30T18:00:00Z) or an age (30m, 2h, 1d: that long ago)"
    )


def test_an_age_before_any_instant_is_refused_rather_than_overflowing():
    with pytest.raises(typer.BadParameter, match="is too long ago"):
        instant_or_age("99999999999999999999w")


def test_the_parsed_value_is_kept_as_what_was_given():
    assert instant_or_age("30m") == InstantOrAge(age=timedelta(minutes=30))
