"""The matching rules of search, without a database: words, typos and ranking."""

import pytest

from server.errors import ApiError
from server.services.search import (
    EXACT,
    FUZZY,
    INSIDE,
    PREFIX,
    Named,
    Vocabulary,
    edit_distance,
    max_edits,
    query_of,
    words_of,
)


def named(title: str) -> Named:
    return Named(id=title, title=title, words=tuple(title.lower().split()))


def test_words_are_lower_case_distinct_and_at_most_eight():
    assert words_of("  Ashford  TOWN ashford ") == ["ashford", "town"]
    assert len(words_of(" ".join(f"w{i}" for i in range(20)))) == 8


def test_a_query_without_words_is_a_validation_error():
    with pytest.raises(ApiError) as raised:
        words_of("   ")
    assert raised.value.code == "validation_error"


def test_short_words_allow_no_typo_and_long_ones_two():
    assert [max_edits(w) for w in ("ash", "asfo", "asford", "ashforde", "northerner")] == [0, 1, 1, 2, 2]


def test_edit_distance_counts_a_swap_of_neighbours_as_one_edit():
    assert edit_distance("asford", "ashford", 2) == 1
    assert edit_distance("premeir", "premier", 2) == 1
    assert edit_distance("kitten", "sitting", 3) == 3
    assert edit_distance("kitten", "sitting", 1) == 2  # stops once over the limit


def test_vocabulary_finds_words_a_typo_may_stand_for_nearest_first():
    vocabulary = Vocabulary(["ashford", "ashfield", "town", "mariners", "marines"])
    assert vocabulary.near("asford") == ["ashford"]
    assert vocabulary.near("marinrs") == ["mariners", "marines"]
    assert vocabulary.near("twn") == []  # three letters: no typos
    assert vocabulary.near("ashford") == []  # the word itself is no typo


def test_names_rank_exact_then_prefix_then_inside_then_typo():
    items = [named("Pert Rangers"), named("Sport Club"), named("Portsmouth Athletic"), named("Port Town")]
    query = query_of("port", Vocabulary(w for item in items for w in item.words))
    ranked = query.ranked(items, 10)
    assert [(m.item.title, m.rank) for m in ranked] == [
        ("Port Town", EXACT),
        ("Portsmouth Athletic", PREFIX),
        ("Sport Club", INSIDE),
        ("Pert Rangers", FUZZY),
    ]


def test_every_word_must_match_a_name():
    items = [named("Ashford Town"), named("Port Town")]
    query = query_of("town ash", Vocabulary(w for item in items for w in item.words))
    assert [m.item.title for m in query.ranked(items, 10)] == ["Ashford Town"]


def test_the_event_query_adds_typos_only_for_words_no_name_holds():
    vocabulary = Vocabulary(["ashford", "mariners", "marines"])
    query = query_of("ashf marinrs", vocabulary)
    assert query.event_typos == {"ashf": [], "marinrs": ["mariners", "marines"]}
    assert query_of("marines", vocabulary).event_typos == {"marines": []}
