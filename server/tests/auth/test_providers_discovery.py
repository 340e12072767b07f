"""Discovery documents and key sets: cached for their time to live, fetched again when the
provider rotates its keys, and every claim rule of an ID token, on an issuer the test controls."""

import asyncio
import time

import pytest

from server.auth.providers import LoginFailed, OidcProvider, ProviderUnavailable, UnsupportedToken
from server.auth.providers.client import ACCESS_TOKEN_TYPE, ProviderClient
from server.auth.providers.discovery import Discovery
from server.auth.providers.http import ProviderHttp
from server.auth.providers.oidc import verify_id_token
from server.tests.auth.stub_issuer import CLIENT_ID, StubIssuer, ec_key, public_jwk, rsa_key

KEY = rsa_key()


@pytest.fixture
async def issuer():
    stub = await StubIssuer().start()
    stub.keys = [public_jwk(KEY, "k1")]
    yield stub
    await stub.stop()


@pytest.fixture
async def http():
    client = ProviderHttp(timeout=2)
    yield client
    await client.close()


def provider(stub: StubIssuer, **kw) -> OidcProvider:
    return OidcProvider("ifa", stub.issuer, CLIENT_ID, scope="openid profile", **kw)


async def test_the_discovery_document_and_keys_are_fetched_once_within_their_time_to_live(issuer, http):
    discovery = Discovery(http, ttl=300)
    for _ in range(3):
        await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1"))
    assert issuer.fetches == {"discovery": 1, "jwks": 1}


async def test_they_are_fetched_again_once_their_time_to_live_is_over(issuer, http):
    discovery = Discovery(http, ttl=0.2)
    await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1"))
    await asyncio.sleep(0.25)
    await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1"))
    assert issuer.fetches == {"discovery": 2, "jwks": 2}


