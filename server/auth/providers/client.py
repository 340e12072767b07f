"""One object per app that talks to every identity provider: the shared HTTP session and the
discovery and key caches. The app's lifespan creates it and closes it (server.app)."""

from ...settings import Settings
from .authorization_code import exchange_code
from .discovery import Discovery
from .errors import UnsupportedToken
from .http import ProviderHttp
from .identity import Identity
from .oidc import verify_id_token
from .registry import FacebookProvider, OidcProvider, Provider
from .userinfo import facebook_identity, oidc_userinfo

ID_TOKEN_TYPES = ("urn:ietf:params:oauth:token-type:id_token", "urn:ietf:params:oauth:token-type:jwt")
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"


class ProviderClient:
    def __init__(self, *, timeout: float, cache_seconds: float):
        self.http = ProviderHttp(timeout)
        self.discovery = Discovery(self.http, ttl=cache_seconds)

    @classmethod
    def from_settings(cls, settings: Settings) -> "ProviderClient":
        return cls(timeout=settings.federation_timeout, cache_seconds=settings.federation_cache_seconds)

    async def close(self) -> None:
        await self.http.close()

    async def verify_token(self, provider: Provider, token: str, token_type: str) -> Identity:
        """Who the provider says this token belongs to (LoginFailed / ProviderUnavailable otherwise)."""
        if isinstance(provider, FacebookProvider):
            if token_type != ACCESS_TOKEN_TYPE:
                raise UnsupportedToken("facebook sign-in takes an access token")
            return await facebook_identity(self.http, provider, token)
        if token_type in ID_TOKEN_TYPES:
            return await verify_id_token(self.discovery, provider, token)
        if token_type == ACCESS_TOKEN_TYPE:
            return await oidc_userinfo(self.http, self.discovery, provider, token)
        raise UnsupportedToken(f"{provider.name} sign-in takes an ID token or an access token")

    async def sign_in_with_code(
        self, provider: OidcProvider, *, code: str, redirect_uri: str, code_verifier: str, nonce: str
    ) -> Identity:
        tokens = await exchange_code(
            self.http, self.discovery, provider, code=code, redirect_uri=redirect_uri, code_verifier=code_verifier
        )
        return await verify_id_token(self.discovery, provider, tokens["id_token"], nonce=nonce)

    async def authorize_url(self, provider: OidcProvider) -> str | None:
        return (await self.discovery.metadata(provider.issuer)).authorization_endpoint
