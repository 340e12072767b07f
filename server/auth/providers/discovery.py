"""OpenID Connect discovery documents and signing keys (JWKS), cached with a time to live.

A provider's metadata comes from `{issuer}/.well-known/openid-configuration` and must name the
issuer it was fetched for (OpenID Connect Discovery §4.3). Its key set is fetched from
`jwks_uri`. Both are kept for `ttl` seconds. A token signed with a key id we do not have makes
us fetch the key set again (the provider rotated its keys), at most once per `refetch_interval`
seconds so made-up key ids cannot turn every request into a fetch. A provider whose discovery
failed is not asked again for `retry_after` seconds.
"""

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import jwt

from .errors import ProviderUnavailable
from .http import ProviderHttp

WELL_KNOWN = "/.well-known/openid-configuration"

# Key types and curves each signature algorithm can use. Symmetric algorithms (HS*) and
# "none" are never accepted from a provider.
ALGORITHM_KEYS: dict[str, tuple[str, str | None]] = {
    "RS256": ("RSA", None),
    "RS384": ("RSA", None),
    "RS512": ("RSA", None),
    "PS256": ("RSA", None),
    "PS384": ("RSA", None),
    "PS512": ("RSA", None),
    "ES256": ("EC", "P-256"),
    "ES384": ("EC", "P-384"),
    "ES512": ("EC", "P-521"),
    "EdDSA": ("OKP", "Ed25519"),
}


@dataclass(frozen=True)
class ProviderMetadata:
    issuer: str
    jwks_uri: str
    authorization_endpoint: str | None
    token_endpoint: str | None
    userinfo_endpoint: str | None
    signing_algorithms: tuple[str, ...]
    token_auth_methods: tuple[str, ...]
    # RFC 7662 token introspection (RFC 8414 §2): how an access token's client is checked.
    introspection_endpoint: str | None = None
    introspection_auth_methods: tuple[str, ...] = ()


@dataclass
class KeySet:
    keys: list[dict[str, Any]]
    fetched: float
    _prepared: dict[tuple[int, str], jwt.PyJWK] = field(default_factory=dict)

    def candidates(self, algorithm: str, kid: str | None) -> list[jwt.PyJWK]:
        """Keys that may have signed a token with this header: the one with its `kid`, or
        (when the header names none) every key of the algorithm's type."""
        kty, crv = ALGORITHM_KEYS[algorithm]
        found = []
        for index, key in enumerate(self.keys):
            if kid is not None and key.get("kid") != kid:
                continue
            if key.get("kty") != kty or (crv and key.get("crv") != crv):
                continue
            if key.get("alg") not in (None, algorithm) or key.get("use") not in (None, "sig"):
                continue
            prepared = self._prepared.get((index, algorithm))
            if prepared is None:
                try:
                    prepared = self._prepared[(index, algorithm)] = jwt.PyJWK(key, algorithm=algorithm)
                except jwt.PyJWTError:
                    continue
            found.append(prepared)
        return found


