"""Static parts of the one ASGI process: sample media, artwork and the built webapp."""

import mimetypes
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route, Router
from starlette.staticfiles import StaticFiles

from .settings import Settings

# Browsers and hls.js want these exact types; Python's table lacks or varies on them.
mimetypes.add_type("application/vnd.apple.mpegurl", ".m3u8")
mimetypes.add_type("video/mp2t", ".ts")
mimetypes.add_type("video/mp4", ".m4s")
mimetypes.add_type("image/svg+xml", ".svg")


class SpaFiles(StaticFiles):
    """Serves the built webapp: client-side routes get index.html, hashed assets are cached for a
    year, and the gzip copies the build writes next to each file (webapp/scripts/compress.mjs) are
    sent to browsers that accept them, so nothing is compressed per request."""

    async def get_response(self, path: str, scope):
        try:
            response = await self._file_response(path, scope)
        except HTTPException as exc:
            # A missing file with an extension (a stale chunk, a typo) is a real 404; anything
            # else is a page of the single-page app.
            if exc.status_code != 404 or _has_extension(path):
                raise
            response = await self._file_response("index.html", scope)
            path = "index.html"
        if path.startswith("assets/"):
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        else:
            response.headers["Cache-Control"] = "no-cache"
        return response

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


def static_app(settings: Settings) -> Starlette:
    """Media and the webapp; missing files answer in the error envelope, like the API."""
    return Starlette(
        routes=[Mount("/media", app=media_router(settings)), Mount("/", app=webapp(settings))],
        exception_handlers={HTTPException: _http_error},
    )


def media_router(settings: Settings) -> Router:
    """Streams only through signed paths (server.media.signing); /media/vod and /media/live,
    the stored addresses, serve nothing. Artwork and the test ads (server.media.ads) are public."""
    from .media.ads import ads_routes
    from .media.clips import CLIP_PATH, clip_media_route
    from .media.routes import signed_media_route

    fixtures = settings.fixtures_dir
    signed = signed_media_route(settings, fixtures / "media")
    return Router(
        routes=[
            # Before the other signed paths: a clip's playlist is made, not a file (server.media.clips).
            Route(CLIP_PATH, clip_media_route(signed, fixtures / "media"), methods=["GET", "HEAD"]),
            Route("/s/{token}/{path:path}", signed, methods=["GET", "HEAD"]),
            *ads_routes(settings, fixtures / "media"),
            Mount("/logos", app=StaticFiles(directory=fixtures / "logos", check_dir=False)),
            Mount("/posters", app=StaticFiles(directory=fixtures / "posters", check_dir=False)),
        ],
        default=_not_found_json,
    )


def webapp(settings: Settings):
    dist: Path = settings.webapp_dist
    if (dist / "index.html").exists():
        return SpaFiles(directory=dist, html=True)

    async def placeholder(scope, receive, send):
        response = JSONResponse(
            {"name": "Touchline", "api": "/api", "socket": "/ws", "webapp": "not built (make run builds it)"}
        )
        await response(scope, receive, send)

    return placeholder
