"""A small client for the admin API, shared by every staff command of the CLI (and the TUI).

    async with AdminClient.from_options(api_url, email, password) as api:
        content = await api.post("/admin/socket/emit", {...})

`get`/`post` return the `content` of the success envelope and raise `AdminApiError` (carrying
`messageErrorCode` and `message`) for an error envelope, a server that cannot be reached or an
answer that is not the envelope. How it authenticates, first found first:

- an API key (`--api-key` / TOUCHLINE_API_KEY), sent as a bearer token: for scripts;
- a staff account's e-mail address and password (TOUCHLINE_STAFF_EMAIL / _PASSWORD): it signs in
  on first use (POST /api/user/login, device id `touchline-cli`) and once more if the token was
  refused (it expired, or the session ended);
- the sign-in `touchline login` stored (cli/credentials.py): its access token, refreshed with
  its refresh token when refused (the new pair is stored); when the refresh is refused too, the
  error says plainly that the sign-in expired and to run `touchline login` again.

In Typer commands, `run(...)` turns AdminApiError into exit code 1 with the message on stderr;
the commands get the URL and the credentials from the options of their group
(cli/commands/staff_options.py).
"""

import asyncio
import json
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import typer

from . import credentials as stored_logins
from .terminal_text import echo, visible, visible_data, visible_lines

DEFAULT_API_URL = "http://127.0.0.1:8080"
DEVICE_ID = "touchline-cli"
TIMEOUT_S = 15.0

T = TypeVar("T")


class AdminApiError(Exception):
    """An error envelope from the API, or a failure to get one (`code` then says which)."""

    def __init__(self, message: str, code: str, status: int | None = None, details: list | None = None):
        # The server's words may repeat what was sent (a name, a path): shown escaped wherever
        # the CLI or the TUI prints them (cli/terminal_text.py).
        message, code = visible_lines(str(message)), visible(code) if isinstance(code, str) else code
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.details = visible_data(details or [])

    def __str__(self) -> str:
        lines = [f"{self.message} ({self.code})"]
        lines += [f"  {d.get('field') or '(body)'}: {d.get('message')}" for d in self.details if isinstance(d, dict)]
        return "\n".join(lines)


@dataclass(frozen=True)
class StaffCredentials:
    email: str
    password: str


NOT_SIGNED_IN = (
    "Not signed in: run `touchline login`, or set TOUCHLINE_API_KEY (a key from `touchline keys create`), "
    "or TOUCHLINE_STAFF_EMAIL and TOUCHLINE_STAFF_PASSWORD"
)
LOGIN_EXPIRED = "Your sign-in has expired: run `touchline login` again"


