"""An OpenID Connect access token signs in only when the provider's token introspection (RFC
7662) says it is active and was issued to our client id; a provider that cannot say so takes ID
tokens only. On an issuer whose introspection answers the test controls."""

import base64

import pytest

from server.auth.providers import LoginFailed, OidcProvider, ProviderUnavailable, UnsupportedToken
from server.auth.providers.client import ACCESS_TOKEN_TYPE, ID_TOKEN_TYPES, ProviderClient
from server.tests.auth.stub_issuer import CLIENT_ID, StubIssuer, public_jwk, rsa_key

KEY = rsa_key()
SECRET = "our client secret"
GOOD = "good-access-token"  # the token the stub's userinfo endpoint takes


@pytest.fixture
async def issuer():
    stub = await StubIssuer().start()
    stub.keys = [public_jwk(KEY, "k1")]
    yield stub
    await stub.stop()


@pytest.fixture
async def providers():
    client = ProviderClient(timeout=2, cache_seconds=300)
    yield client
    await client.close()


def ifa(stub: StubIssuer, secret: str | None = SECRET) -> OidcProvider:
    return OidcProvider("ifa", stub.issuer, CLIENT_ID, scope="openid profile", client_secret=secret)


async def test_an_access_token_introspection_says_is_ours_gives_the_userinfo_identity(issuer, providers):
    issuer.introspection = {"active": True, "client_id": CLIENT_ID, "sub": "stub-user"}
    identity = await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)
    assert identity.subject == "stub-user"
    [(form, authorization)] = issuer.introspection_requests
    assert form == {"token": GOOD, "token_type_hint": "access_token", "client_id": CLIENT_ID, "client_secret": SECRET}
    assert authorization is None


@pytest.mark.parametrize(
    "answer",
    [
        {"active": True, "client_id": "another-app", "sub": "stub-user"},
        {"active": True, "azp": "another-app", "aud": CLIENT_ID, "sub": "stub-user"},
        {"active": True, "client_id": CLIENT_ID, "azp": "another-app", "sub": "stub-user"},
        {"active": True, "aud": ["another-app", CLIENT_ID], "sub": "stub-user"},
        {"active": True, "sub": "stub-user"},
    ],
    ids=["client_id", "azp", "client_id and azp disagree", "several audiences", "no party named"],
)
async def test_an_access_token_issued_to_another_application_is_refused(issuer, providers, answer):
    # The userinfo endpoint takes the token (it proves the person, not the application).
    issuer.introspection = answer
    with pytest.raises(LoginFailed, match="another application"):
        await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)


async def test_an_audience_of_our_client_id_alone_is_enough_without_client_id_or_azp(issuer, providers):
    issuer.introspection = {"active": True, "aud": CLIENT_ID}
    assert (await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)).subject == "stub-user"


async def test_an_access_token_introspection_calls_inactive_is_refused(issuer, providers):
    issuer.introspection = {"active": False}
    with pytest.raises(LoginFailed, match="not active"):
        await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)


async def test_introspection_and_userinfo_naming_different_users_is_refused(issuer, providers):
    issuer.introspection = {"active": True, "client_id": CLIENT_ID, "sub": "someone-else"}
    with pytest.raises(LoginFailed, match="two different users"):
        await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)


async def test_an_access_token_of_another_issuer_is_refused(issuer, providers):
    issuer.introspection = {"active": True, "client_id": CLIENT_ID, "iss": "https://elsewhere.example"}
    with pytest.raises(LoginFailed, match="not issued by ifa"):
        await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)


async def test_a_provider_without_introspection_refuses_access_tokens_but_takes_id_tokens(issuer, providers):
    with pytest.raises(UnsupportedToken, match="takes an ID token") as refused:
        await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)
    assert (refused.value.status, refused.value.code) == (400, "unsupported_token_type")
    identity = await providers.verify_token(ifa(issuer), issuer.sign(KEY, kid="k1"), ID_TOKEN_TYPES[0])
    assert identity.subject == "stub-user"


async def test_without_our_client_secret_access_tokens_are_refused(issuer, providers):
    # Google's and Apple's browser SDKs: no secret to authenticate at an introspection endpoint.
    issuer.introspection = {"active": True, "client_id": CLIENT_ID}
    with pytest.raises(UnsupportedToken):
        await providers.verify_token(ifa(issuer, secret=None), GOOD, ACCESS_TOKEN_TYPE)
    assert issuer.introspection_requests == []


async def test_basic_authentication_is_used_when_it_is_the_only_method_offered(issuer, providers):
    issuer.introspection = {"active": True, "client_id": CLIENT_ID}
    issuer.discovery_overrides = {"introspection_endpoint_auth_methods_supported": ["client_secret_basic"]}
    await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)
    [(form, authorization)] = issuer.introspection_requests
    assert "client_secret" not in form
    assert authorization == "Basic " + base64.b64encode(f"{CLIENT_ID}:our+client+secret".encode()).decode()


async def test_introspection_refusing_our_credentials_fails_the_login(issuer, providers):
    issuer.introspection, issuer.introspection_status = {"error": "invalid_client"}, 401
    with pytest.raises(LoginFailed, match="refused to check"):
        await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)


@pytest.mark.parametrize("answer", [{"client_id": CLIENT_ID}, {"active": "true"}, ["active"]])
async def test_an_introspection_answer_without_active_makes_the_provider_unavailable(issuer, providers, answer):
    issuer.introspection = answer
    with pytest.raises(ProviderUnavailable):
        await providers.verify_token(ifa(issuer), GOOD, ACCESS_TOKEN_TYPE)
