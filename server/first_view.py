"""The webapp's first view, in its page: what the first render needs arrives with the HTML, so the
largest paint waits neither for the app's code nor for a second round trip.

For every page the server asks its own API, in-process and without credentials, what the app asks
first: GET /api/config, and for the home page its rails, for an event page the event. The call
goes through Connexion like a browser's (same handlers, validation and anonymous cache), so the
page says what the API answers anonymously. The answers go into the page as one data block; the
app's HTTP client answers those requests from it once (webapp/src/api/firstAnswers.ts), so the first
page's queries fill the cache under their own keys without a round trip. The first poster goes
into the loading frame as a real image, preloaded, where the app then draws it (webapp/index.html
styles the frame), so it is the largest paint before any script runs.

Nothing in the page is one viewer's: no credentials or cookies are forwarded, only the region
header the anonymous answers depend on (the page then varies by it, like the anonymous cache). A
built page is kept as long as the API keeps anonymous answers, and dropped with them when the
catalogue changes (server.realtime.signals).

A fan in spoiler-free mode carries the `tl_spoilers=hide` cookie (the webapp writes it): then the
page's asks whose answers can carry a score are made with `spoilers=hide`, as the app itself makes
them in that mode (webapp/src/session/spoilers.ts), so no score reaches the page's HTML or its data
(server.services.spoilers). The page is built and kept apart for each mode (it varies by Cookie).
"""

import asyncio
import gzip
import hashlib
import html
import logging
import re
import weakref
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

import orjson
from cachetools import TTLCache
from starlette.requests import cookie_parser

from .realtime import signals
from .services.spoilers import HIDE
from .settings import Settings
from .single_flight import SingleFlight
from .viewer_region import viewer_region

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[dict]], Callable[[dict], Awaitable[None]]], Awaitable[None]]

BLOCK_ID = "first-answers"
# The API must answer within this, or the page goes without (the app then asks itself): the
# page's own first byte waits for it, and a static page with its loading frame beats a slow one.
ANSWER_TIMEOUT_SECONDS = 1.0
MAX_PAGES = 1024


@dataclass(frozen=True)
class Ask:
    """One request of the app, as the app makes it (the data block names it so: the app matches
    its own requests against these)."""

    method: str
    path: str  # under /api, decoded
    query: dict[str, str] = field(default_factory=dict)
    body: dict | None = None

    def as_json(self) -> dict:
        named: dict[str, Any] = {"method": self.method, "path": self.path}
        if self.query:
            named["query"] = self.query
        if self.body is not None:
            named["body"] = self.body
        return named


def _first_page(**request: Any) -> dict:
    # Paging as the app's list calls ask for it (webapp/src/features/catalog/api/list*.ts).
    return {"page": 0, "next": True, "count": False, **request}


CONFIG = Ask("GET", "/config")
# The home page's rails in the order it shows them, then its leagues: the very requests of
# webapp/src/features/catalog/homeRails.ts (12 a rail) and lib/lists.ts. A request that drifted
# from the app's would never be used (the app would ask again): webapp/tests/api/firstViewRequests.json
# holds both sides to the same requests, and the e2e home test watches for calls.
RAIL_SIZE = 12
HOME_RAILS = (
    Ask(
        "POST",
        "/event/list",
        body=_first_page(
            size=RAIL_SIZE,
            sort="event_date",
            order="desc",
            filters={"status": ["live"], "media_type": ["event"]},
        ),
    ),
    Ask(
        "POST",
        "/event/list",
        body=_first_page(
            size=RAIL_SIZE,
            sort="event_date",
            order="asc",
            filters={"status": ["upcoming"], "media_type": ["event"]},
        ),
    ),
    Ask(
        "POST",
        "/event/list",
        body=_first_page(
            size=RAIL_SIZE,
            sort="event_date",
            order="desc",
            filters={"status": ["archived", "vod"], "media_type": ["event", "highlight"]},
        ),
    ),
    Ask("POST", "/clip/list", body=_first_page(size=RAIL_SIZE, sort="event_date", order="desc")),
    Ask(
        "POST",
        "/event/list",
        body=_first_page(size=RAIL_SIZE, sort="order", order="asc", filters={"status": ["channel"]}),
    ),
)
HOME_LEAGUES = Ask(
    "POST",
    "/identity/list",
    body=_first_page(size=50, sort="order", order="asc", filters={"media_type": "identity_item", "archived": False}),
)
# Event pages read these from the clip endpoint (webapp/src/entities/event.ts, CLIP_MEDIA_TYPES).
CLIP_MEDIA_TYPES = ("highlight", "clip", "user_clip", "user_highlight")
# Spoiler-free mode's cookie, and the asks above whose operations take the contract's `spoilers`
# flag (server/tests/test_first_view.py holds them to the contract): the app sends those with
# `spoilers=hide` in that mode.
SPOILERS_COOKIE = "tl_spoilers"
SCORED_PATHS = ("/event/list", "/clip/list", "/event/get_by_id/id/", "/clip/get_by_id/id/")


