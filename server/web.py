"""Static parts of the one ASGI process: sample media, artwork and the built webapp."""

import base64
import hashlib
import mimetypes
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, Router
from starlette.staticfiles import StaticFiles

from .auth.providers.registry import offered
from .first_view import ASGIApp, FirstView
from .page_routes import is_page, localized_location
from .settings import Settings, origin_of

# Browsers and hls.js want these exact types; Python's table lacks or varies on them.
mimetypes.add_type("application/vnd.apple.mpegurl", ".m3u8")
mimetypes.add_type("video/mp2t", ".ts")
mimetypes.add_type("video/mp4", ".m4s")
mimetypes.add_type("image/svg+xml", ".svg")


class SpaFiles(StaticFiles):
    """Serves the built webapp: client-side routes get index.html, hashed assets are cached for a
    year, and the gzip copies the build writes next to each file (webapp/scripts/compress.mjs) are
    sent to browsers that accept them, so nothing is compressed per request. The page carries its
    Content-Security-Policy (`page_policy`) and, given the API, its first view
    (server.first_view: the API's first answers and the first poster in the page itself)."""

    def __init__(self, *, directory: Path, settings: Settings, first_view: FirstView | None = None):
        super().__init__(directory=directory, html=True)
        self._settings = settings
        self._first_view = first_view
        # index.html's mtime, its text and its policy (a rebuild changes its inline hashes)
        self._index: tuple[float, str, str] | None = None

    def _current_index(self) -> tuple[float, str, str]:
        index = Path(str(self.directory)) / "index.html"
        modified = index.stat().st_mtime
        if self._index is None or self._index[0] != modified:
            text = with_app_store_banner(index.read_text(encoding="utf-8"), self._settings)
            self._index = (modified, text, page_policy(self._settings, text))
        return self._index

    def page_policy(self) -> str:
        """The policy for the index.html on disk now."""
        return self._current_index()[2]

    async def get_response(self, path: str, scope):
        page_path = "/" if path in (".", "index.html") else scope.get("path", "/")
        # Anything without an extension is a page of the single-page app (as below).
        is_app_page = path in (".", "index.html") or not _has_extension(path)
        # A page in English (no locale prefix) for a visitor who reads another of our languages.
        if is_app_page and (redirect := self._locale_redirect(page_path, scope)) is not None:
            return redirect
        if self._first_view is not None and is_app_page:
            return await self._page_response(scope, self._first_view, self._page_status(page_path))
        try:
            response = await self._file_response(path, scope)
        except HTTPException as exc:
            # A missing file with an extension (a stale chunk, a typo) is a real 404; anything
            # else is a page of the single-page app.
            if exc.status_code != 404 or _has_extension(path):
                raise
            response = await self._file_response("index.html", scope)
            response.status_code = self._page_status(page_path)
            response.headers["Vary"] = ", ".join(filter(None, [response.headers.get("Vary"), PAGE_VARY]))
            path = "index.html"
        if path.startswith("assets/"):
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        else:
            response.headers["Cache-Control"] = "no-cache"
        if response.headers.get("Content-Type", "").startswith("text/html"):
            response.headers["Content-Security-Policy"] = self.page_policy()
        return response

    def _page_status(self, path: str) -> int:
        """404 for a path the webapp's router has no page for (server.page_routes): the app's page
        still comes with it and shows the not-found screen, but crawlers and tools see the truth."""
        return 200 if is_page(path, self._settings.redirects) else 404

    def _locale_redirect(self, path: str, scope) -> Response | None:
        """A page without a locale prefix, asked for by a visitor whose language is another of ours
        (the locale cookie the webapp writes, else Accept-Language on a first visit), goes to that
        language's address: "/" → "/de/" (server.page_routes.localized_location)."""
        location = localized_location(
            path,
            _text(scope.get("query_string")),
            ", ".join(_header_values(scope, b"cookie")).replace(", ", "; ") or None,
            ", ".join(_header_values(scope, b"accept-language")) or None,
            self._settings.redirects,
        )
        if location is None:
            return None
        return Response(status_code=302, headers={"Location": location, "Cache-Control": "no-cache", "Vary": PAGE_VARY})

    async def _page_response(self, scope, first_view: FirstView, status: int = 200) -> Response:
        """index.html with the first view: built per page (and kept a moment, server.first_view),
        so it is compressed here and validated by its own ETag rather than the file's. A path that
        is no page, or an event the API does not know, answers 404 with the same page."""
        modified, index, policy = self._current_index()
        page = await first_view.page(scope, index, modified)
        status = 404 if page.status == 404 else status
        headers = {
            "Cache-Control": "no-cache",
            "Content-Security-Policy": policy,
            "ETag": page.etag,
            "Vary": ", ".join(["Accept-Encoding", PAGE_VARY, *first_view.vary()]),
        }
        if status == 200 and page.etag in _header_values(scope, b"if-none-match"):
            return Response(status_code=304, headers=headers)
        if _accepts_gzip(scope):
            return Response(
                page.gzipped,
                status_code=status,
                headers={**headers, "Content-Encoding": "gzip"},
                media_type="text/html",
            )
        return Response(page.body, status_code=status, headers=headers, media_type="text/html")

    async def _file_response(self, path: str, scope):
        # The build writes a .gz copy only beside a file it also writes: one lookup decides.
        if _accepts_gzip(scope) and _has_extension(path) and not _has_extension(path, ".gz"):
            full, stat = self.lookup_path(path + ".gz")
            if full and stat:
                response = self.file_response(full, stat, scope)  # a 304 when the browser has it
                response.headers["Content-Type"] = _content_type(path)
                response.headers["Content-Encoding"] = "gzip"
                response.headers["Vary"] = "Accept-Encoding"
                return response
        return await super().get_response(path, scope)


