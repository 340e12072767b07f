"""Spoiler-free answers: what an answer asked with `spoilers=hide` leaves out (issue 31 §1).

A fan who has not watched a match yet must not learn how it went from anything the app shows: a
highlight's title ("Highlights: Harbor City Mariners 3-1 Northfield Rovers"), the stats, the
running score in a goal tag, or an archived match's length (a match that ran long went to
overtime). The server answers without them when asked, so nothing leaks into the page's HTML or
its first-view data either (server/first_view.py); the webapp asks that way in spoiler-free mode
and reveals a score only when the viewer asks for it, with `spoilers=show`.

The rules, applied by the presenters of the operations that take the flag:
- free text (titles, descriptions, a programme slot's text, a tag's title) loses every score:
  one between two names becomes "vs", a bracketed one after a word ("(sets 3-1)") goes whole,
  and a set's winner ("Set 2 to Cape Bay Sharks:") is no longer named;
- the stats answer neither the scores nor the overview metrics (they tell how the match went);
- an archived match has no duration, while a highlight or clip keeps its own;
- a tag marking a result (a set or period that ended) names no team.
"""

import re
from dataclasses import dataclass

HIDE, SHOW = "hide", "show"

# 1-3 digits, a hyphen or dash with an optional space either side, 1-3 digits: "3-1", "3 - 1",
# "3–1". Only as a word of its own (whitespace or the text's ends around it, a sentence's comma
# or full stop after it), so dates ("2026-11-30"), times ("1:05") and "U-21" are left alone.
_SCORE = r"\d{1,3} ?[-\u2013\u2014] ?\d{1,3}"
SCORE = re.compile(rf"(?<!\S){_SCORE}(?=[,;.!?]?(?:\s|$))")
# "(sets 3-1)", "(agg. 4-2)", "(3-1)": a score in brackets, at most one word before it, is a
# result said in passing; it goes with its brackets and the space before them.
RESULT_ASIDE = re.compile(rf"\s*\((?:[^\W\d_]+\.? )?{_SCORE}\)")
# "Set 2 to Cape Bay Sharks:" (the seeded volleyball tags, server/seed/tags.py): the last set's
# winner is the match's.
SET_WINNER = re.compile(r"\b(set \d+) to [^:]+:", re.IGNORECASE)
# Tag subtypes that mark how a part of the match ended (server/seed/tags.py).
RESULT_TAG_SUBTYPES = frozenset({"set_end", "period_end"})


def without_scores(text: str) -> str:
    """`text` with no score or result in it: "Highlights: A 3-1 B" becomes "Highlights: A vs B"."""
    text = RESULT_ASIDE.sub("", text)
    text = SET_WINNER.sub(r"\1:", text)
    return SCORE.sub("vs", text)


@dataclass(frozen=True)
class Spoilers:
    """How an answer treats scores and results: as asked with the contract's `spoilers` flag."""

    hide: bool

    @classmethod
    def asked(cls, flag: str | None) -> "Spoilers":
        """The mode a request's `spoilers` value asks for (the contract admits `hide` and `show`)."""
        return HIDDEN if flag == HIDE else SHOWN

    def text(self, value: str | None) -> str | None:
        """Free text of the answer: without scores when they are hidden."""
        return without_scores(value) if self.hide and value else value

    def duration(self, seconds: int | None, *, is_clip: bool) -> int | None:
        """A video's length: a match's gives overtime away, a highlight's or clip's is its own."""
        return None if self.hide and not is_clip else seconds

    def stats(self, asked: bool) -> bool:
        """Whether the stats answer carries a part that was asked for (the scores, the overview)."""
        return asked and not self.hide

    def names_team(self, tag_subtype: str | None) -> bool:
        """Whether a tag may name its team: not when it marks who won a part of the match."""
        return not (self.hide and tag_subtype in RESULT_TAG_SUBTYPES)


SHOWN = Spoilers(hide=False)
HIDDEN = Spoilers(hide=True)