@dataclass(frozen=True)
class View:
    """What one page route's first render asks the API for."""

    kind: str  # "home", "event" or "other" (the configuration alone)
    asks: tuple[Ask, ...] = ()


def view_of(path: str, query_string: str, config: dict) -> View:
    """The first view of a page path; a locale prefix (one the configuration names) is the same page."""
    segments = [segment for segment in path.split("/") if segment]
    locales = set(config.get("locales") or ()) - {config.get("default_locale")}
    if segments and segments[0] in locales:
        segments = segments[1:]
    if segments in ([], ["home"]):
        return View("home", (*HOME_RAILS, HOME_LEAGUES))
    if len(segments) == 2 and segments[0] == "events":
        media_type = (parse_qs(query_string).get("media_type") or [""])[0]
        if media_type in CLIP_MEDIA_TYPES:
            return View("event", (Ask("GET", f"/clip/get_by_id/id/{segments[1]}", {"media_type": media_type}),))
        return View("event", (Ask("GET", f"/event/get_by_id/id/{segments[1]}"),))
    return View("other")


def without_spoilers(view: View) -> View:
    """`view` as the app asks for it in spoiler-free mode: its asks that can answer a score ask
    with `spoilers=hide`."""

    def hidden(ask: Ask) -> Ask:
        if not ask.path.startswith(SCORED_PATHS):
            return ask
        return Ask(ask.method, ask.path, {**ask.query, "spoilers": HIDE}, ask.body)

    return View(view.kind, tuple(hidden(ask) for ask in view.asks))


def spoilers_hidden(scope: Scope) -> bool:
    """Whether the page is asked for in spoiler-free mode (its cookie says `hide`)."""
    cookies = b"; ".join(value for key, value in scope.get("headers", ()) if key.lower() == b"cookie")
    return cookie_parser(cookies.decode("latin-1")).get(SPOILERS_COOKIE) == HIDE


# --- asking the API in-process ---------------------------------------------------------------------


async def ask_api(api: ASGIApp, page: Scope, ask: Ask, region: tuple[bytes, bytes] | None) -> bytes | None:
    """The API's answer to `ask` made anonymously (the body of a 200 without `error`), or None."""
    return (await answer_of(api, page, ask, region))[1]


async def answer_of(
    api: ASGIApp, page: Scope, ask: Ask, region: tuple[bytes, bytes] | None
) -> tuple[int, bytes | None]:
    """The API's status for `ask` made anonymously, and its answer as `ask_api` takes it."""
    body = orjson.dumps(ask.body) if ask.body is not None else b""
    headers = [(b"host", _header(page, b"host") or b"localhost"), (b"accept", b"application/json")]
    if ask.body is not None:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if region is not None:
        headers.append(region)
    path = "/api" + ask.path
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": ask.method,
        "scheme": page.get("scheme", "http"),
        "path": path,
        "raw_path": quote(path).encode(),
        "root_path": "",
        "query_string": urlencode(ask.query).encode(),
        "headers": headers,
        "client": page.get("client"),
        "server": page.get("server"),
        # Its own copy: handlers note who asks in it (server.api.http.context.bind_viewer).
        "state": dict(page.get("state") or {}),
        "extensions": {},
    }
    status = 0
    chunks: list[bytes] = []
    delivered = False
    disconnected = asyncio.Event()

    async def receive() -> dict:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await disconnected.wait()  # asked again only by a listener for disconnects
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    try:
        await api(scope, receive, send)
    finally:
        disconnected.set()
    answer = b"".join(chunks)
    if status != 200:
        return status, None
    try:
        envelope = orjson.loads(answer)
    except orjson.JSONDecodeError:
        return status, None
    return status, (answer if isinstance(envelope, dict) and envelope.get("error") is False else None)


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value
    return None


