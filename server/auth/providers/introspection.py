"""Which application an access token was issued to, asked with token introspection (RFC 7662).

The userinfo endpoint answers for any valid access token, whichever application obtained it,
so it proves who the person is but not that the token was meant for us: an application the
person signed in to elsewhere could sign in here with their token. Before an access token is
taken, the provider's introspection endpoint (authenticated with our client credentials) must
say it is active and was issued to our client id. A provider that offers no introspection, or
that we hold no client secret for (Google's and Apple's browser SDKs), takes ID tokens only,
whose audience the signature covers.
"""

from typing import Any

from .client_auth import client_credentials
from .discovery import ProviderMetadata
from .errors import LoginFailed, ProviderUnavailable, UnsupportedToken
from .http import ProviderHttp
from .registry import OidcProvider

REFUSED = (400, 401, 403)
ID_TOKENS_ONLY = "{name} sign-in takes an ID token: {name} cannot tell us which application an access token is for"


async def check_issued_to_us(
    http: ProviderHttp, metadata: ProviderMetadata, provider: OidcProvider, token: str
) -> str | None:
    """Passes for an active access token issued to our client id, with the subject the provider
    names (when it does); UnsupportedToken when the provider cannot be asked, LoginFailed when
    it says no."""
    endpoint = metadata.introspection_endpoint
    if endpoint is None or not provider.client_secret:
        raise UnsupportedToken(ID_TOKENS_ONLY.format(name=provider.name))
    credentials, headers = client_credentials(provider, metadata.introspection_auth_methods)
    form = {"token": token, "token_type_hint": "access_token", **credentials}
    status, answer = await http.post_form(endpoint, form, headers=headers)
    if status in REFUSED:
        raise LoginFailed(f"{provider.name} refused to check the access token for us ({status})")
    if status != 200 or not isinstance(answer, dict) or not isinstance(answer.get("active"), bool):
        raise ProviderUnavailable(f"{provider.name}'s introspection endpoint answered {status} without `active`")
    if answer["active"] is not True:
        raise LoginFailed(f"{provider.name} says the access token is not active")
    if not _issued_to(answer, provider.client_id):
        raise LoginFailed("the access token was issued to another application")
    issuer = answer.get("iss")
    if issuer is not None and issuer not in provider.issuers:
        raise LoginFailed(f"the access token was not issued by {provider.name}")
    subject = answer.get("sub")
    return subject if isinstance(subject, str) and subject else None


def _issued_to(answer: dict[str, Any], client_id: str) -> bool:
    """RFC 7662's `client_id` (and OpenID's `azp`) name the application that obtained the token;
    without either, the audience must be our client id alone."""
    parties = [answer[name] for name in ("client_id", "azp") if answer.get(name) is not None]
    if parties:
        return all(party == client_id for party in parties)
    audience = answer.get("aud")
    return audience == client_id or audience == [client_id]