# A page without a locale prefix depends on the visitor's language (the locale cookie, else
# Accept-Language): it may be a redirect to their language's page.
PAGE_VARY = "Cookie, Accept-Language"

_APP_STORE_ID = re.compile(r"/id(\d+)(?:[/?#]|$)")
_HEAD_END = "</head>"


def app_store_id(ios_url: str | None) -> str | None:
    """The App Store id of the iOS app's store address ("https://apps.apple.com/app/id123" → "123")."""
    match = _APP_STORE_ID.search(ios_url or "")
    return match.group(1) if match else None


def with_app_store_banner(index_html: str, settings: Settings) -> str:
    """The page with Safari's own app banner for iPhones and iPads (`apple-itunes-app`), when the
    tenant has the banner on and an iOS app: the app's own banner is for other mobile browsers
    (spec §2; webapp/src/ui/smartBanner.ts)."""
    app_id = app_store_id(settings.smart_banner_ios_url) if settings.smart_banner_enabled else None
    if app_id is None or 'name="apple-itunes-app"' in index_html:
        return index_html
    return index_html.replace(_HEAD_END, f'<meta name="apple-itunes-app" content="app-id={app_id}">{_HEAD_END}', 1)


def _text(value: bytes | None) -> str:
    return value.decode("latin-1") if value else ""


# Artwork at an address with its content hash (`?v=`, server.media.delivery.urls.versioned) never changes;
# at a bare address it is kept a week and then revalidated by its ETag.
ARTWORK_VERSIONED_CACHE = "public, max-age=31536000, immutable"
ARTWORK_CACHE = "public, max-age=604800"


class ArtworkFiles(StaticFiles):
    """Posters and team logos: public, cached long (Lighthouse's "efficient cache policy")."""

    async def get_response(self, path: str, scope):
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            versioned = "v" in parse_qs(_text(scope.get("query_string")))
            response.headers["Cache-Control"] = ARTWORK_VERSIONED_CACHE if versioned else ARTWORK_CACHE
        return response


def _content_type(path: str) -> str:
    """The type of the uncompressed file, as Starlette would send it (text with its charset)."""
    kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith("text/") else kind


def _has_extension(path: str, extension: str | None = None) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name.endswith(extension) if extension else "." in name


def _accepts_gzip(scope) -> bool:
    for key, value in scope.get("headers", ()):
        if key == b"accept-encoding":
            return b"gzip" in value
    return False


def _header_values(scope, name: bytes) -> list[str]:
    """The comma-separated values of a request header (such as the ETags of If-None-Match)."""
    return [
        value.strip()
        for key, raw in scope.get("headers", ())
        if key == name
        for value in raw.decode("latin-1").split(",")
    ]


