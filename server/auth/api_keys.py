"""API key secrets: made from `secrets`, stored as SHA-256 hashes, compared in constant time.

A secret looks like `tlk_` followed by 43 URL-safe characters (256 bits). Its first 12
characters (`tlk_` and 8 more) are the key's prefix: shown in lists to tell keys apart, and the
index a presented secret is looked up by before its hash is compared.
"""

import hashlib
import hmac
import secrets

SECRET_PREFIX = "tlk_"
PREFIX_LENGTH = len(SECRET_PREFIX) + 8


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def looks_like_key(value: str) -> bool:
    return value.startswith(SECRET_PREFIX) and len(value) > PREFIX_LENGTH


def prefix_of(secret: str) -> str:
    return secret[:PREFIX_LENGTH]


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_secret(secret), stored_hash)
