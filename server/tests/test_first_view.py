"""The webapp's page with its first view (server/first_view.py): the API's anonymous answers to the
first page's requests as a data block, and the first poster in the loading frame."""

import asyncio
import base64
import hashlib
import json
import re

import httpx
import orjson
import pytest

from server import clock, first_view
from server.api.http.contract_document import document
from server.first_view import (
    CLIP_MEDIA_TYPES,
    CONFIG,
    HOME_LEAGUES,
    HOME_RAILS,
    SPOILERS_COOKIE,
    json_for_html,
    view_of,
    without_spoilers,
)
from server.realtime import signals
from server.settings import PROJECT_ROOT, Settings
from server.web import _InlineScripts, page_policy, static_app, with_app_store_banner

from .accounts import sign_up
from .conftest import with_state

# The page's template as the build copies it: its markers are where the server writes.
INDEX = (PROJECT_ROOT / "webapp" / "index.html").read_text(encoding="utf-8")
BLOCK = re.compile(r'<script type="application/json" id="first-answers">(.*?)</script>', re.DOTALL)
PLAIN = {"Accept-Encoding": "identity"}


def first_answers(page: str) -> list[dict]:
    blocks = BLOCK.findall(page)
    assert len(blocks) == 1, "one data block"
    return json.loads(blocks[0])


def requests_of(page: str) -> list[dict]:
    return [entry["request"] for entry in first_answers(page)]


@pytest.fixture
def dist(tmp_path):
    (tmp_path / "index.html").write_text(INDEX, encoding="utf-8")
    return tmp_path


@pytest.fixture(autouse=True)
def patient_first_view(monkeypatch):
    """What the page carries is checked here, not how fast: a first answer of a cold process on a
    loaded test machine may take more than the production budget (the slow-API test sets its own)."""
    monkeypatch.setattr(first_view, "ANSWER_TIMEOUT_SECONDS", 15.0)


@pytest.fixture
def fixed_clock(monkeypatch):
    """Stream URLs are signed at the answer's instant: one instant, so two answers compare equal."""
    instant = clock.timestamp()
    monkeypatch.setattr(clock, "timestamp", lambda: instant)


def site(api, static):
    """/api to the API, the rest to the static app, as server.app dispatches."""

    async def app(scope, receive, send):
        target = api if scope["path"].startswith("/api") else static
        await target(scope, receive, send)

    return app


@pytest.fixture
async def web(api, database, settings, dist, catalogue, fixed_clock):
    """The real API behind the page (no page cache: every page is built afresh)."""
    state = {"database": database, "settings": settings}
    page_settings = settings.model_copy(update={"webapp_dist": dist, "catalogue_cache_seconds": 0})
    app = with_state(site(api, static_app(page_settings, api=api)), state)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as client:
        yield client


def test_the_requests_are_the_ones_the_webapp_makes():
    """webapp/tests/api/firstAnswers.test.ts checks the app's own requests against the same file:
    an answer to a request the app does not make would never be used."""
    shared = json.loads((PROJECT_ROOT / "webapp" / "tests" / "api" / "firstViewRequests.json").read_text())
    assert shared["config"] == CONFIG.as_json()
    assert shared["home"] == [ask.as_json() for ask in (*HOME_RAILS, HOME_LEAGUES)]
    assert view_of("/events/EVENT_ID", "", {}).asks == view_of("/de/events/EVENT_ID", "", {"locales": ["de"]}).asks
    assert [ask.as_json() for ask in view_of("/events/EVENT_ID", "", {}).asks] == [shared["event"]]
    highlight = view_of("/events/EVENT_ID", "media_type=highlight", {}).asks
    assert [ask.as_json() for ask in highlight] == [shared["highlight"]]


def takes_spoilers(path: str) -> bool:
    """Whether the contract's operation at `path` (under /api, ids filled in) takes `spoilers`."""
    for template, item in document()["paths"].items():
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):  # paths hold no other regex syntax
            parameters = [p for operation in item.values() for p in operation.get("parameters", [])]
            return {"$ref": "#/components/parameters/Spoilers"} in parameters
    raise LookupError(path)


