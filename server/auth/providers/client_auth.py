"""How the server authenticates as a provider's client (RFC 6749 §2.3.1) at its token and
introspection endpoints: the secret in the form (`client_secret_post`) unless the provider only
announces `client_secret_basic`."""

from urllib.parse import quote_plus

import aiohttp

from .registry import OidcProvider


def client_credentials(provider: OidcProvider, methods: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]]:
    """(form fields, headers) that carry our client id and secret."""
    form = {"client_id": provider.client_id}
    headers: dict[str, str] = {}
    if provider.client_secret:
        if methods and "client_secret_post" not in methods and "client_secret_basic" in methods:
            headers["Authorization"] = aiohttp.BasicAuth(
                _form_encode(provider.client_id), _form_encode(provider.client_secret)
            ).encode()
        else:
            form["client_secret"] = provider.client_secret
    return form, headers


def _form_encode(value: str) -> str:
    # RFC 6749 §2.3.1: client credentials in Basic auth are form-urlencoded first.
    return quote_plus(value)