async def _not_found_json(scope, receive, send) -> None:
    response = JSONResponse({"error": True, "message": "Not found", "messageErrorCode": "not_found"}, status_code=404)
    await response(scope, receive, send)


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    # Registered for HTTPException only; Starlette types every handler for any exception.
    if not isinstance(exc, HTTPException):
        raise exc
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "bad_request")
    return JSONResponse(
        {"error": True, "message": exc.detail or "Request failed", "messageErrorCode": code},
        status_code=exc.status_code,
        headers=exc.headers,
    )


def static_app(settings: Settings, api: ASGIApp | None = None) -> Starlette:
    """Media and the webapp; missing files answer in the error envelope, like the API. With the
    API's ASGI app, the webapp's page carries its first view (server.first_view)."""
    from .ingest.hooks import ingest_hook_routes
    from .settings import SURVEY_DEFAULT_FORM_PATH
    from .survey_form import survey_form

    return Starlette(
        routes=[
            Mount("/media", app=media_router(settings)),
            # nginx-rtmp's questions about publishers (server/ingest/hooks.py): loopback and a secret only.
            *ingest_hook_routes(settings),
            # The built-in survey form the webapp's survey dialog frames (server/survey_form.py).
            Route(SURVEY_DEFAULT_FORM_PATH, survey_form, methods=["GET", "HEAD"]),
            Mount("/", app=webapp(settings, api)),
        ],
        exception_handlers={HTTPException: _http_error},
    )


def media_router(settings: Settings) -> Router:
    """Streams only with a token beside their path (/media/vod and /media/live, the edge layout:
    server.media.delivery.edge_routes). Artwork and the test ads (server.media.delivery.ads) are public."""
    from .media.assets.store import store_of
    from .media.delivery.ads import ads_routes
    from .media.delivery.edge_routes import EdgeMedia
    from .media.delivery.stills import STILLS

    fixtures = settings.fixtures_dir
    assets = store_of(settings).root
    edge = EdgeMedia(settings, assets)
    return Router(
        routes=[
            Route("/vod/{path:path}", edge.endpoint("vod"), methods=["GET", "HEAD"]),
            Route("/live/{path:path}", edge.endpoint("live"), methods=["GET", "HEAD"]),
            *ads_routes(settings, fixtures / "media"),
            Mount("/logos", app=ArtworkFiles(directory=fixtures / "logos", check_dir=False)),
            Mount("/posters", app=ArtworkFiles(directory=fixtures / "posters", check_dir=False)),
            # Archives' and highlights' posters (server.media.delivery.stills): public artwork too.
            Mount(f"/{STILLS}", app=ArtworkFiles(directory=Path(settings.media_dir) / STILLS, check_dir=False)),
        ],
        default=_not_found_json,
    )


def webapp(settings: Settings, api: ASGIApp | None = None):
    dist: Path = settings.webapp_dist
    if (dist / "index.html").exists():
        first_view = FirstView(api, settings) if api is not None else None
        return SpaFiles(directory=dist, settings=settings, first_view=first_view)

    async def placeholder(scope, receive, send):
        response = JSONResponse(
            {"name": "Touchline", "api": "/api", "socket": "/ws", "webapp": "not built (make run builds it)"}
        )
        await response(scope, receive, send)

    return placeholder


# --- the webapp's Content-Security-Policy ---------------------------------------------------------

# What each sign-on provider's browser SDK loads (webapp/src/features/auth/federated/), from the
# providers' own documentation. The ifa sign-on runs in a popup window, which a policy does not
# govern, and returns to this server's callback page.
PROVIDER_SOURCES: dict[str, dict[str, tuple[str, ...]]] = {
    "google": {  # Google Identity Services: the script, its button's frame and styles, its calls
        "script-src": ("https://accounts.google.com/gsi/client",),
        "style-src": ("https://accounts.google.com/gsi/style",),
        "frame-src": ("https://accounts.google.com/gsi/",),
        "connect-src": ("https://accounts.google.com/gsi/",),
    },
    "apple": {  # Sign in with Apple JS: the script from Apple's CDN, the sign-in frame and calls
        "script-src": ("https://appleid.cdn-apple.com",),
        "frame-src": ("https://appleid.apple.com",),
        "connect-src": ("https://appleid.apple.com",),
    },
    "facebook": {  # the Facebook JavaScript SDK: the script, its login-status frames and calls
        "script-src": ("https://connect.facebook.net",),
        "frame-src": ("https://www.facebook.com", "https://web.facebook.com"),
        "connect-src": ("https://www.facebook.com", "https://web.facebook.com"),
        "img-src": ("https://www.facebook.com",),
    },
}


