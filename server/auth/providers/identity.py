"""What a provider vouches for about the person signing in."""

from dataclasses import dataclass

MAX_EMAIL = 254


@dataclass(frozen=True)
class Identity:
    provider: str
    subject: str
    email: str | None = None
    # Only a provider that says so (OpenID Connect's `email_verified`) makes the address one
    # an existing account may be found by.
    email_verified: bool = False
    name: str | None = None
    given_name: str | None = None
    family_name: str | None = None


def text_claim(value: object, limit: int = 200) -> str | None:
    """A claim that should be a short string; anything else counts as absent."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    return value[:limit] if value else None


def email_claim(value: object) -> str | None:
    email = text_claim(value, limit=MAX_EMAIL + 1)
    if email is None or len(email) > MAX_EMAIL or "@" not in email[1:-1] or any(c.isspace() for c in email):
        return None
    return email.lower()


def verified_claim(value: object) -> bool:
    # Apple sends "true"/"false" strings; the standard says boolean.
    return value is True or (isinstance(value, str) and value.lower() == "true")
