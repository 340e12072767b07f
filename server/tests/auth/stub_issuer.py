"""An OpenID Connect issuer on loopback whose keys and answers the test controls.

The real provider (server/tests/oidc_provider.py) shows the happy path and its refusals; this
one signs whatever claims a test needs with keys the test holds, rotates keys, counts fetches
and misbehaves on demand.
"""

from __future__ import annotations

import asyncio
import time

import jwt
from aiohttp import web
from cryptography.hazmat.primitives.asymmetric import ec, rsa

CLIENT_ID = "touchline-test-client"


def rsa_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def public_jwk(private_key, kid: str | None, alg: str | None = None) -> dict:
    jwk = (
        jwt.algorithms.RSAAlgorithm.to_jwk(private_key.public_key(), as_dict=True)
        if isinstance(private_key, rsa.RSAPrivateKey)
        else jwt.algorithms.ECAlgorithm.to_jwk(private_key.public_key(), as_dict=True)
    )
    if kid is not None:
        jwk["kid"] = kid
    if alg is not None:
        jwk["alg"] = alg
    return jwk


def ec_key():
    return ec.generate_private_key(ec.SECP256R1())


class StubIssuer:
    def __init__(self):
        self.keys: list[dict] = []
        self.fetches = {"discovery": 0, "jwks": 0}
        self.discovery_overrides: dict = {}
        self.discovery_status = 200
        self.discovery_body: bytes | None = None  # raw body instead of the document
        self.delay = 0.0
        # Token introspection (RFC 7662): offered when this is the answer to give; each request's
        # form and Authorization header is kept.
        self.introspection: dict | None = None
        self.introspection_status = 200
        self.introspection_requests: list[tuple[dict, str | None]] = []
        self._runner: web.AppRunner | None = None
        self.issuer = ""

    async def start(self) -> StubIssuer:
        app = web.Application()
        app.router.add_get("/.well-known/openid-configuration", self._discovery)
        app.router.add_get("/jwks", self._jwks)
        app.router.add_get("/userinfo", self._userinfo)
        app.router.add_post("/introspect", self._introspect)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.issuer = f"http://{host}:{port}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def sign(self, private_key, *, kid: str | None = None, alg: str = "RS256", **claims) -> str:
        now = int(time.time())
        payload = {"iss": self.issuer, "aud": CLIENT_ID, "sub": "stub-user", "iat": now, "exp": now + 600, **claims}
        headers = {"kid": kid} if kid is not None else {}
        return jwt.encode(
            {k: v for k, v in payload.items() if v is not None}, private_key, algorithm=alg, headers=headers
        )

    async def _discovery(self, _request: web.Request) -> web.StreamResponse:
        self.fetches["discovery"] += 1
        await asyncio.sleep(self.delay)
        if self.discovery_body is not None:
            return web.Response(body=self.discovery_body, status=self.discovery_status, content_type="text/html")
        document = {
            "issuer": self.issuer,
            "jwks_uri": f"{self.issuer}/jwks",
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "userinfo_endpoint": f"{self.issuer}/userinfo",
            "id_token_signing_alg_values_supported": ["RS256", "ES256"],
            "introspection_endpoint": f"{self.issuer}/introspect" if self.introspection is not None else None,
            **self.discovery_overrides,
        }
        return web.json_response({k: v for k, v in document.items() if v is not None}, status=self.discovery_status)

    async def _jwks(self, _request: web.Request) -> web.Response:
        self.fetches["jwks"] += 1
        return web.json_response({"keys": self.keys})

    async def _userinfo(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bearer good-access-token":
            return web.json_response({"error": "invalid_token"}, status=401)
        return web.json_response({"sub": "stub-user", "email": "Stub@Example.com", "email_verified": "true"})

    async def _introspect(self, request: web.Request) -> web.Response:
        self.introspection_requests.append((dict(await request.post()), request.headers.get("Authorization")))
        return web.json_response(self.introspection, status=self.introspection_status)
