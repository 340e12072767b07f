"""Facebook access tokens, checked with the Graph API (a local stand-in: no internet here)."""

import pytest

from server.auth.providers import FacebookProvider, LoginFailed, ProviderClient, ProviderUnavailable, UnsupportedToken
from server.auth.providers.client import ACCESS_TOKEN_TYPE
from server.tests.facebook_graph import GraphApi

APP_ID, APP_SECRET = "1234567890123456", "touchline-app-secret"
OTHER_APP = "6543210987654321"
FAN = {
    "id": "10158000000000001",
    "name": "Jane Fan",
    "email": "Jane@Example.com",
    "first_name": "Jane",
    "last_name": "Fan",
}


@pytest.fixture
async def graph():
    api = await GraphApi({APP_ID: APP_SECRET, OTHER_APP: "other-secret"}).start()
    yield api
    await api.stop()


@pytest.fixture
async def providers():
    client = ProviderClient(timeout=2, cache_seconds=300)
    yield client
    await client.close()


def facebook(graph: GraphApi, secret: str = APP_SECRET) -> FacebookProvider:
    return FacebookProvider(APP_ID, secret, graph.url)


async def test_a_valid_token_gives_the_facebook_user_with_an_unverified_email(graph, providers):
    identity = await providers.verify_token(facebook(graph), graph.issue(APP_ID, FAN), ACCESS_TOKEN_TYPE)
    assert (identity.provider, identity.subject, identity.name) == ("facebook", FAN["id"], "Jane Fan")
    assert (identity.given_name, identity.family_name) == ("Jane", "Fan")
    assert identity.email == "jane@example.com" and identity.email_verified is False
    assert graph.calls == ["debug_token", "me"], "me is asked with a valid appsecret_proof after debug_token"


async def test_a_token_issued_to_another_app_is_refused(graph, providers):
    with pytest.raises(LoginFailed, match="another application"):
        await providers.verify_token(facebook(graph), graph.issue(OTHER_APP, FAN), ACCESS_TOKEN_TYPE)
    assert graph.calls == ["debug_token"]


@pytest.mark.parametrize("token", ["unknown-token", None])
async def test_an_unknown_or_expired_token_is_refused(graph, providers, token):
    token = token or graph.issue(APP_ID, FAN, valid=False)
    with pytest.raises(LoginFailed, match="not valid"):
        await providers.verify_token(facebook(graph), token, ACCESS_TOKEN_TYPE)


async def test_graph_refusing_our_app_credentials_fails_the_login_with_its_message(graph, providers):
    with pytest.raises(LoginFailed, match="Facebook: Invalid OAuth access token signature"):
        await providers.verify_token(facebook(graph, secret="wrong"), graph.issue(APP_ID, FAN), ACCESS_TOKEN_TYPE)


async def test_a_graph_outage_makes_facebook_unavailable(graph, providers):
    graph.broken = True
    with pytest.raises(ProviderUnavailable):
        await providers.verify_token(facebook(graph), graph.issue(APP_ID, FAN), ACCESS_TOKEN_TYPE)


async def test_facebook_takes_access_tokens_only(graph, providers):
    with pytest.raises(UnsupportedToken):
        await providers.verify_token(facebook(graph), "eyJ.a.b", "urn:ietf:params:oauth:token-type:id_token")
    assert graph.calls == []
