"""A stand-in for Facebook's Graph API on loopback (tests only: there is no internet here).

It answers the two calls Touchline makes, as the Graph API documents them: `debug_token`
(authenticated with an app access token `app_id|app_secret`) and `me` (with the user's token
and its `appsecret_proof`), and refuses what the real one refuses with its `OAuthException`
error shape.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from aiohttp import web

VERSION = "v15.0"


@dataclass
class _Token:
    app_id: str
    user: dict
    valid: bool


def _oauth_error(message: str) -> web.Response:
    return web.json_response({"error": {"message": message, "type": "OAuthException", "code": 190}}, status=400)


class GraphApi:
    def __init__(self, apps: dict[str, str]):
        self.apps = apps  # app id -> app secret
        self.tokens: dict[str, _Token] = {}
        self.calls: list[str] = []
        self.broken = False  # answer 500 to everything, like an outage
        self._runner: web.AppRunner | None = None
        self.url = ""

    def issue(self, app_id: str, user: dict, *, valid: bool = True) -> str:
        token = "EAAB" + secrets.token_urlsafe(24)
        self.tokens[token] = _Token(app_id, user, valid)
        return token

    async def start(self) -> GraphApi:
        app = web.Application()
        app.router.add_get(f"/{VERSION}/debug_token", self._debug_token)
        app.router.add_get(f"/{VERSION}/me", self._me)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}/{VERSION}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @staticmethod
    def _bearer(request: web.Request) -> str | None:
        header = request.headers.get("Authorization", "")
        return header[7:] if header.startswith("Bearer ") else request.query.get("access_token")

    async def _debug_token(self, request: web.Request) -> web.Response:
        self.calls.append("debug_token")
        if self.broken:
            return web.Response(status=500, text="Internal Server Error")
        app_id, _, secret = (self._bearer(request) or "").partition("|")
        if self.apps.get(app_id) != secret or not secret:
            return _oauth_error("Invalid OAuth access token signature.")
        token = self.tokens.get(request.query.get("input_token", ""))
        if token is None:
            return web.json_response(
                {"data": {"is_valid": False, "error": {"code": 190, "message": "Invalid OAuth access token."}}}
            )
        return web.json_response(
            {
                "data": {
                    "app_id": token.app_id,
                    "type": "USER",
                    "application": "Touchline",
                    "is_valid": token.valid,
                    "scopes": ["email", "public_profile"],
                    "user_id": token.user["id"],
                }
            }
        )

    async def _me(self, request: web.Request) -> web.Response:
        self.calls.append("me")
        if self.broken:
            return web.Response(status=500, text="Internal Server Error")
        value = self._bearer(request) or ""
        token = self.tokens.get(value)
        if token is None or not token.valid:
            return _oauth_error("Invalid OAuth access token data.")
        expected = hmac.new(self.apps[token.app_id].encode(), value.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(request.query.get("appsecret_proof", ""), expected):
            return _oauth_error("Invalid appsecret_proof provided in the API argument")
        fields = request.query.get("fields", "id,name").split(",")
        return web.json_response({k: v for k, v in token.user.items() if k in fields})
