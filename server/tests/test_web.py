"""The built webapp as the server serves it: client-side routes, cache headers, gzip copies."""

import base64
import gzip
import hashlib
import os

import httpx
import pytest

from server.settings import Settings
from server.web import app_store_id, page_policy, static_app, with_app_store_banner

INDEX = "<!doctype html><html><body><div id=root></div>" + "<!-- padding -->" * 64 + "</body></html>"
SCRIPT = "console.log('touchline');" * 64


@pytest.fixture
def dist(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text(INDEX)
    (tmp_path / "index.html.gz").write_bytes(gzip.compress(INDEX.encode()))
    (tmp_path / "assets" / "index-abc123.js").write_text(SCRIPT)
    (tmp_path / "assets" / "index-abc123.js.gz").write_bytes(gzip.compress(SCRIPT.encode()))
    return tmp_path


@pytest.fixture
async def client(dist):
    app = static_app(Settings(environment="test", webapp_dist=dist))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as client:
        yield client


async def test_a_client_side_route_gets_the_app_page_revalidated_on_every_visit(client):
    response = await client.get("/de/league/3", headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200 and response.text == INDEX
    assert response.headers["cache-control"] == "no-cache"


async def test_hashed_assets_are_cached_for_a_year(client):
    response = await client.get("/assets/index-abc123.js", headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200 and response.text == SCRIPT
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert response.headers["content-type"].startswith("text/javascript")


async def test_browsers_accepting_gzip_get_the_precompressed_copy(client):
    response = await client.get("/assets/index-abc123.js", headers={"Accept-Encoding": "gzip, br"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.text == SCRIPT  # httpx decodes it: the copy holds the same file
    page = await client.get("/live", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and page.text == INDEX


async def test_a_missing_asset_is_a_404_not_the_app_page(client):
    response = await client.get("/assets/index-gone.js")
    assert response.status_code == 404
    assert response.json()["messageErrorCode"] == "not_found"


# --- the page's Content-Security-Policy -------------------------------------------------------

THEME_SCRIPT = "\n      document.documentElement.dataset.theme = 'dark';\n    "
PAGE = (
    "<!doctype html><html><head><script>" + THEME_SCRIPT + "</script>"
    "<style>html{background:#000}</style>"
    '<script type="module" crossorigin src="/assets/index-abc123.js"></script></head>'
    "<body><div id=root></div></body></html>"
)


def directives(policy: str) -> dict[str, list[str]]:
    return {name: sources for name, *sources in (part.split() for part in policy.split("; "))}


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


async def test_the_page_allows_its_own_scripts_and_its_inline_script_by_hash_only(tmp_path):
    (tmp_path / "index.html").write_text(PAGE)
    app = static_app(Settings(environment="test", webapp_dist=tmp_path))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as http:
        page = await http.get("/live")
        asset = await http.get("/assets/missing.js")
    policy = directives(page.headers["content-security-policy"])
    assert policy["script-src"] == ["'self'", sha256(THEME_SCRIPT)]
    assert policy["style-src-attr"] == ["'none'"]
    assert policy["style-src-elem"] == ["'self'", "'unsafe-inline'"]  # media-chrome's shadow DOM
    assert policy["media-src"] == ["'self'", "blob:"]  # hls.js plays through Media Source Extensions
    assert policy["connect-src"] == ["'self'"]  # the API and the socket (ws: of this host)
    assert policy["img-src"] == ["'self'", "data:"]  # the build inlines small artwork as data: URLs
    assert (policy["object-src"], policy["base-uri"], policy["form-action"], policy["frame-ancestors"]) == (
        ["'none'"],
        ["'self'"],
        ["'self'"],
        ["'none'"],
    )
    assert "content-security-policy" not in asset.headers


async def test_a_rebuilt_page_gets_the_hashes_of_its_new_inline_script(tmp_path):
    index = tmp_path / "index.html"
    index.write_text(PAGE)
    app = static_app(Settings(environment="test", webapp_dist=tmp_path))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as http:
        before = (await http.get("/")).headers["content-security-policy"]
        index.write_text(PAGE.replace("'dark'", "'light'"))
        os.utime(index, (1, 1))
        after = (await http.get("/")).headers["content-security-policy"]
    assert sha256(THEME_SCRIPT) in before
    assert sha256(THEME_SCRIPT.replace("'dark'", "'light'")) in after


def test_configured_sign_on_providers_and_other_origins_are_allowed_and_nothing_else():
    bare = directives(page_policy(Settings(environment="test"), PAGE))
    assert not any("https://" in source for sources in bare.values() for source in sources)
    configured = Settings(
        environment="test",
        google_client_id="google-client",
        apple_client_id="apple-client",
        facebook_app_id="fb",
        facebook_app_secret="fb-secret",
        ads_vast_url="https://ads.example.net/vast.xml?zone=1",
        content_origins=["https://cdn.touchline.example"],
        public_base_url="https://watch.touchline.example",
        socket_base="https://rt.touchline.example/",
    )
    policy = directives(page_policy(configured, PAGE))
    assert policy["script-src"][2:] == [
        "https://connect.facebook.net",
        "https://appleid.cdn-apple.com",
        "https://accounts.google.com/gsi/client",
    ]
    assert "https://accounts.google.com/gsi/" in policy["frame-src"]
    assert "https://appleid.apple.com" in policy["frame-src"]
    assert "https://accounts.google.com/gsi/style" in policy["style-src-elem"]
    elsewhere = ["https://watch.touchline.example", "https://ads.example.net", "https://cdn.touchline.example"]
    for directive in ("img-src", "media-src", "connect-src"):
        assert all(origin in policy[directive] for origin in elsewhere), directive
    assert "wss://rt.touchline.example" in policy["connect-src"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]


def test_the_page_may_frame_the_survey_form_and_report_errors_to_the_dsn():
    default = page_policy(Settings(environment="test"), INDEX)
    assert "frame-src 'self';" in default and "sentry" not in default
    elsewhere = Settings(
        environment="test",
        survey_form_url="https://forms.example.com/f/1?embed=1",
        sentry_webapp_dsn="https://key@o12.ingest.sentry.example:8443/34",
    )
    policy = page_policy(elsewhere, INDEX)
    assert "frame-src 'self' https://forms.example.com;" in policy
    connect = next(d for d in policy.split("; ") if d.startswith("connect-src"))
    assert connect.endswith(" https://o12.ingest.sentry.example:8443") and "key@" not in policy


def test_data_blocks_are_not_scripts_and_get_no_hash():
    """JSON data blocks (server/first_view.py) do not run: the policy allows only what does."""
    data = '<script type="application/json" id="first-answers">[{"a":"b"}]</script>'
    module = '<script type="module">import "/assets/x.js";</script>'
    policy = directives(page_policy(Settings(environment="test"), PAGE.replace("</body>", data + module + "</body>")))
    assert policy["script-src"] == ["'self'", sha256(THEME_SCRIPT), sha256('import "/assets/x.js";')]


# --- pages that are not pages, the visitor's language, Safari's app banner, artwork caching -------


async def test_a_path_the_webapp_has_no_page_for_answers_404_with_the_app_page(client):
    """The app still shows its not-found screen; crawlers and link checkers see 404."""
    for path in ("/no-such-page", "/de/no-such-page", "/xx/live", "/events"):
        response = await client.get(path, headers={"Accept-Encoding": "identity"})
        assert response.status_code == 404, path
        assert response.text == INDEX and response.headers["content-type"].startswith("text/html")
    for path in ("/", "/live", "/de/league/3", "/auth/login/"):
        assert (await client.get(path)).status_code == 200, path


async def test_an_old_address_with_a_redirect_rule_is_a_page_the_app_sends_on(dist):
    app = static_app(Settings(environment="test", webapp_dist=dist, redirects={"/old/path": "/live"}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as http:
        assert (await http.get("/old/path")).status_code == 200
        assert (await http.get("/older/path")).status_code == 404


async def test_the_language_chosen_last_is_remembered_for_pages_without_prefix(client):
    response = await client.get("/league/3?tab=2", headers={"Cookie": "i18n_locale=de"})
    assert response.status_code == 302
    assert response.headers["location"] == "/de/league/3?tab=2"
    assert "Cookie" in response.headers["vary"] and "Accept-Language" in response.headers["vary"]
    english = await client.get("/league/3", headers={"Cookie": "i18n_locale=en", "Accept-Language": "de"})
    assert english.status_code == 200
    assert (await client.get("/de/live", headers={"Cookie": "i18n_locale=fr"})).status_code == 200


async def test_a_first_visit_gets_the_browsers_language(client):
    response = await client.get("/", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    assert response.status_code == 302 and response.headers["location"] == "/pl/"
    assert (await client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"})).status_code == 200
    assert (await client.get("/", headers={"Accept-Language": "nl-NL"})).status_code == 200


def test_safari_gets_apples_app_banner_with_the_tenants_app_id():
    settings = Settings(environment="test", smart_banner_ios_url="https://apps.apple.com/us/app/touchline/id1234567")
    page = with_app_store_banner(PAGE, settings)
    assert '<meta name="apple-itunes-app" content="app-id=1234567"></head>' in page
    assert with_app_store_banner(PAGE, settings.model_copy(update={"smart_banner_enabled": False})) == PAGE
    assert with_app_store_banner(PAGE, settings.model_copy(update={"smart_banner_ios_url": None})) == PAGE
    assert app_store_id("https://apps.apple.com/app/id0000000000") == "0000000000"
    assert app_store_id("https://example.com/app") is None


async def test_artwork_at_a_versioned_address_is_cached_for_good(dist):
    app = static_app(Settings(environment="test", webapp_dist=dist))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as http:
        versioned = await http.get("/media/posters/basketball.svg?v=0123456789ab")
        bare = await http.get("/media/logos/ashford-town.svg")
        again = await http.get("/media/logos/ashford-town.svg", headers={"If-None-Match": bare.headers["etag"]})
    assert versioned.status_code == 200
    assert versioned.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert bare.headers["cache-control"] == "public, max-age=604800" and bare.headers["etag"]
    assert again.status_code == 304


def test_seeded_artwork_addresses_carry_their_content_hash():
    from server.seed.catalogue import logo_url, poster_url
    from server.seed.fixtures import FIXTURES_DIR

    svg = (FIXTURES_DIR / "posters" / "basketball.svg").read_bytes()
    assert poster_url("basketball") == f"/media/posters/basketball.svg?v={hashlib.sha256(svg).hexdigest()[:12]}"
    assert logo_url("ashford-town").startswith("/media/logos/ashford-town.svg?v=")
