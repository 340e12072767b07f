"""The authorization-code exchange (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.5).

The browser ran the authorization request with its own `state`, `nonce` and PKCE challenge;
the server posts the code, the verifier and its client credentials to the provider's token
endpoint and gets the ID token back.
"""

from .client_auth import client_credentials
from .discovery import Discovery
from .errors import LoginFailed, ProviderUnavailable
from .http import ProviderHttp
from .registry import OidcProvider


async def exchange_code(
    http: ProviderHttp,
    discovery: Discovery,
    provider: OidcProvider,
    *,
    code: str,
    redirect_uri: str,
    code_verifier: str,
) -> dict:
    """The token endpoint's answer (it holds `id_token`), or LoginFailed with its error."""
    metadata = await discovery.metadata(provider.issuer)
    if metadata.token_endpoint is None:
        raise ProviderUnavailable(f"{provider.name}'s discovery document has no token endpoint")
    credentials, headers = client_credentials(provider, metadata.token_auth_methods)
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "code_verifier": code_verifier,
        **credentials,
    }
    status, answer = await http.post_form(metadata.token_endpoint, form, headers=headers)
    if isinstance(answer, dict) and ("error" in answer or "error_description" in answer):
        reason = answer.get("error_description") or answer.get("error")
        raise LoginFailed(f"{provider.name}: {str(reason)[:200]}")
    if status != 200:
        raise LoginFailed(f"{provider.name}'s token endpoint refused the code ({status})")
    if not isinstance(answer, dict) or not isinstance(answer.get("id_token"), str):
        raise LoginFailed(f"{provider.name} sent no ID token (was the openid scope asked for?)")
    return answer
