"""An event's outages in words (`touchline credit`, the QoE screen): the day is said once unless an
outage runs past midnight, and one that lasts runs "to now"."""

from cli.outage_credit_figures import outage_of


def test_an_outage_within_a_day_names_its_day_once():
    outage = {"start": "2026-11-30T19:10:00Z", "end": "2026-11-30T19:21:00Z", "cause": "ingest"}
    assert outage_of(outage) == "2026-11-30 19:10 to 19:21 UTC: live input interrupted"


def test_an_outage_past_midnight_names_both_days():
    outage = {"start": "2026-11-30T23:50:00Z", "end": "2026-12-01T00:05:00Z", "cause": "start_failures"}
    assert outage_of(outage) == "2026-11-30 23:50 to 2026-12-01 00:05 UTC: plays failing to start"


def test_an_outage_that_lasts_runs_to_now():
    outage = {"start": "2026-11-30T19:10:00Z", "end": None, "cause": "ingest"}
    assert outage_of(outage) == "2026-11-30 19:10 UTC to now: live input interrupted"
