"""What an attacker may try with the server's JWTs, and that each one is refused.

Access tokens and limit tickets (server.auth.tokens) and stream tokens (server.media.delivery.signing) are
checked through their public functions only, and a bearer through the API, so the tests hold
whatever the tokens carry inside.
"""

import base64
import hashlib
import hmac
import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from server.auth.tokens import issue_access_token, issue_limit_ticket, verify_access_token, verify_limit_ticket
from server.media.delivery.edge_tokens import StreamDenied, check_edge_token, issue_edge_token
from server.tests.accounts import sign_up

SECRET = "edge-case-secret-long-enough-for-hs512-keys-0123456789abcdefghij"
RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
RSA_PUBLIC_PEM = RSA_KEY.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
)


def b64(data: dict | bytes) -> str:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def valid_claims(**changes) -> dict:
    now = int(time.time())
    claims = {"sub": "u1", "sid": "s1", "role": "viewer", "iat": now, "exp": now + 600}
    claims.update(changes)
    return {key: value for key, value in claims.items() if value is not None}


def hs256(claims: dict, key: str | bytes = SECRET, **headers) -> str:
    return jwt.encode(claims, key, algorithm="HS256", headers=headers or None)


def unsigned(claims: dict, alg: str = "none", signature: str = "") -> str:
    return f"{b64({'alg': alg, 'typ': 'JWT'})}.{b64(claims)}.{signature}"


def test_a_genuine_access_token_verifies():
    assert verify_access_token(hs256(valid_claims()), secret=SECRET) is not None


# --- access tokens ------------------------------------------------------------------------------


@pytest.mark.parametrize("alg", ["none", "None", "NONE", "nOnE"])
@pytest.mark.parametrize("signature", ["", "AAAA"])
def test_an_unsigned_access_token_is_refused(alg, signature):
    assert verify_access_token(unsigned(valid_claims(), alg, signature), secret=SECRET) is None


def test_an_access_token_signed_with_rsa_is_refused():
    token = jwt.encode(valid_claims(), RSA_KEY, algorithm="RS256")
    assert verify_access_token(token, secret=SECRET) is None


def test_an_hmac_token_keyed_with_a_public_key_is_refused():
    """HS/RS confusion: a verifier that took a public key as an HMAC secret would accept this."""
    signing_input = f"{b64({'alg': 'HS256', 'typ': 'JWT'})}.{b64(valid_claims())}"
    signature = base64.urlsafe_b64encode(hmac.new(RSA_PUBLIC_PEM, signing_input.encode(), hashlib.sha256).digest())
    token = f"{signing_input}.{signature.rstrip(b'=').decode()}"
    assert verify_access_token(token, secret=SECRET) is None
    # Not even by a verifier handed the public key: PyJWT refuses a PEM key as an HMAC secret.
    assert verify_access_token(token, secret=RSA_PUBLIC_PEM.decode()) is None


@pytest.mark.parametrize("algorithm", ["HS384", "HS512"])
def test_only_hs256_is_accepted_even_with_the_right_secret(algorithm):
    assert verify_access_token(jwt.encode(valid_claims(), SECRET, algorithm=algorithm), secret=SECRET) is None


@pytest.mark.parametrize("audience", ["touchline-media", "another-service", ["touchline", "x"]])
def test_an_access_token_for_another_audience_is_refused(audience):
    assert verify_access_token(hs256(valid_claims(aud=audience)), secret=SECRET) is None


def test_an_access_token_from_another_issuer_is_refused():
    assert verify_access_token(hs256(valid_claims(iss="https://accounts.google.com")), secret=SECRET) is None


def test_an_expired_access_token_is_refused():
    now = int(time.time())
    assert verify_access_token(hs256(valid_claims(iat=now - 700, exp=now - 60)), secret=SECRET) is None


def test_an_access_token_issued_in_the_future_is_not_yet_valid():
    now = int(time.time())
    assert verify_access_token(hs256(valid_claims(iat=now + 120, exp=now + 720)), secret=SECRET) is None


def test_an_access_token_whose_nbf_is_in_the_future_is_not_yet_valid():
    now = int(time.time())
    assert verify_access_token(hs256(valid_claims(nbf=now + 3600)), secret=SECRET) is None


def test_an_access_token_whose_nbf_has_passed_is_valid():
    now = int(time.time())
    assert verify_access_token(hs256(valid_claims(nbf=now - 10)), secret=SECRET) is not None


@pytest.mark.parametrize("missing", ["sub", "iat", "exp"])
def test_an_access_token_without_a_required_claim_is_refused(missing):
    assert verify_access_token(hs256(valid_claims(**{missing: None})), secret=SECRET) is None


