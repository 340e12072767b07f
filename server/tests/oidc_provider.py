"""A real OpenID Connect provider on loopback for the federated sign-on tests.

`python -m server.tests.oidc_provider` serves oidc-provider-mock (discovery, authorize form,
token endpoint, JWKS, userinfo) on 127.0.0.1 and a free port, which it prints first on stdout.
Clients must register (their secret is checked) and send a nonce. Token introspection (RFC 7662,
which the mock lacks) is added in front of it by server.auth.providers.local_introspection: a
registered client may ask which client an access token was issued to.

oidc-provider-mock does not implement PKCE: it accepts any `code_verifier`. `PkceCheck` adds
RFC 7636 in front of it, from the wire alone: it remembers the `code_challenge` of each
authorization request that produced a code, and the token endpoint refuses that code with
`invalid_grant` unless the verifier matches.

`OidcProvider` is the tests' handle: it starts the process, registers clients, sets users'
claims and drives the authorize page like a browser would.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import httpx

START_TIMEOUT_S = 20
HTTP_TIMEOUT_S = 5


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class PkceCheck:
    """WSGI middleware: RFC 7636 verification for the provider behind it."""

    def __init__(self, app):
        self.app = app
        self.challenges: dict[str, tuple[str, str]] = {}
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == "/oauth2/authorize":
            return self.app(environ, self._remembering(environ, start_response))
        if path == "/oauth2/token" and environ.get("REQUEST_METHOD") == "POST":
            body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            environ["wsgi.input"] = io.BytesIO(body)
            form = parse_qs(body.decode("utf-8", "replace"))
            if form.get("grant_type") == ["authorization_code"]:
                with self.lock:
                    expected = self.challenges.get((form.get("code") or [""])[0])
                error = pkce_error(expected, (form.get("code_verifier") or [None])[0])
                if error:
                    answer = json.dumps({"error": "invalid_grant", "error_description": error}).encode()
                    start_response(
                        "400 Bad Request", [("Content-Type", "application/json"), ("Content-Length", str(len(answer)))]
                    )
                    return [answer]
        return self.app(environ, start_response)

    def _remembering(self, environ, start_response):
        query = parse_qs(environ.get("QUERY_STRING", ""))
        challenge = (query.get("code_challenge") or [None])[0]
        method = (query.get("code_challenge_method") or ["plain"])[0]

        def start(status, headers, exc_info=None):
            if challenge and status.startswith(("302", "303")):
                location = next((v for k, v in headers if k.lower() == "location"), "")
                codes = parse_qs(urlsplit(location).query).get("code")
                code = codes[0] if codes else None
                if code:
                    with self.lock:
                        self.challenges[code] = (challenge, method)
            return start_response(status, headers, exc_info)

        return start


def pkce_error(expected: tuple[str, str] | None, verifier: str | None) -> str | None:
    if expected is None:
        return "The authorization request had no code_challenge, but a code_verifier was sent" if verifier else None
    if not verifier:
        return "Missing code_verifier"
    challenge, method = expected
    computed = s256(verifier) if method == "S256" else verifier
    return None if computed == challenge else "Code challenge failed."


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="oidc-provider-mock with PKCE, on 127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http on loopback

    import werkzeug.serving
    from oidc_provider_mock import app

    from server.auth.providers.local_introspection import Introspection

    provider = app(require_client_registration=True, require_nonce=True)
    server = werkzeug.serving.make_server("127.0.0.1", args.port, Introspection(PkceCheck(provider)), threaded=True)
    print(server.server_port, flush=True)
    server.serve_forever()


# --- the tests' side --------------------------------------------------------------------------


@dataclass(frozen=True)
class RegisteredClient:
    client_id: str
    client_secret: str
    redirect_uri: str


class _Forms(HTMLParser):
    """The forms of a page: (method, action, names of their inputs and buttons)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append(
                {"method": (attrs.get("method") or "get").lower(), "action": attrs.get("action"), "fields": set()}
            )
        elif tag in ("input", "button") and self.forms and attrs.get("name"):
            self.forms[-1]["fields"].add(attrs["name"])


