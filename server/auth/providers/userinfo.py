"""Access tokens, checked by asking the provider which application they were issued to and who
they belong to.

OpenID Connect providers say the first by token introspection (`introspection`: a provider
without it takes ID tokens only) and the second at their userinfo endpoint. Facebook answers at
the Graph API:
`debug_token` (with our app's credentials) says whether the token is valid and which app it
was issued to, so a token another app obtained cannot sign in here, and `me` (with
`appsecret_proof`) gives the profile.
"""

import hashlib
import hmac
from typing import Any

from .discovery import Discovery
from .errors import LoginFailed, ProviderUnavailable, UnsupportedToken
from .http import ProviderHttp
from .identity import Identity, email_claim, text_claim
from .introspection import check_issued_to_us
from .oidc import identity_from_claims
from .registry import FacebookProvider, OidcProvider

REFUSED = (400, 401, 403)


async def oidc_userinfo(http: ProviderHttp, discovery: Discovery, provider: OidcProvider, token: str) -> Identity:
    metadata = await discovery.metadata(provider.issuer)
    if metadata.userinfo_endpoint is None:
        raise UnsupportedToken(f"{provider.name} sign-in takes an ID token")
    subject = await check_issued_to_us(http, metadata, provider, token)
    status, claims = await http.get_json(metadata.userinfo_endpoint, headers={"Authorization": f"Bearer {token}"})
    if status in REFUSED:
        raise LoginFailed(f"{provider.name} refused the access token")
    if status != 200 or not isinstance(claims, dict):
        raise ProviderUnavailable(f"{provider.name}'s userinfo endpoint answered {status} without claims")
    identity = identity_from_claims(provider.name, claims)
    if subject is not None and identity.subject != subject:
        raise LoginFailed(f"{provider.name} names two different users for the access token")
    return identity


async def facebook_identity(http: ProviderHttp, provider: FacebookProvider, token: str) -> Identity:
    status, answer = await http.get_json(
        f"{provider.graph_url}/debug_token",
        params={"input_token": token},
        headers={"Authorization": f"Bearer {provider.app_id}|{provider.app_secret}"},
    )
    if status in REFUSED:
        raise LoginFailed(_graph_error(answer) or "Facebook refused the access token")
    data = answer.get("data") if isinstance(answer, dict) else None
    if status != 200 or not isinstance(data, dict):
        raise ProviderUnavailable(f"Facebook's debug_token answered {status} without data")
    if data.get("is_valid") is not True:
        raise LoginFailed("Facebook says the access token is not valid")
    if str(data.get("app_id")) != provider.app_id:
        raise LoginFailed("the access token was issued to another application")
    proof = hmac.new(provider.app_secret.encode(), token.encode(), hashlib.sha256).hexdigest()
    status, me = await http.get_json(
        f"{provider.graph_url}/me",
        params={"fields": "id,name,email,first_name,last_name", "appsecret_proof": proof},
        headers={"Authorization": f"Bearer {token}"},
    )
    if status in REFUSED:
        raise LoginFailed(_graph_error(me) or "Facebook refused the access token")
    if status != 200 or not isinstance(me, dict) or not isinstance(me.get("id"), str) or not me["id"]:
        raise ProviderUnavailable(f"Facebook's me answered {status} without an id")
    if me["id"] != str(data.get("user_id")):
        raise LoginFailed("Facebook names another user for this access token")
    return Identity(
        provider=provider.name,
        subject=me["id"][:255],
        email=email_claim(me.get("email")),
        email_verified=False,  # the Graph API does not say whether the address was confirmed
        name=text_claim(me.get("name")),
        given_name=text_claim(me.get("first_name")),
        family_name=text_claim(me.get("last_name")),
    )


def _graph_error(answer: Any) -> str | None:
    error = answer.get("error") if isinstance(answer, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return f"Facebook: {message[:200]}" if isinstance(message, str) and message else None