@pytest.mark.parametrize(
    "claims", [{"sub": 42}, {"role": "root"}, {"exp": "tomorrow"}, {"iat": None, "exp": None}, {"typ": "limit"}]
)
def test_an_access_token_with_malformed_claims_is_refused(claims):
    assert verify_access_token(hs256(valid_claims(**claims)), secret=SECRET) is None


async def test_a_genuine_looking_token_without_a_session_claim_is_refused_by_the_api(client, settings):
    account = await sign_up(client)
    without_session = issue_access_token(account["profile"]["userId"], secret=settings.secret_key)
    assert verify_access_token(without_session, secret=settings.secret_key) is not None  # signed by us
    answer = await client.get("/api/user/get_profile", headers={"Authorization": f"Bearer {without_session}"})
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


async def test_a_token_of_a_session_that_never_existed_is_refused_by_the_api(client, settings):
    account = await sign_up(client)
    forged = issue_access_token(account["profile"]["userId"], secret=settings.secret_key, session_id="0" * 24)
    answer = await client.get("/api/user/get_profile", headers={"Authorization": f"Bearer {forged}"})
    assert answer.status_code == 401


# --- limit tickets --------------------------------------------------------------------------------


def test_a_limit_ticket_is_not_an_access_token_nor_the_reverse():
    ticket = issue_limit_ticket("u1", "t1", secret=SECRET, lifetime=300)
    access = issue_access_token("u1", secret=SECRET, session_id="s1")
    assert verify_limit_ticket(ticket, secret=SECRET) is not None
    assert verify_access_token(ticket, secret=SECRET) is None
    assert verify_limit_ticket(access, secret=SECRET) is None


def test_a_limit_ticket_without_its_jti_is_refused():
    now = int(time.time())
    claims = {"sub": "u1", "typ": "limit", "iat": now, "exp": now + 300}
    assert verify_limit_ticket(hs256(claims), secret=SECRET) is None
    assert verify_limit_ticket(unsigned({**claims, "jti": "t1"}), secret=SECRET) is None


def test_an_expired_limit_ticket_is_refused():
    ticket = issue_limit_ticket("u1", "t1", secret=SECRET, lifetime=60, now=time.time() - 120)
    assert verify_limit_ticket(ticket, secret=SECRET) is None


# --- stream tokens ---------------------------------------------------------------------------------

VOD_PATH = "vod/football/index.m3u8"


def denied(token: str) -> str:
    with pytest.raises(StreamDenied) as refused:
        check_edge_token(token, VOD_PATH, secret=SECRET, now=time.time())
    return refused.value.code


def test_a_genuine_stream_token_opens_its_stream():
    token = issue_edge_token("vod/football/", secret=SECRET, expires=int(time.time()) + 600)
    assert check_edge_token(token, VOD_PATH, secret=SECRET, now=time.time()).scope == "vod/football/"


@pytest.mark.parametrize("alg", ["none", "None"])
def test_an_unsigned_jwt_is_no_stream_token(alg):
    assert denied(unsigned({"path": VOD_PATH, "exp": int(time.time()) + 600}, alg)) == "stream_access_denied"


def test_stream_tokens_and_access_tokens_never_stand_in_for_each_other():
    stream = issue_edge_token("vod/football/", secret=SECRET, expires=int(time.time()) + 600)
    access = issue_access_token("u1", secret=SECRET, session_id="s1")
    assert verify_access_token(stream, secret=SECRET) is None
    assert denied(access) == "stream_access_denied"


def test_a_stream_token_hashed_with_the_raw_secret_instead_of_the_edge_key_is_denied():
    expires = int(time.time()) + 600
    digest = hashlib.md5(f"{expires}vod/football/ {SECRET}".encode()).digest()  # nginx's secure_link
    assert denied(f"{expires}.{base64.urlsafe_b64encode(digest).decode().rstrip('=')}") == "stream_access_denied"


def test_an_expired_stream_token_says_so():
    token = issue_edge_token("vod/football/", secret=SECRET, expires=int(time.time()) - 60)
    assert denied(token) == "stream_token_expired"


@pytest.mark.parametrize("token", ["", ".", "1.", ".abc", "-1.AAAAAAAAAAAAAAAAAAAAAA", "1e9.AAAAAAAAAAAAAAAAAAAAAA"])
def test_a_stream_token_of_no_shape_is_denied(token):
    assert denied(token) == "stream_access_denied"


def test_a_stream_token_of_another_deployment_is_denied():
    token = issue_edge_token("vod/football/", secret="another-" + SECRET, expires=int(time.time()) + 600)
    assert denied(token) == "stream_access_denied"
