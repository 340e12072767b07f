"""Token introspection (RFC 7662) in front of oidc-provider-mock, which has none.

The development provider (`local_provider`) and the tests' provider (server/tests/oidc_provider.py)
run oidc-provider-mock behind `Introspection`, a WSGI middleware that learns from the wire which
client each access token was issued to: it reads the token endpoint's answers (and, for a
refresh, the refresh token's earlier grant), the clients registered at `/oauth2/clients`, and
user revocations. It answers `POST /oauth2/introspect` for an authenticated client and adds the
endpoint to the discovery document, so the server checks access tokens there as it would at a
real provider.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote_plus

import jwt

PATH = "/oauth2/introspect"
AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
Headers = list[tuple[str, str]]


@dataclass(frozen=True)
class Grant:
    client_id: str
    subject: str | None
    scope: str
    issued: int
    expires: int


class Introspection:
    def __init__(self, app: Callable, clients: dict[str, str] | None = None):
        self.app = app
        self.clients = dict(clients or {})  # client id -> secret of the clients that may ask
        self.access: dict[str, Grant] = {}
        self.refresh: dict[str, Grant] = {}
        self.lock = threading.Lock()

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "GET")
        if path == "/.well-known/openid-configuration" and method == "GET":
            return self._discovery(environ, start_response)
        if path == PATH and method == "POST":
            return self._introspect(environ, start_response)
        if path == "/oauth2/token" and method == "POST":
            return self._token(environ, start_response)
        if path == "/oauth2/clients" and method == "POST":
            return self._registration(environ, start_response)
        if path.startswith("/users/") and path.endswith("/revoke-tokens") and method == "POST":
            self._revoke(unquote_plus(path[len("/users/") : -len("/revoke-tokens")]))
        return self.app(environ, start_response)

    def _discovery(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        status, headers, body = _call(self.app, environ)
        document = _json(body) if status.startswith("200") else None
        if isinstance(document, dict) and isinstance(document.get("issuer"), str):
            document["introspection_endpoint"] = document["issuer"] + PATH
            document["introspection_endpoint_auth_methods_supported"] = AUTH_METHODS
            body = json.dumps(document).encode()
        return _answer(start_response, status, headers, body)

    def _token(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        form = _form(environ)
        client_id = _basic(environ)[0] or form.get("client_id")
        status, headers, body = _call(self.app, environ)
        answer = _json(body) if status.startswith("200") else None
        if client_id and isinstance(answer, dict) and isinstance(answer.get("access_token"), str):
            now = int(time.time())
            with self.lock:
                earlier = self.refresh.get(form.get("refresh_token") or "")
            subject = _subject(answer.get("id_token")) or (earlier.subject if earlier else None)
            grant = Grant(
                client_id=client_id,
                subject=subject,
                scope=str(answer.get("scope") or ""),
                issued=now,
                expires=now + int(answer.get("expires_in") or 3600),
            )
            with self.lock:
                self.access[answer["access_token"]] = grant
                if isinstance(answer.get("refresh_token"), str):
                    self.refresh[answer["refresh_token"]] = grant
        return _answer(start_response, status, headers, body)

    def _registration(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        status, headers, body = _call(self.app, environ)
        answer = _json(body) if status.startswith("201") else None
        if isinstance(answer, dict) and isinstance(answer.get("client_id"), str):
            with self.lock:
                self.clients[answer["client_id"]] = str(answer.get("client_secret") or "")
        return _answer(start_response, status, headers, body)

    def _revoke(self, subject: str) -> None:
        with self.lock:
            for grants in (self.access, self.refresh):
                for token in [token for token, grant in grants.items() if grant.subject == subject]:
                    del grants[token]

    def _introspect(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        form = _form(environ)
        client_id, secret = _basic(environ)
        if client_id is None:
            client_id, secret = form.get("client_id"), form.get("client_secret")
        with self.lock:
            known = self.clients.get(client_id or "")
            grant = self.access.get(form.get("token") or "")
        if not known or secret != known:  # RFC 7662 §2.1: the caller must be authenticated
            error = {"error": "invalid_client", "error_description": "Client authentication failed"}
            return _send(start_response, "401 Unauthorized", error, [("WWW-Authenticate", 'Basic realm="introspect"')])
        if grant is None or grant.expires <= time.time():
            return _send(start_response, "200 OK", {"active": False})
        answer = {
            "active": True,
            "client_id": grant.client_id,
            "aud": grant.client_id,
            "sub": grant.subject,
            "scope": grant.scope,
            "iat": grant.issued,
            "exp": grant.expires,
            "iss": f"{environ.get('wsgi.url_scheme', 'http')}://{environ.get('HTTP_HOST', '')}",
            "token_type": "Bearer",
        }
        return _send(start_response, "200 OK", {k: v for k, v in answer.items() if v is not None})


def _call(app: Callable, environ: dict) -> tuple[str, Headers, bytes]:
    """Run the wrapped app and collect its whole answer (these answers are small)."""
    captured: dict[str, Any] = {}
    chunks: list[bytes] = []

    def start(status: str, headers: Headers, exc_info: Any = None) -> Callable[[bytes], None]:
        captured["status"], captured["headers"] = status, headers
        return chunks.append

    result = app(environ, start)
    try:
        chunks.extend(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return captured["status"], captured["headers"], b"".join(chunks)


def _answer(start_response: Callable, status: str, headers: Headers, body: bytes) -> list[bytes]:
    kept = [(name, value) for name, value in headers if name.lower() != "content-length"]
    start_response(status, [*kept, ("Content-Length", str(len(body)))])
    return [body]


def _send(start_response: Callable, status: str, document: dict, headers: Headers | None = None) -> list[bytes]:
    headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store"), *(headers or [])]
    return _answer(start_response, status, headers, json.dumps(document).encode())


def _form(environ: dict) -> dict[str, str]:
    """The form body, read and put back for the wrapped app."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length > 0 else b""
    environ["wsgi.input"] = io.BytesIO(body)
    return {name: values[0] for name, values in parse_qs(body.decode("utf-8", "replace")).items()}


def _basic(environ: dict) -> tuple[str | None, str | None]:
    header = environ.get("HTTP_AUTHORIZATION", "")
    if not header.lower().startswith("basic "):
        return None, None
    try:
        user, _, password = base64.b64decode(header[6:].strip()).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None, None
    return unquote_plus(user), unquote_plus(password)


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _subject(id_token: Any) -> str | None:
    """The `sub` of the provider's own ID token in its token answer (read, not verified: it
    comes straight from the provider behind us)."""
    if not isinstance(id_token, str):
        return None
    try:
        subject = jwt.decode(id_token, options={"verify_signature": False}).get("sub")
    except jwt.PyJWTError:
        return None
    return subject if isinstance(subject, str) else None
