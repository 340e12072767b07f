"""The generated posters say what the catalogue holds."""

from server.seed.artwork import competitions_line
from server.seed.fixtures import load_catalogue


def test_a_sport_poster_counts_only_competitions_that_are_not_archived():
    spec = load_catalogue()
    football = next(sport for sport in spec.sports if sport.slug == "football")
    archived = [league for league in football.leagues if league.archived]
    assert archived, "the catalogue keeps an archived football competition"
    current = len(football.leagues) - len(archived)
    assert competitions_line(football) == f"{current} competitions live and on demand"


def test_one_competition_is_singular():
    spec = load_catalogue()
    sport = spec.sports[0]
    only = type(sport)(**{**sport.__dict__, "leagues": [league for league in sport.leagues if not league.archived][:1]})
    assert competitions_line(only) == "1 competition live and on demand"
