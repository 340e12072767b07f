"""ID tokens and access tokens from a real OpenID Connect provider (oidc-provider-mock on
loopback), checked the way Google's, Apple's and ifa's are: discovery, keys, claims."""

import base64
import hashlib
import hmac
import json
import socket
import uuid
from datetime import timedelta

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from server import clock
from server.auth.providers import LoginFailed, OidcProvider, ProviderClient, ProviderUnavailable, UnsupportedToken
from server.auth.providers.client import ACCESS_TOKEN_TYPE
from server.tests.auth.stub_issuer import rsa_key
from server.tests.oidc_provider import OidcProvider as RealProvider

ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"


@pytest.fixture(scope="module")
def oidc_provider():
    provider = RealProvider().start()
    yield provider
    provider.stop()


@pytest.fixture(scope="module")
def app(oidc_provider):
    return oidc_provider.register_client("http://touchline.test/google/")


@pytest.fixture(scope="module")
def other_app(oidc_provider):
    return oidc_provider.register_client("http://elsewhere.test/callback/")


@pytest.fixture
async def providers():
    client = ProviderClient(timeout=5, cache_seconds=300)
    yield client
    await client.close()
    clock.reset()


def google(issuer: str, client_id: str) -> OidcProvider:
    return OidcProvider("google", issuer, client_id, scope="openid email profile")


def ifa(issuer: str, registered) -> OidcProvider:
    """A provider we hold a client secret for: it can introspect access tokens."""
    return OidcProvider(
        "ifa", issuer, registered.client_id, scope="openid profile", client_secret=registered.client_secret
    )


def new_sub() -> str:
    return f"fan-{uuid.uuid4().hex[:10]}"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


async def test_an_id_token_from_the_provider_gives_its_subject_email_and_names(oidc_provider, app, providers):
    sub = new_sub()
    oidc_provider.set_user(
        sub, email="Fan@Example.com", email_verified=True, name="Jane Fan", given_name="Jane", family_name="Fan"
    )
    token = await oidc_provider.id_token(app, sub)
    identity = await providers.verify_token(google(oidc_provider.issuer, app.client_id), token, ID_TOKEN)
    assert identity.provider == "google" and identity.subject == sub
    assert identity.email == "fan@example.com" and identity.email_verified is True
    assert (identity.name, identity.given_name, identity.family_name) == ("Jane Fan", "Jane", "Fan")


async def test_an_email_the_provider_does_not_call_verified_is_kept_unverified(oidc_provider, app, providers):
    sub = new_sub()
    oidc_provider.set_user(sub, email="maybe@example.com")
    token = await oidc_provider.id_token(app, sub)
    identity = await providers.verify_token(google(oidc_provider.issuer, app.client_id), token, ID_TOKEN)
    assert identity.email == "maybe@example.com" and identity.email_verified is False


async def test_an_id_token_issued_to_another_application_is_refused(oidc_provider, app, other_app, providers):
    token = await oidc_provider.id_token(other_app, new_sub())
    with pytest.raises(LoginFailed, match="issued to another application"):
        await providers.verify_token(google(oidc_provider.issuer, app.client_id), token, ID_TOKEN)


async def test_an_expired_id_token_is_refused(oidc_provider, app, providers):
    token = await oidc_provider.id_token(app, new_sub())
    clock.advance(timedelta(hours=1, minutes=2))  # the provider's tokens live one hour
    with pytest.raises(LoginFailed, match="expired"):
        await providers.verify_token(google(oidc_provider.issuer, app.client_id), token, ID_TOKEN)


async def test_an_id_token_whose_claims_were_changed_fails_its_signature(oidc_provider, app, providers):
    token = await oidc_provider.id_token(app, new_sub())
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    forged = ".".join([header, b64({**claims, "sub": "someone-else"}), signature])
    with pytest.raises(LoginFailed, match="signature"):
        await providers.verify_token(google(oidc_provider.issuer, app.client_id), forged, ID_TOKEN)


async def test_an_id_token_signed_with_a_key_the_provider_does_not_publish_is_refused(oidc_provider, app, providers):
    genuine = jwt.decode(await oidc_provider.id_token(app, new_sub()), options={"verify_signature": False})
    forged = jwt.encode({**genuine, "sub": "intruder"}, rsa_key(), algorithm="RS256")
    with pytest.raises(LoginFailed, match="signature"):
        await providers.verify_token(google(oidc_provider.issuer, app.client_id), forged, ID_TOKEN)


