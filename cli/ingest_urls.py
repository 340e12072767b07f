"""The publish URLs `touchline ingest key create` prints, as an encoder uses them: which protocol a
URL speaks, SRT's caller mode, and the URL's secrets masked for the terminal (a stream key is shown
once, when it is made, and never again).

    rtmp://HOST:PORT/live/<key>
    srt://HOST:PORT?streamid=<key>&passphrase=<passphrase>
"""

from urllib.parse import parse_qsl, urlsplit

PROTOCOLS = {"rtmp": "rtmp", "rtmps": "rtmp", "srt": "srt"}  # scheme -> protocol
SRT_SECRETS = ("streamid", "passphrase")
SHOWN_CHARACTERS = 4  # as many as lists show of a key (its hint)


def protocol_of(url: str) -> str:
    """ "rtmp" or "srt"; ValueError for anything else (the message never repeats the URL: it may
    hold a key)."""
    parts = urlsplit(url.strip())
    protocol = PROTOCOLS.get(parts.scheme.lower())
    if protocol is None or not parts.hostname:
        raise ValueError("not an RTMP or SRT publish URL (rtmp://HOST:PORT/live/KEY or srt://HOST:PORT?streamid=KEY…)")
    return protocol


# How long a caller keeps trying to reach the listener (ms; ffmpeg's default, 3 s, is shorter than
# the ingest takes to open a new key's listener: it looks for new keys every 3 s).
CONNECT_TIMEOUT_MS = 10_000


def srt_caller(url: str) -> str:
    """The SRT URL in caller mode, as encoders connect to an ingest listening for them, waiting
    CONNECT_TIMEOUT_MS for it (a mode or timeout already given stays)."""
    parts = urlsplit(url)
    given = {name for name, _ in parse_qsl(parts.query, keep_blank_values=True)}
    added = [
        f"{name}={value}"
        for name, value in (("mode", "caller"), ("connect_timeout", CONNECT_TIMEOUT_MS))
        if name not in given
    ]
    if not added:
        return url
    query = "&".join([parts.query, *added] if parts.query else added)
    return parts._replace(query=query).geturl()


def secrets_of(url: str) -> list[str]:
    """What in `url` lets an encoder in: the RTMP stream name (the key), SRT's streamid and
    passphrase, and a password in the URL's user part."""
    parts = urlsplit(url)
    found = [parts.password] if parts.password else []
    if PROTOCOLS.get(parts.scheme.lower()) == "rtmp":
        found += [parts.path.rstrip("/").rpartition("/")[2]]
    found += [value for name, value in parse_qsl(parts.query) if name in SRT_SECRETS]
    return [secret for secret in found if secret]


def masked(text: str, url: str) -> str:
    """`text` with every secret of `url` cut to its last characters: `…9QzA`."""
    for secret in sorted(secrets_of(url), key=len, reverse=True):
        shown = secret[-SHOWN_CHARACTERS:] if len(secret) > 2 * SHOWN_CHARACTERS else ""
        text = text.replace(secret, "…" + shown)
    return text