# --- the page ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    body: bytes
    gzipped: bytes
    etag: str
    # 404 for an event page whose event the API does not know (the app shows its not-found screen).
    status: int = 200


# Where index.html takes what the server adds (webapp/index.html says so beside each).
CONFIG_PRELOAD = re.compile(r'<link rel="preload" href="/api/config"[^>]*>')
BOOT = re.compile(r"<!--boot-->.*?<!--/boot-->", re.DOTALL)
BODY_END = "</body>"


def json_for_html(text: str) -> str:
    """JSON text safe inside a <script> element: no `</script>` or `<!--` can end or bend it, and
    U+2028/2029 are escaped too. These characters only occur inside JSON strings, where the
    escapes mean the same."""
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def _image_url(value: object) -> str | None:
    """A poster address the page may show: a path here or an http(s) URL."""
    if isinstance(value, str) and (value.startswith(("/", "https://", "http://")) and not value.startswith("//")):
        return value
    return None


def first_poster(view: View, answers: list[bytes | None]) -> str | None:
    """The poster the app shows first and largest: the event's, or on the home page the first
    card of the first rail with any (only when every rail before it is answered and empty, or the
    app would show that one's skeleton there first)."""
    if view.kind == "event":
        event = orjson.loads(answers[0])["content"] if answers and answers[0] else {}
        return _image_url(event.get("content", {}).get("PosterH"))
    if view.kind == "home":
        for answer in answers[: len(HOME_RAILS)]:
            if answer is None:
                return None
            entries = orjson.loads(answer).get("content", {}).get("entries") or []
            if entries:
                return _image_url(entries[0].get("content", {}).get("PosterH"))
    return None


def _poster_img(url: str, css_class: str) -> str:
    # The app's own card and stage images are 640×360 and 1280×720; the frame's CSS sizes it.
    return f'<img class="{css_class}" src="{html.escape(url)}" alt="" width="640" height="360" fetchpriority="high">'


def boot_frame(kind: str, poster: str) -> str:
    """The loading frame of a home or event page with its first poster (webapp/index.html has
    the styles, which follow the app's own layout)."""
    if kind == "event":
        return f'<div class="boot__event">{_poster_img(poster, "boot__poster boot__stage")}</div>'
    cards = '<div class="boot__card"></div>' * 3
    first = f'<div class="boot__card">{_poster_img(poster, "boot__poster")}</div>'
    return f'<div class="boot__heading"></div><div class="boot__rail">{first}{cards}</div>'


def render(index: str, view: View, answered: list[tuple[Ask, bytes]], poster: str | None) -> str:
    """index.html with the answers, and the first poster preloaded and in the loading frame."""
    page = index
    has_config = any(ask == CONFIG for ask, _ in answered)
    preload = f'<link rel="preload" as="image" href="{html.escape(poster)}" fetchpriority="high">' if poster else ""
    # The configuration is in the page: its preload would fetch it a second time.
    page, found = CONFIG_PRELOAD.subn(lambda m: preload + ("" if has_config else m.group(0)), page, count=1)
    if not found and preload:
        page = page.replace("</head>", preload + "</head>", 1)
    if poster:
        page = BOOT.sub(lambda _m: "<!--boot-->" + boot_frame(view.kind, poster) + "<!--/boot-->", page, count=1)
    if answered:
        entries = ",".join(
            '{"request":' + orjson.dumps(ask.as_json()).decode() + ',"answer":' + answer.decode() + "}"
            for ask, answer in answered
        )
        block = f'<script type="application/json" id="{BLOCK_ID}">' + json_for_html(f"[{entries}]") + "</script>"
        page = page.replace(BODY_END, block + BODY_END, 1)
    return page


