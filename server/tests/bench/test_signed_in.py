"""The signed-in bench's report: ratios to config on the same database and to bare ASGI."""

from server.bench.load import LoadResult
from server.bench.signed_in import REQUESTS_LUA, render


def row(name: str, rate: float, errors: int = 0) -> LoadResult:
    return LoadResult(name, "saturated", rate, 1.0, 2.0, int(rate), errors)


def test_ratios_are_to_config_on_the_same_database_and_verdicts_follow_the_targets():
    results = [
        row("config (sqlite)", 4000),
        row("event page, signed in (sqlite)", 2400),
        row("event list, signed in (sqlite)", 1600),
        row("token refresh (sqlite)", 1200, errors=3),
        row("config (postgres)", 2000),
        row("event list, signed in (postgres)", 1200),
    ]
    text = render(results, row("bare ASGI", 40000), cores=2)
    assert "cores: 2" in text
    assert "event page, signed in (sqlite): 0.60 of config (target >= 0.5) PASS" in text
    assert "event list, signed in (sqlite): 0.40 of config (target >= 0.5) FAIL" in text
    assert "token refresh (sqlite): 0.30 of config (target >= 0.25) FAIL" in text  # errors fail it
    assert "event list, signed in (postgres): 0.60 of config (target >= 0.5) PASS" in text


def test_the_lua_script_formats_every_bearer_once():
    script = REQUESTS_LUA % ('"a","b"', '"GET"', '"/api/config"', "nil")
    assert 'local tokens = {"a","b"}' in script and "init = function(args)" in script