async def test_many_sign_ins_at_once_fetch_the_document_and_keys_once(issuer, http):
    issuer.delay = 0.1
    discovery = Discovery(http, ttl=300)
    await asyncio.gather(*(verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1")) for _ in range(10)))
    assert issuer.fetches == {"discovery": 1, "jwks": 1}


async def test_a_token_signed_with_a_rotated_in_key_fetches_the_keys_again(issuer, http):
    discovery = Discovery(http, ttl=300, refetch_interval=0)
    await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1"))
    new_key = rsa_key()
    issuer.keys = [public_jwk(KEY, "k1"), public_jwk(new_key, "k2")]
    identity = await verify_id_token(discovery, provider(issuer), issuer.sign(new_key, kid="k2", sub="rotated"))
    assert identity.subject == "rotated" and issuer.fetches["jwks"] == 2


async def test_made_up_key_ids_do_not_make_every_sign_in_fetch_the_keys(issuer, http):
    discovery = Discovery(http, ttl=300, refetch_interval=60)
    await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1"))
    for n in range(3):
        with pytest.raises(LoginFailed, match="does not publish"):
            await verify_id_token(discovery, provider(issuer), issuer.sign(rsa_key(), kid=f"made-up-{n}"))
    assert issuer.fetches["jwks"] == 1


async def test_a_token_without_a_key_id_is_checked_against_each_key_of_its_type(issuer, http):
    other = rsa_key()
    issuer.keys = [public_jwk(other, None), public_jwk(KEY, None)]
    identity = await verify_id_token(Discovery(http, ttl=300), provider(issuer), issuer.sign(KEY, sub="no-kid"))
    assert identity.subject == "no-kid"


async def test_elliptic_curve_signatures_are_accepted_when_the_provider_announces_them(issuer, http):
    key = ec_key()
    issuer.keys = [public_jwk(key, "ec1")]
    token = issuer.sign(key, kid="ec1", alg="ES256", sub="ec-user")
    assert (await verify_id_token(Discovery(http, ttl=300), provider(issuer), token)).subject == "ec-user"


async def test_an_algorithm_the_provider_does_not_announce_is_refused(issuer, http):
    issuer.discovery_overrides = {"id_token_signing_alg_values_supported": ["ES256"]}
    with pytest.raises(LoginFailed, match="'RS256', which ifa does not use"):
        await verify_id_token(Discovery(http, ttl=300), provider(issuer), issuer.sign(KEY, kid="k1"))


async def test_the_nonce_must_be_the_one_the_sign_in_started_with(issuer, http):
    discovery = Discovery(http, ttl=300)
    good = await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1", nonce="n-1"), nonce="n-1")
    assert good.subject == "stub-user"
    for token in (issuer.sign(KEY, kid="k1", nonce="n-2"), issuer.sign(KEY, kid="k1")):
        with pytest.raises(LoginFailed, match="nonce"):
            await verify_id_token(discovery, provider(issuer), token, nonce="n-1")


async def test_with_several_audiences_the_authorized_party_must_be_us(issuer, http):
    discovery = Discovery(http, ttl=300)
    ok = issuer.sign(KEY, kid="k1", aud=[CLIENT_ID, "another"], azp=CLIENT_ID)
    assert (await verify_id_token(discovery, provider(issuer), ok)).subject == "stub-user"
    for token in (
        issuer.sign(KEY, kid="k1", aud=[CLIENT_ID, "another"]),
        issuer.sign(KEY, kid="k1", aud=[CLIENT_ID, "another"], azp="another"),
        issuer.sign(KEY, kid="k1", azp="another"),
    ):
        with pytest.raises(LoginFailed, match="another application"):
            await verify_id_token(discovery, provider(issuer), token)


async def test_tokens_issued_in_the_future_or_not_valid_yet_are_refused(issuer, http):
    discovery = Discovery(http, ttl=300)
    later = int(time.time()) + 3600
    with pytest.raises(LoginFailed, match="issued in the future"):
        await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1", iat=later, exp=later + 600))
    with pytest.raises(LoginFailed, match="not valid yet"):
        await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1", nbf=later))
    # Within a minute of clock difference is tolerated.
    await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1", iat=int(time.time()) + 30))


async def test_a_token_without_a_required_claim_is_refused(issuer, http):
    discovery = Discovery(http, ttl=300)
    for missing in ("sub", "exp", "iat"):
        with pytest.raises(LoginFailed, match=f"no '{missing}' claim"):
            await verify_id_token(discovery, provider(issuer), issuer.sign(KEY, kid="k1", **{missing: None}))


async def test_apple_style_string_email_verified_counts_as_verified(issuer, http):
    token = issuer.sign(KEY, kid="k1", email="Apple.Fan@privaterelay.appleid.com", email_verified="true")
    identity = await verify_id_token(Discovery(http, ttl=300), provider(issuer), token)
    assert identity.email == "apple.fan@privaterelay.appleid.com" and identity.email_verified is True


async def test_an_issuer_alias_is_accepted_only_when_configured(issuer, http):
    discovery = Discovery(http, ttl=300)
    token = issuer.sign(KEY, kid="k1", iss="accounts.google.com")
    with pytest.raises(LoginFailed, match="not issued by"):
        await verify_id_token(discovery, provider(issuer), token)
    aliased = provider(issuer, issuer_aliases=("accounts.google.com",))
    assert (await verify_id_token(discovery, aliased, token)).subject == "stub-user"


async def test_a_discovery_document_naming_another_issuer_is_unavailable(issuer, http):
    issuer.discovery_overrides = {"issuer": "https://impostor.example"}
    with pytest.raises(ProviderUnavailable) as refused:
        await verify_id_token(Discovery(http, ttl=300), provider(issuer), issuer.sign(KEY, kid="k1"))
    assert "names another issuer" in refused.value.reason


@pytest.mark.parametrize(
    "status, body",
    [(404, b"<html>Not Found</html>"), (200, b"<html>a login page</html>"), (503, b"down for maintenance")],
)
async def test_a_provider_without_a_discovery_document_is_unavailable(issuer, http, status, body):
    issuer.discovery_status, issuer.discovery_body = status, body
    with pytest.raises(ProviderUnavailable):
        await verify_id_token(Discovery(http, ttl=300), provider(issuer), issuer.sign(KEY, kid="k1"))


async def test_a_key_set_with_only_symmetric_keys_is_unavailable(issuer, http):
    issuer.keys = [{"kty": "oct", "k": "c2VjcmV0", "kid": "k1"}]
    with pytest.raises(ProviderUnavailable) as refused:
        await verify_id_token(Discovery(http, ttl=300), provider(issuer), issuer.sign(KEY, kid="k1"))
    assert "no public signing keys" in refused.value.reason


async def test_access_tokens_are_refused_for_a_provider_without_a_userinfo_endpoint(issuer):
    issuer.discovery_overrides = {"userinfo_endpoint": None}  # like Apple
    client = ProviderClient(timeout=2, cache_seconds=300)
    try:
        with pytest.raises(UnsupportedToken, match="takes an ID token"):
            await client.verify_token(provider(issuer), "an-access-token", ACCESS_TOKEN_TYPE)
    finally:
        await client.close()


async def test_an_access_token_the_userinfo_endpoint_accepts_gives_its_claims(issuer):
    issuer.introspection = {"active": True, "client_id": CLIENT_ID, "sub": "stub-user"}
    client = ProviderClient(timeout=2, cache_seconds=300)
    try:
        ours = provider(issuer, client_secret="our-secret")
        identity = await client.verify_token(ours, "good-access-token", ACCESS_TOKEN_TYPE)
        assert (identity.subject, identity.email, identity.email_verified) == ("stub-user", "stub@example.com", True)
        with pytest.raises(LoginFailed):
            await client.verify_token(ours, "bad-access-token", ACCESS_TOKEN_TYPE)
    finally:
        await client.close()


async def test_a_provider_that_just_failed_is_not_asked_again_for_a_while(issuer, http):
    issuer.discovery_status, issuer.discovery_body = 503, b"down"
    discovery = Discovery(http, ttl=300, retry_after=0.3)
    for _ in range(3):
        with pytest.raises(ProviderUnavailable):
            await discovery.metadata(issuer.issuer)
    assert issuer.fetches["discovery"] == 1
    issuer.discovery_status, issuer.discovery_body = 200, None
    await asyncio.sleep(0.35)
    assert (await discovery.metadata(issuer.issuer)).jwks_uri == f"{issuer.issuer}/jwks"
    assert issuer.fetches["discovery"] == 2