def test_in_spoiler_free_mode_the_asks_of_operations_taking_the_flag_hide_spoilers():
    """The app adds `spoilers=hide` to the calls whose operations take it (the contract's list,
    webapp/src/session/spoilers.ts): the page's asks must be those very requests."""
    views = [
        view_of(path, query, {}) for path, query in (("/", ""), ("/events/E", ""), ("/events/E", "media_type=clip"))
    ]
    asks = [(ask, hidden) for view in views for ask, hidden in zip(view.asks, without_spoilers(view).asks, strict=True)]
    assert len(asks) == len(HOME_RAILS) + 1 + 2
    for ask, hidden in asks:
        if takes_spoilers(ask.path):
            assert hidden.as_json() == {**ask.as_json(), "query": {**ask.query, "spoilers": "hide"}}
        else:
            assert hidden == ask
    assert not takes_spoilers(CONFIG.path) and not takes_spoilers(HOME_LEAGUES.path)


async def api_answer(client, request: dict) -> dict:
    """What the API answers `request` (as the data block names it) without credentials."""
    response = await client.request(
        request["method"], "/api" + request["path"], params=request.get("query"), json=request.get("body")
    )
    assert response.status_code == 200, response.text
    return response.json()


async def test_the_home_page_carries_the_configuration_and_its_rails_as_the_api_answers_them(web):
    page = (await web.get("/", headers=PLAIN)).text
    entries = first_answers(page)
    assert [entry["request"] for entry in entries] == [ask.as_json() for ask in (CONFIG, *HOME_RAILS, HOME_LEAGUES)]
    for entry in entries:
        assert entry["answer"] == await api_answer(web, entry["request"]), entry["request"]
    # The configuration is in the page: nothing preloads it a second time.
    assert 'href="/api/config"' not in page
    assert page.index("first-answers") > page.index('<div id="root">')


async def test_an_event_page_carries_the_event_as_the_api_answers_it(web, catalogue):
    for path in (f"/events/{catalogue['live']}", f"/de/events/{catalogue['live']}"):
        page = (await web.get(path, headers=PLAIN)).text
        requests = requests_of(page)
        assert requests == [CONFIG.as_json(), {"method": "GET", "path": f"/event/get_by_id/id/{catalogue['live']}"}]
        event = first_answers(page)[1]["answer"]
        assert event == await api_answer(web, requests[1])
        assert event["content"]["_id"] == catalogue["live"]


async def test_a_highlight_page_carries_it_from_the_clip_endpoint(web, catalogue):
    assert "clip" in CLIP_MEDIA_TYPES
    page = (await web.get(f"/events/{catalogue['goal']}?media_type=clip", headers=PLAIN)).text
    request = requests_of(page)[1]
    assert request == {
        "method": "GET",
        "path": f"/clip/get_by_id/id/{catalogue['goal']}",
        "query": {"media_type": "clip"},
    }
    assert first_answers(page)[1]["answer"] == await api_answer(web, request)


async def test_other_pages_and_unknown_events_carry_the_configuration_alone(web):
    for path in ("/about", "/events/ffffffffffffffffffffffff", "/events/stats/ffffffffffffffffffffffff"):
        response = await web.get(path, headers=PLAIN)
        assert requests_of(response.text) == [CONFIG.as_json()], path


async def test_an_unknown_event_answers_404_with_the_page_that_shows_not_found(web, catalogue):
    for path in ("/events/ffffffffffffffffffffffff", "/de/events/ffffffffffffffffffffffff"):
        response = await web.get(path, headers=PLAIN)
        assert response.status_code == 404, path
        assert requests_of(response.text) == [CONFIG.as_json()]
    unknown_clip = await web.get("/events/ffffffffffffffffffffffff?media_type=clip", headers=PLAIN)
    assert unknown_clip.status_code == 404
    assert (await web.get(f"/events/{catalogue['hoops']}", headers=PLAIN)).status_code == 200
    # The stats page of an unknown event is a page the app answers itself, after its own request.
    assert (await web.get("/events/stats/ffffffffffffffffffffffff", headers=PLAIN)).status_code == 200


async def test_the_page_carries_safaris_app_banner(web):
    page = (await web.get("/about", headers=PLAIN)).text
    assert re.search(r'<meta name="apple-itunes-app" content="app-id=\d+">', page)


async def test_the_page_is_the_same_for_every_viewer(web, catalogue):
    """Nothing of the viewer's reaches the page: their token and cookies are not passed on."""
    viewer = await sign_up(web)
    for path in ("/", f"/events/{catalogue['hoops']}"):
        anonymous = await web.get(path, headers=PLAIN)
        signed_in = await web.get(path, headers={**PLAIN, **viewer["headers"], "Cookie": "session=viewer-1"})
        assert signed_in.content == anonymous.content, path
        assert signed_in.headers["etag"] == anonymous.headers["etag"]
        assert "private" not in signed_in.headers["cache-control"] and "set-cookie" not in signed_in.headers


