"""What every request and answer of the one process goes through (server.app wraps it all).

- **Host.** Outside development only the configured host names are served
  (`TOUCHLINE_ALLOWED_HOSTS`, default this server's own: `Settings.trusted_hosts`); any other
  answers 400 `invalid_host` in the error envelope (a socket is closed before it opens). What
  the server builds from the Host (a redirect, the ads' absolute URLs) then names this server.
- **Redirects.** A `Location` on the origin the request named is made relative: Starlette builds
  its trailing-slash redirects from the Host header, which would send browsers to any host a
  request claims (`GET /api` with `Host: evil.example` → `http://evil.example/api/`).
- **Security headers** on every answer: `X-Content-Type-Options: nosniff`, framing refused
  (`X-Frame-Options: DENY` and `frame-ancestors 'none'`), `Referrer-Policy`,
  `Permissions-Policy` (no camera, microphone, location, payment...), and HSTS outside
  development when the server is reached over https. Answers that set no
  Content-Security-Policy of their own (the API, media) get one that loads nothing; the
  webapp's page has its own (server.web.page_policy).
"""

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

import orjson

from .settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Nothing to load: what a JSON answer, a playlist or an image needs when opened as a document.
DEFAULT_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
HSTS = b"max-age=31536000"
# Features the webapp never uses (fullscreen, picture-in-picture and autoplay stay with this origin).
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=(), fullscreen=(self), picture-in-picture=(self), autoplay=(self)"
)


def guarded(app: ASGIApp, settings: Settings) -> ASGIApp:
    """`app` behind the Host check, with relative redirects and the security headers."""
    hosts = settings.trusted_hosts
    https_origin = (settings.public_base_url or "").startswith("https://")
    strict_transport = settings.environment != "development"
    common = [
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"strict-origin-when-cross-origin"),
        (b"permissions-policy", PERMISSIONS_POLICY.encode()),
    ]

    async def guard(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await app(scope, receive, send)  # lifespan
            return
        host = _header(scope, b"host")
        if hosts is not None and not host_allowed(host, hosts):
            await _refuse_host(scope, send)
            return
        hsts = strict_transport and (https_origin or scope.get("scheme") in ("https", "wss"))

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": _headers(message, scope, host, common, hsts)}
            await send(message)

        await app(scope, receive, send_guarded if scope["type"] == "http" else send)

    return guard


def host_allowed(host: str, allowed: list[str]) -> bool:
    """Whether a Host header (with or without its port) names one of `allowed`: exact names, or
    `*.example.com` for any subdomain of example.com; `*` allows any."""
    name = _host_name(host)
    if not name:
        return False
    for pattern in allowed:
        if pattern == "*" or pattern == name:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):  # [IPv6]:port
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0].rstrip(".") if host.count(":") == 1 else host.rstrip(".")


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return ""


def _headers(message: Message, scope: Scope, host: str, common: list, hsts: bool) -> list:
    headers = list(message.get("headers") or [])
    names = {key.lower() for key, _ in headers}
    if 300 <= message["status"] < 400 and b"location" in names:
        headers = [
            (key, _relative(value, scope, host) if key.lower() == b"location" else value) for key, value in headers
        ]
    headers += [(key, value) for key, value in common if key not in names]
    if b"content-security-policy" not in names:
        headers.append((b"content-security-policy", DEFAULT_POLICY.encode()))
    if hsts and b"strict-transport-security" not in names:
        headers.append((b"strict-transport-security", HSTS))
    return headers


def _relative(location: bytes, scope: Scope, host: str) -> bytes:
    """A Location on the origin the request named, as a path (with its query)."""
    parts = urlsplit(location.decode("latin-1"))
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
        return location
    relative = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if relative.startswith("//"):  # a path that would read as another host
        relative = "/" + relative.lstrip("/")
    return relative.encode("latin-1")


async def _refuse_host(scope: Scope, send: Send) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})  # before the handshake: a 403
        return
    body = orjson.dumps(
        {"error": True, "message": "This server does not answer for that host", "messageErrorCode": "invalid_host"}
    )
    await send(
        {
            "type": "http.response.start",
            "status": 400,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"private, no-store"),
                (b"x-content-type-options", b"nosniff"),
                (b"content-security-policy", DEFAULT_POLICY.encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