# What a <script> runs as: no type, a JavaScript MIME type or a module (HTML's "script block's
# type string"); anything else (application/json data blocks) is data the policy does not govern.
_JAVASCRIPT_TYPES = {"", "module", "text/javascript", "application/javascript", "text/ecmascript"}


class _InlineScripts(HTMLParser):
    """The text of every inline <script> of a page that runs (what the policy allows by hash)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[str] = []
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "script" or any(name == "src" for name, _ in attrs):
            return
        kind = next((value or "" for name, value in attrs if name == "type"), "")
        if kind.strip().lower() in _JAVASCRIPT_TYPES:
            self._inside = True
            self.scripts.append("")

    def handle_data(self, data: str) -> None:
        if self._inside:
            self.scripts[-1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._inside = False


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _origin(url: str | None) -> str | None:
    """The origin of an absolute http(s) URL; None for a path on this server."""
    if not url or not urlsplit(url).scheme:
        return None
    return origin_of(url)


def dsn_origin(dsn: str | None) -> str | None:
    """The origin a Sentry DSN's SDK sends its envelopes to (the DSN without key and path)."""
    if not dsn:
        return None
    parts = urlsplit(dsn)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")


def page_policy(settings: Settings, index_html: str) -> str:
    """The Content-Security-Policy of the webapp's page: exactly what the app loads.

    Its own scripts (and the hashes of index.html's inline script) and styles; media, the
    socket and the API on its own origin (`'self'` covers ws: and wss: of the same host), blob:
    media for Media Source Extensions (hls.js), data: images (the build inlines the small
    placeholder artwork as data: URLs; an image cannot run code); the ad server, the public base URL and the
    content origins when they are elsewhere; the configured sign-on providers' SDKs; nothing
    may frame the page, no plugins, no <base>, forms post only here.

    Styles: the player's controls (media-chrome) style their shadow DOM with <style> elements
    made at run time from templates, and the toasts (sonner) inject one too: dozens of contents
    no build can hash, so style *elements* need 'unsafe-inline' (with a hash beside it, browsers
    would ignore it). Style *attributes* stay forbidden (React and media-chrome set styles
    through the CSSOM, which a policy does not govern), and styles cannot run code.
    """
    pieces = _InlineScripts()
    pieces.feed(index_html)
    elsewhere = [
        origin
        for origin in (
            _origin(settings.public_base_url),
            _origin(settings.ads_vast_url),
            *settings.content_origins,
        )
        if origin
    ]
    # The survey dialog's frame (its own origin when the form is elsewhere) and the error
    # reporting endpoint of the webapp's DSN (server/reporting.py; nothing without one).
    survey = _origin(settings.survey_form_url)
    reporting = dsn_origin(settings.webapp_sentry_dsn)
    socket = _origin(settings.socket_base)
    sockets = [socket.replace("http", "ws", 1), socket] if socket else []
    directives: dict[str, list[str]] = {
        "default-src": ["'self'"],
        "script-src": ["'self'", *(_hash(script) for script in pieces.scripts)],
        "style-src": ["'self'"],
        "style-src-elem": ["'self'", "'unsafe-inline'"],
        "style-src-attr": ["'none'"],
        "img-src": ["'self'", "data:", *elsewhere],
        "media-src": ["'self'", "blob:", *elsewhere],
        "connect-src": ["'self'", *sockets, *elsewhere, *([reporting] if reporting else [])],
        "font-src": ["'self'"],
        "frame-src": ["'self'", *([survey] if survey else [])],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    for name in offered(settings):
        for directive, sources in PROVIDER_SOURCES.get(name, {}).items():
            directives[directive].extend(sources)
            if directive == "style-src":
                directives["style-src-elem"].extend(sources)
    return "; ".join(f"{name} {' '.join(dict.fromkeys(sources))}" for name, sources in directives.items())
