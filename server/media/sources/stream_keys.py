"""Stream keys as values: made, hashed, and the URLs an operator pastes into an encoder.

A key is 32 random URL-safe characters after `tlk_` (192 bits): it names nothing, so only its
SHA-256 is kept (a slow hash buys nothing against a key this long, and lookups stay one index
hit). The key is the RTMP stream name (`rtmp://HOST:PORT/live/<key>`) and the SRT `streamid`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

PREFIX = "tlk_"
SHAPE = re.compile(r"^tlk_[A-Za-z0-9_-]{32}$")
HINT_CHARACTERS = 4
_HOOK_LABEL = b"touchline-ingest-hook-v1"


def new_key() -> str:
    return PREFIX + secrets.token_urlsafe(24)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def hint(key: str) -> str:
    """What lists show of a key: its last characters."""
    return key[-HINT_CHARACTERS:]


def looks_like_a_key(text: str) -> bool:
    return SHAPE.match(text) is not None


def hook_secret(secret_key: str) -> str:
    """The secret nginx's on_publish calls carry (`?hook=`): derived from the server's secret, so
    every process of a cluster knows it and nothing else does."""
    return hmac.new(secret_key.encode(), _HOOK_LABEL, hashlib.sha256).hexdigest()[:32]


def port_range(text: str) -> range:
    """`9000-9099` -> range(9000, 9100). Raises ValueError for an empty or reversed range."""
    low, _, high = text.partition("-")
    first, last = int(low), int(high)
    if not 1 <= first <= last <= 65535:
        raise ValueError(f"{text!r} is not a port range")
    return range(first, last + 1)


def rtmp_url(host: str, port: int, key: str) -> str:
    return f"rtmp://{host}:{port}/live/{key}"


def srt_url(host: str, port: int, key: str) -> str:
    return f"srt://{host}:{port}?streamid={key}"
