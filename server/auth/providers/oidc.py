"""OpenID Connect ID-token verification (OpenID Connect Core §3.1.3.7).

The signature is checked with the provider's published keys (asymmetric algorithms the
provider announces, never `none` or HS*), then the issuer, the audience (our client id, and
`azp` when there are several audiences), the times against the server clock, and the nonce
when the sign-in started with one.
"""

import hmac
from typing import Any

import jwt

from ... import clock
from .discovery import ALGORITHM_KEYS, Discovery
from .errors import LoginFailed
from .identity import Identity, email_claim, text_claim, verified_claim
from .registry import OidcProvider

LEEWAY = 60  # seconds of clock difference tolerated between us and the provider
MAX_SUBJECT = 255  # the column FederatedIdentity.subject


async def verify_id_token(
    discovery: Discovery, provider: OidcProvider, token: str, *, nonce: str | None = None
) -> Identity:
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise LoginFailed("the ID token is not a JWT") from None
    algorithm = header.get("alg")
    kid = header.get("kid")
    metadata = await discovery.metadata(provider.issuer)
    if algorithm not in ALGORITHM_KEYS or algorithm not in metadata.signing_algorithms:
        raise LoginFailed(f"the ID token is signed with {algorithm!r}, which {provider.name} does not use")
    if kid is not None and not isinstance(kid, str):
        raise LoginFailed("the ID token's key id is not a string")
    keys = await discovery.signing_keys(metadata.jwks_uri, algorithm, kid)
    claims = _decode(token, keys, algorithm, provider)
    _check_times(claims)
    _check_authorized_party(claims, provider)
    if nonce is not None and not hmac.compare_digest(str(claims.get("nonce", "")).encode(), nonce.encode()):
        raise LoginFailed("the ID token's nonce is not the one this sign-in started with")
    return identity_from_claims(provider.name, claims)


def _decode(token: str, keys: list[jwt.PyJWK], algorithm: str, provider: OidcProvider) -> dict[str, Any]:
    if not keys:
        raise LoginFailed(f"the ID token is signed with a key {provider.name} does not publish")
    for key in keys:
        try:
            return jwt.decode(
                token,
                key=key,
                algorithms=[algorithm],
                audience=provider.client_id,
                issuer=provider.issuers,
                # Times are checked against the server clock below.
                options={
                    "require": ["iss", "sub", "aud", "exp", "iat"],
                    "verify_exp": False,
                    "verify_iat": False,
                    "verify_nbf": False,
                },
            )
        except jwt.InvalidSignatureError:
            continue  # another of the candidate keys may have signed it
        except jwt.InvalidAudienceError:
            raise LoginFailed("the ID token was issued to another application") from None
        except jwt.InvalidIssuerError:
            raise LoginFailed(f"the ID token was not issued by {provider.name}") from None
        except jwt.MissingRequiredClaimError as exc:
            raise LoginFailed(f"the ID token has no {exc.claim!r} claim") from None
        except jwt.PyJWTError as exc:
            raise LoginFailed(f"the ID token is malformed ({exc})") from None
    raise LoginFailed(f"the ID token's signature does not match {provider.name}'s keys")


def _check_times(claims: dict[str, Any]) -> None:
    now = clock.timestamp()

    def number(name: str) -> float:
        value = claims.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise LoginFailed(f"the ID token's {name!r} is not a time")
        return value

    if number("exp") <= now - LEEWAY:
        raise LoginFailed("the ID token has expired")
    if number("iat") > now + LEEWAY:
        raise LoginFailed("the ID token was issued in the future")
    if "nbf" in claims and number("nbf") > now + LEEWAY:
        raise LoginFailed("the ID token is not valid yet")


def _check_authorized_party(claims: dict[str, Any], provider: OidcProvider) -> None:
    audience = claims.get("aud")
    azp = claims.get("azp")
    several = isinstance(audience, list) and len(audience) > 1
    if (several or azp is not None) and azp != provider.client_id:
        raise LoginFailed("the ID token was issued to another application")


def identity_from_claims(provider: str, claims: dict[str, Any]) -> Identity:
    """The identity in ID-token or userinfo claims (`sub` is required and bounded)."""
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject or len(subject) > MAX_SUBJECT:
        raise LoginFailed("the provider's subject identifier is missing or too long")
    email = email_claim(claims.get("email"))
    return Identity(
        provider=provider,
        subject=subject,
        email=email,
        email_verified=email is not None and verified_claim(claims.get("email_verified")),
        name=text_claim(claims.get("name")),
        given_name=text_claim(claims.get("given_name")),
        family_name=text_claim(claims.get("family_name")),
    )
