"""Federated sign-on providers: facebook, apple, google and ifa (spec §1, §5, §7).

- `registry`: which providers are offered, from the settings;
- `discovery`: OpenID Connect discovery documents and signing keys, cached;
- `oidc`: ID-token verification; `userinfo`: access tokens (userinfo, Facebook's Graph API);
- `introspection`: which application an OpenID Connect access token was issued to (RFC 7662);
- `local_provider`, `local_introspection`: the development provider (oidc-provider-mock);
- `authorization_code`: the code exchange of the ifa popup flow;
- `client`: the per-app object that ties them to one aiohttp session.
"""

from .client import ProviderClient
from .errors import LoginFailed, ProviderUnavailable, UnsupportedToken
from .identity import Identity
from .registry import FacebookProvider, OidcProvider, Provider, offered, skip_login

__all__ = [
    "FacebookProvider",
    "Identity",
    "LoginFailed",
    "OidcProvider",
    "Provider",
    "ProviderClient",
    "ProviderUnavailable",
    "UnsupportedToken",
    "offered",
    "skip_login",
]