class OidcProvider:
    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.issuer = ""
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 -- lives as long as the provider; stop() closes it

    def start(self) -> OidcProvider:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server.tests.oidc_provider"],
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
        )
        assert self.process.stdout is not None  # stdout=PIPE
        ready, _, _ = select.select([self.process.stdout], [], [], START_TIMEOUT_S)
        line = self.process.stdout.readline().strip() if ready else ""
        if not line.isdigit():
            self.stop()
            raise RuntimeError(f"the OpenID provider did not start: {self.log()}")
        self.issuer = f"http://127.0.0.1:{line}"
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                httpx.get(f"{self.issuer}/.well-known/openid-configuration", timeout=1).raise_for_status()
                return self
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the OpenID provider did not answer: {self.log()}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        if self.process is not None and self.process.stdout:
            self.process.stdout.close()
        self._log.close()

    def log(self) -> str:
        self._log.seek(0)
        return self._log.read().decode(errors="replace")[-4000:]

    def register_client(self, redirect_uri: str) -> RegisteredClient:
        answer = httpx.post(
            f"{self.issuer}/oauth2/clients",
            timeout=HTTP_TIMEOUT_S,
            json={
                "redirect_uris": [redirect_uri],
                "token_endpoint_auth_method": "client_secret_post",
            },
        )
        answer.raise_for_status()
        body = answer.json()
        return RegisteredClient(body["client_id"], body["client_secret"], redirect_uri)

    def set_user(self, sub: str, **claims) -> None:
        httpx.put(f"{self.issuer}/users/{sub}", json=claims, timeout=HTTP_TIMEOUT_S).raise_for_status()

    def revoke_tokens(self, sub: str) -> None:
        httpx.post(f"{self.issuer}/users/{sub}/revoke-tokens", timeout=HTTP_TIMEOUT_S).raise_for_status()

    async def authorize(
        self,
        client: RegisteredClient,
        sub: str,
        *,
        state: str,
        nonce: str,
        code_verifier: str,
        scope: str = "openid profile email",
    ) -> str:
        """What the sign-in popup does: open the authorize page, submit its form for `sub`, and
        read the code from the redirect to our callback (checking `state` came back)."""
        query = urlencode(
            {
                "response_type": "code",
                "client_id": client.client_id,
                "redirect_uri": client.redirect_uri,
                "scope": scope,
                "state": state,
                "nonce": nonce,
                "code_challenge": s256(code_verifier),
                "code_challenge_method": "S256",
            }
        )
        page_url = f"{self.issuer}/oauth2/authorize?{query}"
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT_S, follow_redirects=False) as browser:
            page = await browser.get(page_url)
            assert page.status_code == 200, page.text
            parser = _Forms()
            parser.feed(page.text)
            form = next(f for f in parser.forms if f["method"] == "post" and "sub" in f["fields"])
            action = urljoin(page_url, form["action"]) if form["action"] else page_url
            redirect = await browser.post(action, data={"sub": sub})
        assert redirect.status_code == 302, redirect.text
        location = redirect.headers["location"]
        assert location.split("?", 1)[0] == client.redirect_uri
        params = parse_qs(urlsplit(location).query)
        assert params["state"] == [state], "the provider hands the state back to the callback page"
        return params["code"][0]

    async def id_token(self, client: RegisteredClient, sub: str, *, nonce: str = "n-test") -> str:
        """An ID token issued to `client` for `sub`, through the whole code flow."""
        verifier = "v" * 43
        code = await self.authorize(client, sub, state="s-test", nonce=nonce, code_verifier=verifier)
        return (await self.tokens(client, code, verifier))["id_token"]

    async def access_token(self, client: RegisteredClient, sub: str) -> str:
        """An access token issued to `client` for `sub`, through the whole code flow."""
        verifier = "a" * 43
        code = await self.authorize(client, sub, state="s-test", nonce="n-test", code_verifier=verifier)
        return (await self.tokens(client, code, verifier))["access_token"]

    async def tokens(self, client: RegisteredClient, code: str, verifier: str) -> dict:
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT_S) as http:
            answer = await http.post(
                f"{self.issuer}/oauth2/token",
                data={
                    "grant_type": "authorization_code",
                    "code": code,
                    "redirect_uri": client.redirect_uri,
                    "client_id": client.client_id,
                    "client_secret": client.client_secret,
                    "code_verifier": verifier,
                },
            )
        answer.raise_for_status()
        return answer.json()


if __name__ == "__main__":
    main()