# Every page cache of this process, emptied with the API's anonymous answers.
_caches: "weakref.WeakSet[FirstView]" = weakref.WeakSet()


def _forget_all() -> None:
    for first_view in list(_caches):
        first_view.forget()


signals.listen(signals.CATALOGUE_CHANGED, _forget_all)


class FirstView:
    """Builds the webapp's page with its first view, from the API at `api`."""

    def __init__(self, api: ASGIApp, settings: Settings):
        self._api = api
        self._settings = settings
        ttl = settings.catalogue_cache_seconds
        self._pages: TTLCache | None = TTLCache(maxsize=MAX_PAGES, ttl=ttl) if ttl > 0 else None
        self._building: SingleFlight[tuple[Page, bool]] = SingleFlight()
        _caches.add(self)

    def forget(self) -> None:
        if self._pages is not None:
            self._pages.clear()

    def vary(self) -> list[str]:
        """The request headers the page depends on, besides Accept-Encoding."""
        return [self._settings.region_header] if self._settings.region_header else []

    async def page(self, scope: Scope, index: str, version: object) -> Page:
        """The page for this request; `version` names the index.html it is built from."""
        region = viewer_region(self._settings, lambda name: _text(_header(scope, name.lower().encode("latin-1"))))
        hide_spoilers = spoilers_hidden(scope)
        key = (version, scope.get("path", "/"), _route_query(scope), region, hide_spoilers)
        if self._pages is not None and (cached := self._pages.get(key)) is not None:
            return cached
        page, complete = await self._building.run(key, lambda: self._build(scope, index, hide_spoilers))
        if complete and self._pages is not None:
            self._pages[key] = page
        return page

    async def _build(self, scope: Scope, index: str, hide_spoilers: bool) -> tuple[Page, bool]:
        """The page, and whether every answer it wanted is in it (only such a page is kept)."""
        forwarded = None
        if self._settings.region_header and (value := _header(scope, self._settings.region_header.lower().encode())):
            forwarded = (self._settings.region_header.lower().encode(), value)
        answered: list[tuple[Ask, bytes]] = []
        complete = False
        view = View("other")
        poster = None
        status = 200
        try:
            async with asyncio.timeout(ANSWER_TIMEOUT_SECONDS):
                config = await ask_api(self._api, scope, CONFIG, forwarded)
                if config is not None:
                    answered.append((CONFIG, config))
                    view = view_of(scope.get("path", "/"), _route_query(scope), orjson.loads(config)["content"])
                    if hide_spoilers:
                        view = without_spoilers(view)
                    results = await asyncio.gather(*(answer_of(self._api, scope, ask, forwarded) for ask in view.asks))
                    answers = [answer for _, answer in results]
                    answered += [(ask, answer) for ask, answer in zip(view.asks, answers, strict=True) if answer]
                    if view.kind == "event" and results and results[0][0] == 404:
                        status = 404  # the API knows no such event: the page is its not-found screen
                    complete = all(answers) or view.kind == "event"  # an unknown event stays unknown
                    poster = first_poster(view, list(answers))
        except TimeoutError:
            log.warning("the API did not answer the first view of %s in time", scope.get("path"))
            answered, poster, complete, status = [], None, False, 200
        except Exception:  # the page works without them: the app asks the API itself
            log.exception("the first view of %s could not be built", scope.get("path"))
            answered, poster, complete, status = [], None, False, 200
        body = render(index, view, answered, poster).encode()
        etag = 'W/"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        return Page(body, gzip.compress(body, compresslevel=6), etag, status), complete


def _route_query(scope: Scope) -> str:
    """The part of the query string that changes the first view (an event page's media type)."""
    media_type = parse_qs(_text(scope.get("query_string")) or "").get("media_type")
    return urlencode({"media_type": media_type[0]}) if media_type else ""


def _text(value: bytes | None) -> str | None:
    return value.decode("latin-1") if value is not None else None