async def test_unsigned_and_hmac_signed_id_tokens_are_refused(oidc_provider, app, providers):
    genuine = jwt.decode(await oidc_provider.id_token(app, new_sub()), options={"verify_signature": False})
    unsigned = f"{b64({'alg': 'none', 'typ': 'JWT'})}.{b64(genuine)}."
    # The classic confusion: an HMAC "signed" with the provider's public key as the secret.
    async with httpx.AsyncClient(timeout=5) as http:
        published = (await http.get(f"{oidc_provider.issuer}/jwks")).json()["keys"][0]
    public_pem = jwt.PyJWK(published).key.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    signing_input = f"{b64({'alg': 'HS256', 'typ': 'JWT'})}.{b64(genuine)}"
    mac = hmac.new(public_pem, signing_input.encode(), hashlib.sha256).digest()
    confused = f"{signing_input}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"
    for token in (unsigned, confused):
        with pytest.raises(LoginFailed, match="does not use"):
            await providers.verify_token(google(oidc_provider.issuer, app.client_id), token, ID_TOKEN)


async def test_an_id_token_from_another_issuer_is_refused(oidc_provider, app, providers):
    # The same provider reached as "localhost" names itself http://localhost:PORT.
    token = await oidc_provider.id_token(app, new_sub())
    elsewhere = oidc_provider.issuer.replace("127.0.0.1", "localhost")
    with pytest.raises(LoginFailed, match="not issued by google"):
        await providers.verify_token(google(elsewhere, app.client_id), token, ID_TOKEN)


async def test_a_string_that_is_not_a_jwt_is_refused(oidc_provider, app, providers):
    with pytest.raises(LoginFailed, match="not a JWT"):
        await providers.verify_token(google(oidc_provider.issuer, app.client_id), "not-a-token", ID_TOKEN)


async def test_an_access_token_issued_to_us_is_introspected_and_checked_at_the_userinfo_endpoint(
    oidc_provider, app, providers
):
    sub = new_sub()
    oidc_provider.set_user(sub, email="reader@example.com", email_verified=True, name="Reader")
    access_token = await oidc_provider.access_token(app, sub)
    identity = await providers.verify_token(ifa(oidc_provider.issuer, app), access_token, ACCESS_TOKEN_TYPE)
    assert (identity.subject, identity.email, identity.email_verified, identity.name) == (
        sub,
        "reader@example.com",
        True,
        "Reader",
    )


async def test_an_access_token_issued_to_another_client_of_the_provider_is_refused(
    oidc_provider, app, other_app, providers
):
    # Genuine, and the userinfo endpoint would name its user: but it was obtained by another app.
    access_token = await oidc_provider.access_token(other_app, new_sub())
    with pytest.raises(LoginFailed, match="issued to another application"):
        await providers.verify_token(ifa(oidc_provider.issuer, app), access_token, ACCESS_TOKEN_TYPE)


async def test_an_access_token_the_provider_revoked_is_refused_as_inactive(oidc_provider, app, providers):
    sub = new_sub()
    access_token = await oidc_provider.access_token(app, sub)
    oidc_provider.revoke_tokens(sub)
    with pytest.raises(LoginFailed, match="not active"):
        await providers.verify_token(ifa(oidc_provider.issuer, app), access_token, ACCESS_TOKEN_TYPE)


async def test_an_access_token_the_provider_does_not_know_is_refused(oidc_provider, app, providers):
    with pytest.raises(LoginFailed, match="not active"):
        await providers.verify_token(ifa(oidc_provider.issuer, app), "made-up", ACCESS_TOKEN_TYPE)


async def test_without_a_client_secret_access_tokens_are_refused_and_id_tokens_taken(oidc_provider, app, providers):
    # Google's and Apple's SDK sign-ins hold no secret to ask the introspection endpoint with.
    sub = new_sub()
    with pytest.raises(UnsupportedToken, match="takes an ID token"):
        await providers.verify_token(
            google(oidc_provider.issuer, app.client_id), await oidc_provider.access_token(app, sub), ACCESS_TOKEN_TYPE
        )
    identity = await providers.verify_token(
        google(oidc_provider.issuer, app.client_id), await oidc_provider.id_token(app, sub), ID_TOKEN
    )
    assert identity.subject == sub


async def test_a_provider_that_does_not_answer_is_unavailable(providers):
    issuer = f"http://127.0.0.1:{closed_port()}"
    token = jwt.encode({"iss": issuer, "sub": "x"}, rsa_key(), algorithm="RS256")
    with pytest.raises(ProviderUnavailable) as refused:
        await providers.verify_token(google(issuer, "any"), token, ID_TOKEN)
    assert refused.value.status == 502 and refused.value.code == "provider_unavailable"