def unreachable(base_url: str, exc: BaseException) -> str:
    """One line: the URL tried, why it failed, and how to point the CLI at another server."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return (
        f"Cannot reach the Touchline API at {base_url} ({reason}); "
        "give the server's URL with --api-url or TOUCHLINE_API_URL"
    )


class AdminClient:
    def __init__(
        self,
        base_url: str,
        credentials: StaffCredentials | None,
        *,
        timeout: float = TIMEOUT_S,
        api_key: str | None = None,
        stored: stored_logins.StoredLogin | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.credentials = credentials
        self.timeout = timeout
        self.api_key = api_key
        self.stored = stored
        self._http: aiohttp.ClientSession | None = None
        self._token: str | None = api_key or (stored.access_token if stored and not credentials else None)

    @classmethod
    def from_options(
        cls,
        api_url: str | None,
        email: str | None,
        password: str | None,
        *,
        timeout: float = TIMEOUT_S,
        api_key: str | None = None,
    ) -> "AdminClient":
        credentials = StaffCredentials(email, password) if email and password else None
        stored = None
        if not api_key and credentials is None:
            login = stored_logins.load()
            # A sign-in is used for the server it was made on (any, when no URL is given).
            if login is not None and (api_url is None or login.api_url.rstrip("/") == api_url.rstrip("/")):
                stored = login
        url = api_url or (stored.api_url if stored else None) or DEFAULT_API_URL
        return cls(url, credentials, timeout=timeout, api_key=api_key, stored=stored)

    async def __aenter__(self) -> "AdminClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    @property
    def token(self) -> str | None:
        """The access token of the current sign-in (None before the first call)."""
        return self._token

    async def get(self, path: str, params: dict[str, Any] | None = None) -> Any:
        return await self.request("GET", path, params=params)

    async def post(self, path: str, body: Any = None) -> Any:
        return await self.request("POST", path, body=body)

    async def request(
        self, method: str, path: str, *, body: Any = None, params: dict[str, Any] | None = None, signed_in: bool = True
    ) -> Any:
        """`path` is relative to /api (e.g. "/admin/outbox"). Returns the envelope's `content`."""
        if signed_in and self._token is None:
            await self.sign_in()
        try:
            return await self._send(method, path, body, params, signed_in)
        except AdminApiError as error:
            if not (signed_in and error.status == 401) or self.api_key:
                raise  # a refused key is refused: its message says why (revoked, expired)
        if self.credentials is None and self.stored is not None:
            await self._refresh_stored()
        else:
            await self.sign_in()  # the token expired or its session ended: once more, freshly signed in
        return await self._send(method, path, body, params, signed_in)

    async def _refresh_stored(self) -> None:
        """A new token pair for the stored sign-in (kept for the next command), or LOGIN_EXPIRED."""
        stored = self.stored
        assert stored is not None
        if not stored.refresh_token:
            raise AdminApiError(LOGIN_EXPIRED, "login_expired", 401)
        try:
            content = await self._send(
                "POST",
                "/oauth2/token",
                {
                    "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
                    "subject_token": stored.refresh_token,
                    "subject_token_type": "urn:ietf:params:oauth:token-type:refresh_token",
                    "subject_issuer": "touchline",
                    "device": {"id": stored.device_id, "name": "Touchline CLI"},
                    "strategy": "refresh",
                },
                None,
                signed_in=False,
            )
        except AdminApiError as error:
            if error.status in (400, 401):
                raise AdminApiError(LOGIN_EXPIRED, "login_expired", 401) from None
            raise
        stored.access_token = content["token"]
        stored.refresh_token = content.get("refresh_token") or stored.refresh_token
        stored_logins.save(stored)
        self._token = stored.access_token

    async def sign_in(self) -> dict:
        """Sign in with the staff account's e-mail address and password; the login answer."""
        if self.credentials is None:
            raise AdminApiError(NOT_SIGNED_IN, "missing_credentials")
        self._token = None
        content = await self._send(
            "POST",
            "/user/login",
            {
                "username": self.credentials.email,
                "password": self.credentials.password,
                "device_id": DEVICE_ID,
                "device_name": "Touchline CLI",
                "strategy": "refresh",
            },
            None,
            signed_in=False,
        )
        if content.get("device_error"):
            error = content["device_error"]
            raise AdminApiError(
                f"{error.get('message', 'Device Limit Exceeded')}: the staff account has no free device "
                f"slot for {DEVICE_ID!r}; remove a device of that account first",
                error.get("code", "device_limit_exceeded"),
            )
        token = (content.get("tokenData") or {}).get("access_token")
        if not token:
            raise AdminApiError("The sign-in answer has no access token", "unexpected_response")
        self._token = token
        return content

    async def _send(self, method: str, path: str, body: Any, params: dict[str, Any] | None, signed_in: bool) -> Any:
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
        url = f"{self.base_url}/api{path}"
        headers = {"Accept": "application/json"}
        if signed_in and self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        try:
            async with self._http.request(method, url, json=body, params=params, headers=headers) as answer:
                text = await answer.text()
                status = answer.status
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise AdminApiError(unreachable(self.base_url, exc), "api_unreachable") from None
        try:
            envelope = json.loads(text)
        except ValueError:
            envelope = None
        if not isinstance(envelope, dict) or "error" not in envelope:
            raise AdminApiError(
                f"{method} {url} answered {status} without the API's envelope: {text[:200]!r}",
                "unexpected_response",
                status,
            )
        if envelope["error"] or status >= 400:
            raise AdminApiError(
                envelope.get("message") or "An error occurred",
                envelope.get("messageErrorCode") or "default_error_message",
                status,
                envelope.get("details"),
            )
        return envelope.get("content")


# --- Typer glue ----------------------------------------------------------------------------------


def fail(message: str) -> typer.Exit:
    """Print `message` to stderr; returns the exit (code 1) to raise."""
    echo(f"Error: {message}", err=True)
    return typer.Exit(1)


def run(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine of a command; domain errors end the command with exit code 1."""
    try:
        return asyncio.run(work)
    except AdminApiError as error:
        raise fail(str(error)) from None
