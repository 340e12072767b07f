"""Which paths are the webapp's pages, and which language a page without locale prefix is shown in."""

import json

import pytest

from server.page_routes import (
    LOCALES,
    PAGE_PATTERNS,
    is_page,
    localized_location,
    preferred_locale,
)
from server.settings import PROJECT_ROOT

SHARED = PROJECT_ROOT / "webapp" / "tests" / "app" / "routePatterns.json"


def test_the_server_knows_the_same_pages_as_the_webapps_router():
    """webapp/tests/app/routes.test.tsx holds the router's routes to the same list."""
    assert list(PAGE_PATTERNS) == json.loads(SHARED.read_text())["patterns"]


def test_the_server_knows_the_webapps_locales():
    from server.api.meta.config import LOCALES as CONFIG_LOCALES

    assert LOCALES == CONFIG_LOCALES


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/home",
        "/live/",
        "/live/football",
        "/events/64b7f0c2a1",
        "/events/stats/64b7f0c2a1",
        "/category/1/sub-category/2",
        "/account/subscription/buy/abc",
        "/auth/sign-up/following/league/3/followed",
        "/de",
        "/de/",
        "/fr-CA/league/3",
        "/en/about",
        "/About",
    ],
)
def test_paths_the_router_has_a_page_for(path):
    assert is_page(path)


@pytest.mark.parametrize(
    "path",
    [
        "/no-such-page",
        "/events",
        "/events/1/2/3",
        "/xx/about",
        "/DE/about",
        "/de/de/about",
        "/league",
        "/account/nothing",
        "/following/team",
    ],
)
def test_paths_without_a_page_are_not_found(path):
    assert not is_page(path)


def test_a_redirect_rules_path_counts_as_a_page_the_app_sends_on():
    assert is_page("/old/path/", redirected=["/old/path"])
    assert is_page("/de/old/path", redirected=["/old/path"])
    assert not is_page("/other/path", redirected=["/old/path"])


@pytest.mark.parametrize(
    ("header", "locale"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("en-US,en;q=0.9,de;q=0.8", "en"),
        ("fr-CA", "fr-CA"),
        ("fr-BE,fr;q=0.9", "fr"),
        ("uk", "uk-UA"),
        ("bs", "bs-BA"),
        ("pt-BR", "pt"),
        ("zh-TW,zh;q=0.9", "zh"),
        ("nl;q=0.9,pl;q=0.5", "pl"),
        ("it;q=0.2,es;q=0.8", "es"),
        ("nl, ja", None),
        ("de;q=0", None),
        ("*", None),
        ("", None),
    ],
)
def test_the_visitors_first_language_among_ours(header, locale):
    assert preferred_locale(header) == locale


def test_the_chosen_language_in_the_cookie_wins_over_the_browsers():
    assert localized_location("/", "", "i18n_locale=de", "fr") == "/de/"
    assert localized_location("/league/3", "tab=2", "theme=dark; i18n_locale=pl", None) == "/pl/league/3?tab=2"


def test_english_chosen_or_preferred_stays_without_prefix():
    assert localized_location("/", "", "i18n_locale=en", "de") is None
    assert localized_location("/live", "", None, "en-GB,de;q=0.5") is None
    assert localized_location("/live", "", None, None) is None


def test_a_first_visit_follows_accept_language():
    assert localized_location("/live", "", None, "de-AT,de;q=0.9") == "/de/live"
    assert localized_location("/", "", "i18n_locale=klingon", "es") == "/es/"


def test_prefixed_unknown_and_callback_pages_are_never_redirected():
    assert localized_location("/fr/live", "", "i18n_locale=de", None) is None
    assert localized_location("/no-such-page", "", "i18n_locale=de", None) is None
    assert localized_location("/auth/oauth2/callback/ifa", "code=1", "i18n_locale=de", None) is None
    assert localized_location("/", "storeUrl=https%3A%2F%2Fapps.apple.com", "i18n_locale=de", None) is None
