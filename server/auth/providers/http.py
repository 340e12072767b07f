"""Outbound HTTP to identity providers: one aiohttp ClientSession per app, JSON in and out.

Every failure to talk to a provider (refused connection, timeout, a 5xx, a body that is not
JSON or is too large) becomes ProviderUnavailable; 4xx answers go back to the caller, which
knows what the provider meant by them.
"""

import logging
from typing import Any

import aiohttp
import orjson

from .errors import ProviderUnavailable

log = logging.getLogger(__name__)

# Discovery documents, key sets and token answers are a few kilobytes.
MAX_BODY = 1024 * 1024


class ProviderHttp:
    def __init__(self, timeout: float):
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._session: aiohttp.ClientSession | None = None

    def session(self) -> aiohttp.ClientSession:
        """The shared session, created on first use (it must be created inside the event loop)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=self._timeout,
                headers={"Accept": "application/json", "User-Agent": "Touchline"},
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def get_json(self, url: str, **kwargs: Any) -> tuple[int, Any]:
        return await self.request_json("GET", url, **kwargs)

    async def post_form(self, url: str, form: dict[str, str], **kwargs: Any) -> tuple[int, Any]:
        return await self.request_json("POST", url, data=form, **kwargs)

    async def request_json(self, method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
        """(status, parsed JSON) for 2xx and 4xx answers; 4xx bodies that are not JSON give None."""
        try:
            async with self.session().request(method, url, **kwargs) as response:
                status = response.status
                body = await _read_bounded(response, url)
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            log.warning("identity provider unreachable: %s %s: %r", method, _safe(url), exc)
            raise ProviderUnavailable(f"{_safe(url)} is unreachable") from None
        if status >= 500 or status < 200 or 300 <= status < 400:
            log.warning("identity provider answered %s: %s %s", status, method, _safe(url))
            raise ProviderUnavailable(f"{_safe(url)} answered {status}")
        try:
            return status, orjson.loads(body)
        except orjson.JSONDecodeError:
            if status >= 400:
                return status, None
            log.warning("identity provider answered a body that is not JSON: %s %s", method, _safe(url))
            raise ProviderUnavailable(f"{_safe(url)} answered a body that is not JSON") from None


async def _read_bounded(response: aiohttp.ClientResponse, url: str) -> bytes:
    body = bytearray()
    async for chunk in response.content.iter_chunked(64 * 1024):
        body += chunk
        if len(body) > MAX_BODY:
            raise ProviderUnavailable(f"{_safe(url)} answered more than {MAX_BODY} bytes")
    return bytes(body)


def _safe(url: str) -> str:
    """The URL without its query (which may hold a token) for logs and messages."""
    return url.split("?", 1)[0]
