"""Stream keys as values: made, hashed, and the URLs an operator pastes into an encoder.

A key is 32 random URL-safe characters after `tlk_` (192 bits): it names nothing, so only its
SHA-256 is kept (a slow hash buys nothing against a key this long, and lookups stay one index
hit). The key is the RTMP stream name (`rtmp://HOST:PORT/live/<key>`).

SRT goes through ffmpeg's listener on the key's port (server.media.sources.srt), which cannot check
a `streamid`: the SRT URL carries the key as `streamid` for the operator's eyes only, and its
`passphrase` is the credential. The passphrase is derived from the server's secret and the key's
hash (the server keeps no key), and a caller without it fails SRT's handshake: it is refused at
connect. The listener hands the feed to nginx under a bridge name, `srt_<key row id>_<mac>`, that
only the server can make, so nginx's hook knows which key it stands for.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

PREFIX = "tlk_"
SHAPE = re.compile(r"^tlk_[A-Za-z0-9_-]{32}$")
HINT_CHARACTERS = 4
_HOOK_LABEL = b"touchline-ingest-hook-v1"
_PASSPHRASE_LABEL = b"touchline-srt-passphrase-v1"
_BRIDGE_LABEL = b"srt-bridge"
PASSPHRASE_CHARACTERS = 32  # SRT takes 10 to 79
BRIDGE_PREFIX = "srt_"
_BRIDGE_MAC_CHARACTERS = 32
_BRIDGE_SHAPE = re.compile(r"^srt_([A-Za-z0-9]{1,24})_([0-9a-f]{32})$")


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


def srt_passphrase(secret_key: str, key_hash: str) -> str:
    """The SRT passphrase of the key whose SHA-256 is `key_hash`: URL-safe, so it goes into the SRT
    URL as it is. Rotating the key changes it; changing the server's secret changes every one."""
    digest = hmac.new(secret_key.encode(), _PASSPHRASE_LABEL + key_hash.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:PASSPHRASE_CHARACTERS]


def _bridge_mac(secret_key: str, key_id: str) -> str:
    digest = hmac.new(secret_key.encode(), _BRIDGE_LABEL + key_id.encode(), hashlib.sha256).hexdigest()
    return digest[:_BRIDGE_MAC_CHARACTERS]


def bridge_name(secret_key: str, key_id: str) -> str:
    """The stream name an SRT listener publishes to nginx with, for the key row `key_id`."""
    return f"{BRIDGE_PREFIX}{key_id}_{_bridge_mac(secret_key, key_id)}"


def bridged_key_id(secret_key: str, name: str) -> str | None:
    """The key row id `name` stands for, when it is a bridge name this server made; else None."""
    shape = _BRIDGE_SHAPE.match(name)
    if shape is None:
        return None
    key_id, mac = shape.groups()
    return key_id if hmac.compare_digest(mac, _bridge_mac(secret_key, key_id)) else None


def port_range(text: str) -> range:
    """`9000-9099` -> range(9000, 9100). Raises ValueError for an empty or reversed range."""
    low, _, high = text.partition("-")
    first, last = int(low), int(high)
    if not 1 <= first <= last <= 65535:
        raise ValueError(f"{text!r} is not a port range")
    return range(first, last + 1)


def rtmp_url(host: str, port: int, key: str) -> str:
    return f"rtmp://{host}:{port}/live/{key}"


def srt_url(host: str, port: int, key: str, passphrase: str) -> str:
    """What an operator pastes into an SRT encoder (in caller mode, every encoder's default). The
    `streamid` is the key, for the operator to recognise: ffmpeg's listener cannot check one. The
    `passphrase` is the credential: a caller without it fails SRT's handshake."""
    return f"srt://{host}:{port}?streamid={key}&passphrase={passphrase}"
