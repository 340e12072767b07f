"""The spoiler-free rules (server/services/spoilers.py): what an answer asked with `spoilers=hide`
leaves out, held against the seeded catalogue's own text."""

import functools
import re
from datetime import UTC, datetime

import pytest

from server.seed.catalogue import SeedData, build_catalogue
from server.services.spoilers import HIDDEN, SHOWN, Spoilers, without_scores

NOW = datetime(2026, 11, 22, 21, 7, 33, tzinfo=UTC)
# A score however it is written, as a reader would see it: not inside a longer number or a date.
ANY_SCORE = re.compile(r"(?<![\d\-\u2013\u2014])\d{1,3}\s*[-\u2013\u2014]\s*\d{1,3}(?![\d\-\u2013\u2014])")


@functools.cache
def seed() -> SeedData:
    return build_catalogue(NOW)


@pytest.mark.parametrize("score", ["3-1", "3 - 1", "3–1", "3 – 1", "3—1", "10-12"])
def test_a_score_between_two_names_becomes_vs(score):
    title = f"Highlights: Harbor City Mariners {score} Northfield Rovers"
    assert without_scores(title) == "Highlights: Harbor City Mariners vs Northfield Rovers"


@pytest.mark.parametrize(
    "text",
    [
        "Kick-off on 2026-11-30 at 19:45",
        "Condensed game (1:05)",
        "Northern Premier Division U-21",
        "Goal 23' - Harbor City Mariners",
        "Substitution 61' - Riverside Rovers, #14 on",
        "P2 04:17",
        "Round 1234-5678",
    ],
)
def test_dates_durations_and_age_groups_are_left_alone(text):
    assert without_scores(text) == text


def test_a_score_at_either_end_or_before_a_full_stop_goes_too():
    assert without_scores("2-1 to the Mariners") == "vs to the Mariners"
    assert without_scores("The Mariners won 2-1.") == "The Mariners won vs."


def test_a_bracketed_result_goes_whole_and_a_sets_winner_is_not_named():
    title = "Set 5 to Cape Bay Sharks: CBS 15-13 HCM (sets 3-2)"
    assert without_scores(title) == "Set 5: CBS vs HCM"
    assert without_scores("Harbor City Mariners advance (agg. 4-2)") == "Harbor City Mariners advance"


def test_every_seeded_highlight_title_loses_its_score():
    data = seed()
    teams = {t["id"]: t["name"] for t in data.teams}
    highlights = [e for e in data.events if e["highlight_kind"] == "highlight"]
    assert highlights and all(ANY_SCORE.search(e["title"]) for e in highlights)
    for event in highlights:
        home, away = teams[event["home_team_id"]], teams[event["away_team_id"]]
        assert without_scores(event["title"]) == f"Highlights: {home} vs {away}"


def test_no_seeded_text_keeps_a_score_or_a_sets_winner():
    """Titles and descriptions of events, highlights, clips and programme slots, and the official
    tags' titles (goals carry the running score, volleyball sets their points and winner)."""
    data = seed()
    texts = [e[field] for e in data.events for field in ("title", "description") if e[field]]
    texts += [p[field] for p in data.epg_programmes for field in ("title", "description") if p[field]]
    texts += [t["title"] for t in data.tags]
    scored = [text for text in texts if ANY_SCORE.search(text)]
    assert len(scored) > 100  # the seed has plenty to hide
    for text in scored:
        hidden = without_scores(text)
        assert not ANY_SCORE.search(hidden), (text, hidden)
        assert not re.search(r"\bSet \d+ to ", hidden), (text, hidden)
    # Nothing else changes: every other text is answered as it is.
    assert all(without_scores(text) == text for text in texts if text not in scored)


def test_an_archived_match_has_no_length_while_a_highlight_or_clip_keeps_its_own():
    assert HIDDEN.duration(6900, is_clip=False) is None
    assert HIDDEN.duration(55, is_clip=True) == 55
    assert SHOWN.duration(6900, is_clip=False) == 6900


def test_stats_answer_neither_scores_nor_overview_when_hidden():
    assert [HIDDEN.stats(True), HIDDEN.stats(False)] == [False, False]
    assert [SHOWN.stats(True), SHOWN.stats(False)] == [True, False]


def test_a_tag_marking_how_a_set_or_period_ended_names_no_team_when_hidden():
    assert not HIDDEN.names_team("set_end") and not HIDDEN.names_team("period_end")
    assert HIDDEN.names_team("goal") and HIDDEN.names_team(None) and SHOWN.names_team("set_end")


def test_only_hide_hides():
    assert Spoilers.asked("hide") is HIDDEN
    assert Spoilers.asked("show") is Spoilers.asked(None) is SHOWN
    assert HIDDEN.text(None) is None and SHOWN.text("A 3-1 B") == "A 3-1 B"
