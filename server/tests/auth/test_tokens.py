"""Access tokens: what verifies and what does not."""

import time

import jwt

from server.auth.tokens import issue_access_token, verify_access_token

SECRET = "test-secret-please-ignore-0123456789"


def test_issued_token_verifies_with_its_claims():
    token = issue_access_token("u1", secret=SECRET, role="support", session_id="s1", lifetime=60)
    claims = verify_access_token(token, secret=SECRET)
    assert claims is not None
    assert (claims.user_id, claims.session_id, claims.role) == ("u1", "s1", "support")


def test_a_token_of_the_former_staff_role_reads_as_admin():
    """Tokens issued before the staff role was split keep working until they expire."""
    now = int(time.time())
    token = jwt.encode({"sub": "u1", "sid": "s1", "role": "staff", "iat": now, "exp": now + 60}, SECRET, "HS256")
    claims = verify_access_token(token, secret=SECRET)
    assert claims is not None and claims.role == "admin"


def test_expired_token_is_refused():
    token = issue_access_token("u1", secret=SECRET, lifetime=60, now=1_000_000)
    assert verify_access_token(token, secret=SECRET) is None


def test_token_signed_with_another_secret_is_refused():
    token = issue_access_token("u1", secret="another-secret-of-enough-length-000")
    assert verify_access_token(token, secret=SECRET) is None


def test_unsigned_token_is_refused():
    # PyJWT's "none" algorithm takes "" as no key (its annotation leaves None out); same token.
    token = jwt.encode({"sub": "u1", "iat": 1, "exp": 9_999_999_999}, key="", algorithm="none")
    assert verify_access_token(token, secret=SECRET) is None


def test_garbage_and_unknown_roles_are_refused():
    assert verify_access_token("not.a.token", secret=SECRET) is None
    forged_role = jwt.encode({"sub": "u1", "iat": 1, "exp": 9_999_999_999, "role": "root"}, SECRET, algorithm="HS256")
    assert verify_access_token(forged_role, secret=SECRET) is None


def test_a_token_verified_before_is_refused_once_it_expires(monkeypatch):
    from server import clock

    now = time.time()
    monkeypatch.setattr(clock, "timestamp", lambda: now)
    token = issue_access_token("u1", secret=SECRET, lifetime=60, now=int(now))
    assert verify_access_token(token, secret=SECRET) is not None
    assert verify_access_token(token, secret=SECRET) is not None  # from the verified tokens
    monkeypatch.setattr(clock, "timestamp", lambda: now + 60 + 6)  # past expiry and leeway
    assert verify_access_token(token, secret=SECRET) is None


def test_a_token_verified_with_one_secret_is_refused_with_another():
    token = issue_access_token("u1", secret=SECRET, lifetime=60)
    assert verify_access_token(token, secret=SECRET) is not None
    assert verify_access_token(token, secret="another-secret-0123456789-abcdefgh") is None


def test_a_refused_token_is_not_remembered():
    from server.auth import tokens

    forged = jwt.encode({"sub": "u1", "iat": int(time.time()), "exp": int(time.time()) + 60}, "not-ours" * 5, "HS256")
    assert verify_access_token(forged, secret=SECRET) is None
    assert not any(token == forged for token, _ in tokens._verified)