SPOILER_FREE = {**PLAIN, "Cookie": f"theme=dark; {SPOILERS_COOKIE}=hide"}


async def test_a_page_asked_in_spoiler_free_mode_carries_answers_asked_without_scores(web, seeded_match):
    highlight = seeded_match.highlight
    pages = ("/", f"/events/{highlight['id']}?media_type=highlight", f"/events/{seeded_match.game['id']}")
    for path in pages:
        assert seeded_match.shows_score((await web.get(path, headers=PLAIN)).text), path
        page = (await web.get(path, headers=SPOILER_FREE)).text
        assert not seeded_match.shows_score(page), path
        for entry in first_answers(page)[1:]:
            request = entry["request"]
            assert (request.get("query", {}).get("spoilers") == "hide") == takes_spoilers(request["path"]), request
            assert entry["answer"] == await api_answer(web, request), request
    page = (await web.get(f"/events/{seeded_match.game['id']}", headers=SPOILER_FREE)).text
    assert requests_of(page)[1] == {
        "method": "GET",
        "path": f"/event/get_by_id/id/{seeded_match.game['id']}",
        "query": {"spoilers": "hide"},
    }
    assert first_answers(page)[1]["answer"]["content"]["duration"] is None  # the match's length


# --- with an API of the test's own making ------------------------------------------------------------------

EVIL = "</script><script>alert(1)</script><!-- \u2028\u2029 & >"
POSTER = '/media/posters/a "quoted" poster.svg'


