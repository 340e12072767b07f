"""The development ifa provider (`touchline serve`, the contract checks): the popup's code flow
signs in, and its access tokens are introspected like a real provider's, so a token another
client obtained there is refused."""

import pytest

from server.auth.providers import LoginFailed, OidcProvider, ProviderClient, offered
from server.auth.providers.client import ACCESS_TOKEN_TYPE
from server.auth.providers.local_provider import CLIENT_ID, CLIENT_SECRET, USERS, local_openid_provider
from server.settings import Settings
from server.tests.oidc_provider import OidcProvider as ProviderHandle
from server.tests.oidc_provider import RegisteredClient

CALLBACK = "http://localhost:8000/auth/oauth2/callback/ifa/"
FAN = USERS[0]


@pytest.fixture(scope="module")
def issuer(tmp_path_factory):
    with local_openid_provider(0, tmp_path_factory.mktemp("ifa") / "ifa-provider.log") as started:
        assert started is not None, "the development provider did not start"
        yield started


@pytest.fixture(scope="module")
def browser(issuer):
    """The tests' handle drives the authorize page of the running provider like a browser."""
    handle = ProviderHandle()
    handle.issuer = issuer
    yield handle
    handle.stop()


@pytest.fixture
async def providers():
    client = ProviderClient(timeout=5, cache_seconds=300)
    yield client
    await client.close()


def ifa(issuer: str) -> OidcProvider:
    """The ifa sign-on as the server configures it for the development provider."""
    provider = offered(
        Settings(environment="development", ifa_issuer=issuer, ifa_client_id=CLIENT_ID, ifa_client_secret=CLIENT_SECRET)
    )["ifa"]
    assert isinstance(provider, OidcProvider)
    return provider


OURS = RegisteredClient(CLIENT_ID, CLIENT_SECRET, CALLBACK)
# The development provider takes any client id: anyone on the machine can be another application.
ELSEWHERE = RegisteredClient("another-app", "anything", "http://elsewhere.test/callback/")


async def test_the_popup_code_flow_signs_in_with_the_development_provider(issuer, browser, providers):
    verifier = "p" * 43
    code = await browser.authorize(OURS, FAN["sub"], state="s", nonce="n-dev", code_verifier=verifier)
    identity = await providers.sign_in_with_code(
        ifa(issuer), code=code, redirect_uri=CALLBACK, code_verifier=verifier, nonce="n-dev"
    )
    assert (identity.subject, identity.email, identity.email_verified) == (FAN["sub"], FAN["email"], True)


async def test_an_access_token_issued_to_our_client_signs_in(issuer, browser, providers):
    token = await browser.access_token(OURS, FAN["sub"])
    assert (await providers.verify_token(ifa(issuer), token, ACCESS_TOKEN_TYPE)).subject == FAN["sub"]


async def test_an_access_token_another_client_obtained_is_refused(issuer, browser, providers):
    token = await browser.access_token(ELSEWHERE, FAN["sub"])
    with pytest.raises(LoginFailed, match="issued to another application"):
        await providers.verify_token(ifa(issuer), token, ACCESS_TOKEN_TYPE)
