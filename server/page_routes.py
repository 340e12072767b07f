"""The webapp's pages as the server knows them: which paths are pages (the rest answer 404 with the
app's page, which shows its not-found screen), and which language a page without a locale prefix is
shown in.

PAGE_PATTERNS mirrors `pageRoutes()` of webapp/src/app/routes.tsx, mounted at "/" and again under
"/:locale" (webapp/src/app/router.tsx). webapp/tests/app/routePatterns.json is the list both sides
are held to: a webapp test compares it with the router's routes, server/tests/test_page_routes.py
with this table, so a route added on one side only fails a test.
"""

from collections.abc import Iterable
from urllib.parse import quote

# The webapp's locales (spec §9; webapp/src/i18n/locales.ts). English has no path prefix.
LOCALES = ("en", "de", "es", "fr", "fr-CA", "he", "it", "pl", "pt", "ca", "ko", "zh", "bs-BA", "uk-UA")
DEFAULT_LOCALE = "en"
# The cookie the webapp writes with the visitor's language, for a year (webapp/src/i18n/index.ts).
LOCALE_COOKIE = "i18n_locale"

# Without locale prefix; ":name" is one path segment. "" is the index route.
PAGE_PATTERNS: tuple[str, ...] = (
    "",
    "home",
    "about",
    "faq",
    "terms",
    "privacy",
    "latest",
    "search",
    "archive",
    "upcoming",
    "highlight",
    "suggested",
    "live",
    "live/:sportType",
    "open-app",
    "info/:type",
    "events/stats/:eventId",
    "events/:eventId",
    "channels/:eventId",
    "league/:leagueId",
    "category/:mainId",
    "category/:mainId/sub-category/:subId",
    "team/:teamId",
    "redirect/events/:referenceId",
    "club",
    "recommendation",
    "selected/clips",
    "selected/videos",
    "multiview",
    "account",
    "account/general",
    "account/password",
    "account/devices",
    "account/billing",
    "account/ppv",
    "account/ppv/:id",
    "account/subscription",
    "account/subscription/:id",
    "account/subscription/buy/:id",
    "payment/failure",
    "payment/success",
    "payment/processing",
    "auth/login",
    "auth/login/limit",
    "auth/sign-up",
    "auth/sign-up/personalization",
    "auth/sign-up/subscription",
    "auth/sign-up/subscription/buy/:id",
    "auth/sign-up/subscription/code",
    "auth/password/reset",
    "auth/password/forgot",
    "auth/verify",
    "auth/oauth2/callback/:provider",
    *(
        f"{prefix}/{pattern}"
        for prefix in ("following", "auth/sign-up/following")
        for pattern in (
            "league",
            "league/followed",
            "league/:leagueId",
            "league/:leagueId/followed",
            "category",
            "category/followed",
            "category/:mainId",
            "category/:mainId/followed",
        )
    ),
)

# Pages a visitor must reach exactly as addressed: the sign-on popup's callback (its opener reads
# the popup's address).
_NOT_LOCALIZED = ("auth/oauth2/callback/",)


def _compile(patterns: Iterable[str]) -> tuple[tuple[str | None, ...], ...]:
    """Each pattern as its segments, None for a parameter; literals lower-cased (react-router
    matches case-insensitively)."""
    return tuple(
        tuple(None if part.startswith(":") else part.lower() for part in pattern.split("/") if part)
        for pattern in patterns
    )


_COMPILED = _compile(PAGE_PATTERNS)


def _segments(path: str) -> list[str]:
    return [segment for segment in path.split("/") if segment]


def _matches(segments: list[str]) -> bool:
    return any(
        len(pattern) == len(segments)
        and all(part is None or part == segment.lower() for part, segment in zip(pattern, segments, strict=True))
        for pattern in _COMPILED
    )


def is_page(path: str, redirected: Iterable[str] = ()) -> bool:
    """Whether the webapp's router has a page at `path` (with or without a locale prefix): what it
    does not have shows the not-found screen, and the server answers that with 404. Paths of
    `redirected` (the configured redirect rules, which the webapp applies to any path) count as
    pages: the app sends the visitor on."""
    segments = _segments(path)
    if _matches(segments):
        return True
    if segments and segments[0] in LOCALES:
        segments = segments[1:]
        if _matches(segments):
            return True
    bare = "/" + "/".join(segments)
    return any(bare == "/" + "/".join(_segments(rule)) for rule in redirected)


def locale_of_prefix(path: str) -> str | None:
    """The locale a path's prefix names ("/de/live" → "de"), None without one."""
    segments = _segments(path)
    return segments[0] if segments and segments[0] in LOCALES else None


def preferred_locale(accept_language: str | None) -> str | None:
    """The visitor's first language among ours (RFC 9110 Accept-Language, by weight): an exact tag
    ("fr-CA"), else its language ("de-AT" → de, "uk" → uk-UA, "pt-BR" → pt); None if none fits."""
    if not accept_language:
        return None
    by_lower = {locale.lower(): locale for locale in LOCALES}
    by_language = {locale.split("-")[0].lower(): locale for locale in reversed(LOCALES)}
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate(accept_language.split(",")):
        tag, _, params = item.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and tag != "*" and weight > 0:
            ranked.append((-weight, index, tag.strip().lower()))
    for _, _, tag in sorted(ranked):
        if tag in by_lower:
            return by_lower[tag]
        if (language := tag.split("-")[0]) in by_language:
            return by_language[language]
    return None


def cookie_value(cookie_header: str | None, name: str) -> str | None:
    for part in (cookie_header or "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value.strip()
    return None


def localized_location(
    path: str, query: str, cookie_header: str | None, accept_language: str | None, redirected: Iterable[str] = ()
) -> str | None:
    """Where a page without a locale prefix should go instead, or None to show it in English.

    The language the visitor chose last (the locale cookie, written by the webapp on every page it
    shows) wins; without one, their browser's Accept-Language on this first visit. English pages
    have no prefix, so only the other 13 locales redirect."""
    if locale_of_prefix(path) is not None or not is_page(path, redirected):
        return None
    bare = "/".join(_segments(path))
    if bare.startswith(_NOT_LOCALIZED) or "storeUrl=" in query:
        return None
    chosen = cookie_value(cookie_header, LOCALE_COOKIE)
    locale = chosen if chosen in LOCALES else preferred_locale(accept_language)
    if locale is None or locale == DEFAULT_LOCALE:
        return None
    tail = quote(path.lstrip("/"), safe="/-._~!$&'()*+,;=:@%")
    return f"/{locale}/{tail}" + (f"?{query}" if query else "")