class Discovery:
    def __init__(self, http: ProviderHttp, *, ttl: float, refetch_interval: float = 30.0, retry_after: float = 10.0):
        self._http = http
        self._ttl = ttl
        self._refetch_interval = refetch_interval
        # A provider that just failed is not asked again for this long: a sign-in page listing
        # providers must not wait for a dead one's timeout on every visit.
        self._retry_after = retry_after
        self._metadata: dict[str, tuple[float, ProviderMetadata]] = {}
        self._failed: dict[str, tuple[float, str]] = {}
        self._keys: dict[str, KeySet] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def _lock(self, key: str) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())

    def _fresh(self, fetched: float) -> bool:
        return time.monotonic() - fetched < self._ttl

    async def metadata(self, issuer: str) -> ProviderMetadata:
        cached = self._metadata.get(issuer)
        if cached and self._fresh(cached[0]):
            return cached[1]
        async with self._lock("metadata:" + issuer):  # one fetch when many sign-ins arrive at once
            cached = self._metadata.get(issuer)
            if cached and self._fresh(cached[0]):
                return cached[1]
            failed = self._failed.get(issuer)
            if failed and time.monotonic() - failed[0] < self._retry_after:
                raise ProviderUnavailable(f"{failed[1]} (a moment ago; not asked again yet)")
            try:
                status, document = await self._http.get_json(issuer.rstrip("/") + WELL_KNOWN)
                metadata = _parse_metadata(issuer, status, document)
            except ProviderUnavailable as exc:
                self._failed[issuer] = (time.monotonic(), exc.reason)
                raise
            self._failed.pop(issuer, None)
            self._metadata[issuer] = (time.monotonic(), metadata)
            return metadata

    async def signing_keys(self, jwks_uri: str, algorithm: str, kid: str | None) -> list[jwt.PyJWK]:
        key_set = await self._key_set(jwks_uri)
        found = key_set.candidates(algorithm, kid)
        if not found and kid is not None and time.monotonic() - key_set.fetched >= self._refetch_interval:
            found = (await self._key_set(jwks_uri, stale=key_set)).candidates(algorithm, kid)
        return found

    async def _key_set(self, jwks_uri: str, stale: KeySet | None = None) -> KeySet:
        cached = self._keys.get(jwks_uri)
        if cached and cached is not stale and self._fresh(cached.fetched):
            return cached
        async with self._lock("keys:" + jwks_uri):
            cached = self._keys.get(jwks_uri)
            if cached and cached is not stale and self._fresh(cached.fetched):
                return cached
            status, document = await self._http.get_json(jwks_uri)
            key_set = KeySet(_parse_keys(jwks_uri, status, document), time.monotonic())
            self._keys[jwks_uri] = key_set
            return key_set


def _parse_metadata(issuer: str, status: int, document: Any) -> ProviderMetadata:
    if status != 200 or not isinstance(document, dict):
        raise ProviderUnavailable(f"{issuer} has no OpenID Connect discovery document (status {status})")
    if document.get("issuer") != issuer:
        raise ProviderUnavailable(f"the discovery document of {issuer} names another issuer")
    jwks_uri = document.get("jwks_uri")
    if not isinstance(jwks_uri, str) or not jwks_uri.startswith(("https://", "http://")):
        raise ProviderUnavailable(f"the discovery document of {issuer} has no jwks_uri")

    def url(name: str) -> str | None:
        value = document.get(name)
        return value if isinstance(value, str) and value.startswith(("https://", "http://")) else None

    def names(name: str, default: tuple[str, ...]) -> tuple[str, ...]:
        value = document.get(name)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
        return default

    return ProviderMetadata(
        issuer=issuer,
        jwks_uri=jwks_uri,
        authorization_endpoint=url("authorization_endpoint"),
        token_endpoint=url("token_endpoint"),
        userinfo_endpoint=url("userinfo_endpoint"),
        # Discovery's default for ID tokens is RS256 (OpenID Connect Discovery §3).
        signing_algorithms=names("id_token_signing_alg_values_supported", ("RS256",)),
        token_auth_methods=names("token_endpoint_auth_methods_supported", ()),
        introspection_endpoint=url("introspection_endpoint"),
        # RFC 8414 §2 leaves the default open: the token endpoint's methods are the best guess.
        introspection_auth_methods=names(
            "introspection_endpoint_auth_methods_supported",
            names("token_endpoint_auth_methods_supported", ()),
        ),
    )


def _parse_keys(jwks_uri: str, status: int, document: Any) -> list[dict[str, Any]]:
    if status != 200 or not isinstance(document, dict) or not isinstance(document.get("keys"), list):
        raise ProviderUnavailable(f"{jwks_uri} is not a JSON Web Key Set (status {status})")
    keys = [k for k in document["keys"] if isinstance(k, dict) and k.get("kty") in ("RSA", "EC", "OKP")]
    if not keys:
        raise ProviderUnavailable(f"{jwks_uri} holds no public signing keys")
    return keys