def fake_api(answers: dict[str, dict], calls: list[dict]):
    """Answers GET /api/config and the paths in `answers` (200 with the envelope), 404 otherwise."""

    async def app(scope, receive, send):
        message = await receive()
        calls.append({**scope, "body": message.get("body", b"")})
        path = scope["path"].removeprefix("/api")
        content = {"locales": ["en", "de"], "default_locale": "en"} if path == "/config" else answers.get(path)
        status = 200 if content is not None else 404
        body = orjson.dumps(
            {"content": content, "error": False, "message": ""} if content is not None else {"error": True}
        )
        await send(
            {"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]}
        )
        await send({"type": "http.response.body", "body": body})

    return app


def event_answer(poster: str | None = POSTER) -> dict:
    return {"_id": "e1", "title": EVIL, "content": {"PosterH": poster, "HLSStream": None}}


def rails(first_poster: str | None = POSTER) -> dict:
    return {
        "/event/list": {"entries": [event_answer(first_poster)]},
        "/clip/list": {"entries": []},
        "/identity/list": {"entries": []},
        "/event/get_by_id/id/e1": event_answer(),
    }


def page_app(dist, api, **settings):
    return static_app(Settings(environment="test", webapp_dist=dist, **settings), api=api)


async def fetch(app, path: str, **headers) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as client:
        return await client.get(path, headers={**PLAIN, **headers})


async def test_answers_are_escaped_so_nothing_in_them_ends_the_block_or_runs(dist):
    page = (await fetch(page_app(dist, fake_api(rails(), [])), "/events/e1")).text
    block = BLOCK.search(page)
    assert block is not None
    text = block.group(1)
    assert "<" not in text and ">" not in text and "\u2028" not in text and "\u2029" not in text
    assert first_answers(page)[1]["answer"]["content"]["title"] == EVIL  # the same data once parsed
    assert page.count("<script") == INDEX.count("<script") + 1  # the data block, and nothing else
    assert json_for_html('"</script>\u2028"') == '"\\u003c/script\\u003e\\u2028"'


async def test_the_first_poster_is_preloaded_and_in_the_loading_frame(dist):
    app = page_app(dist, fake_api(rails(), []))
    for path, frame in (("/", '<div class="boot__rail">'), ("/events/e1", '<div class="boot__event">')):
        page = (await fetch(app, path)).text
        escaped = "/media/posters/a &quot;quoted&quot; poster.svg"
        assert f'<link rel="preload" as="image" href="{escaped}" fetchpriority="high">' in page
        boot = page[page.index("<!--boot-->") : page.index("<!--/boot-->")]
        assert frame in boot and f'src="{escaped}"' in boot
        assert 'href="/api/config"' not in page


async def test_no_poster_in_the_frame_when_the_app_would_show_something_else_first(dist):
    failing_first_rail = {**rails(), "/event/list": None}  # the app shows that rail's skeleton first
    for answers in (rails(first_poster=None), failing_first_rail):
        page = (await fetch(page_app(dist, fake_api(answers, [])), "/")).text
        assert 'as="image"' not in page
        assert (
            page[page.index("<!--boot-->") : page.index("<!--/boot-->")]
            == INDEX[INDEX.index("<!--boot-->") : INDEX.index("<!--/boot-->")]
        )


async def test_the_api_is_asked_without_the_viewers_credentials_but_in_their_region(dist):
    calls: list[dict] = []
    app = page_app(dist, fake_api(rails(), calls), region_header="CloudFront-Viewer-Country")
    response = await fetch(
        app, "/", Authorization="Bearer someone", Cookie="a=b", **{"CloudFront-Viewer-Country": "fr"}
    )
    assert len(calls) == 1 + len(HOME_RAILS) + 1
    for call in calls:
        names = {name for name, _ in call["headers"]}
        assert b"authorization" not in names and b"cookie" not in names
        assert (b"cloudfront-viewer-country", b"fr") in call["headers"]
    assert response.headers["vary"] == "Accept-Encoding, Cookie, Accept-Language, CloudFront-Viewer-Country"


async def test_a_page_is_kept_while_the_api_keeps_answers_and_dropped_when_the_catalogue_changes(dist):
    calls: list[dict] = []
    app = page_app(dist, fake_api(rails(), calls), catalogue_cache_seconds=60)
    first = await fetch(app, "/events/e1")
    second = await fetch(app, "/events/e1")
    assert second.content == first.content and len(calls) == 2  # the configuration and the event, once
    signals.heard(signals.CATALOGUE_CHANGED)
    await fetch(app, "/events/e1")
    assert len(calls) == 4


async def test_a_page_kept_for_one_mode_is_never_served_for_the_other(dist):
    calls: list[dict] = []
    app = page_app(dist, fake_api(rails(), calls), catalogue_cache_seconds=60)
    hide = {"Cookie": f"{SPOILERS_COOKIE}=hide"}
    plain = await fetch(app, "/events/e1")
    assert [call["query_string"] for call in calls] == [b"", b""]
    hidden = await fetch(app, "/events/e1", **hide)
    assert [call["query_string"] for call in calls[2:]] == [b"", b"spoilers=hide"]
    assert requests_of(hidden.text)[1]["query"] == {"spoilers": "hide"}
    assert "query" not in requests_of(plain.text)[1] and hidden.headers["etag"] != plain.headers["etag"]
    # Each mode's page is kept: asked again, neither asks the API, and each gets its own.
    assert (await fetch(app, "/events/e1", Cookie="tl_spoilers=show")).content == plain.content
    assert (await fetch(app, "/events/e1", **hide)).content == hidden.content
    assert (await fetch(app, "/events/e1")).content == plain.content
    assert len(calls) == 4
    assert "Cookie" in hidden.headers["vary"]


async def test_without_the_api_the_page_is_the_plain_template(dist):
    async def down(scope, receive, send):
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    response = await fetch(page_app(dist, down), "/")
    assert response.status_code == 200 and response.text == with_app_store_banner(INDEX, Settings(environment="test"))


async def test_a_slow_api_does_not_hold_the_page_back(dist, monkeypatch):
    async def slow(scope, receive, send):
        await asyncio.sleep(5)

    monkeypatch.setattr(first_view, "ANSWER_TIMEOUT_SECONDS", 0.05)
    response = await asyncio.wait_for(fetch(page_app(dist, slow), "/"), timeout=2)
    assert response.status_code == 200 and response.text == with_app_store_banner(INDEX, Settings(environment="test"))


async def test_the_page_is_compressed_and_revalidated_by_its_own_etag(dist):
    app = page_app(dist, fake_api(rails(), []))
    plain = await fetch(app, "/")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as client:
        zipped = await client.get("/", headers={"Accept-Encoding": "gzip"})
        assert zipped.headers["content-encoding"] == "gzip"
        assert zipped.content == plain.content  # httpx decodes it
        again = await client.get("/", headers={"If-None-Match": plain.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert plain.headers["cache-control"] == "no-cache"


async def test_the_policy_allows_the_pages_scripts_and_ignores_its_data_block(dist):
    response = await fetch(page_app(dist, fake_api(rails(), [])), "/")
    policy = response.headers["content-security-policy"]
    scripts = _InlineScripts()
    scripts.feed(response.text)
    assert len(scripts.scripts) == 1  # the start-up script; the data block does not run
    assert page_policy_hash(scripts.scripts[0]) in policy
    data = BLOCK.search(response.text)
    assert data is not None and page_policy_hash(data.group(1)) not in policy
    assert policy == page_policy(Settings(environment="test", webapp_dist=dist), INDEX)


def page_policy_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
