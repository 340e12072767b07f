"""The CDN's flavour of stream token (TOUCHLINE_STREAM_TOKEN_FLAVOUR=akamai): an EdgeAuth 2.0
token a CDN checks with the shared key, which the server issues and checks by the same rule
(server.media.delivery.edge_tokens.EdgeSigner)."""

import hashlib
import hmac
from urllib.parse import unquote

import httpx
import pytest
from pydantic import SecretStr, ValidationError

from server import clock
from server.media.delivery.edge_tokens import DENIED, EXPIRED, EdgeSigner, StreamDenied, signer_of
from server.media.delivery.signing import sign_stream
from server.settings import Settings

from ..serving import BASE, media_app, played

KEY = "0123456789abcdef" * 4
NOW = 1_800_000_000
AKAMAI = EdgeSigner("akamai", KEY)


def refused(token: str | None, path: str, code: str = DENIED, now: float = NOW) -> bool:
    with pytest.raises(StreamDenied) as refusal:
        AKAMAI.check(token, path, now=now)
    return refusal.value.code == code


def test_the_token_is_edgeauths_hmac_sha256_of_its_expiry_and_acl_with_the_shared_key():
    token = AKAMAI.issue("vod/a1/", NOW + 60)
    signed = f"exp={NOW + 60}~acl=/media/vod/a1/*"
    expected = hmac.new(bytes.fromhex(KEY), signed.encode(), hashlib.sha256).hexdigest()
    assert token == f"{signed}~hmac={expected}"


def test_a_token_opens_the_paths_below_its_acl_until_it_expires():
    token = AKAMAI.issue("vod/a1/", NOW + 60)
    for path in ("vod/a1/index.m3u8", "vod/a1/360p/index3.ts", "vod/a1/thumbnails.vtt"):
        assert AKAMAI.check(token, path, now=NOW + 60).scope == "vod/a1/"
    # A CDN's ACL is a prefix: the asset's games and clips are made of the same segments.
    assert AKAMAI.check(token, "vod/a1/clip-1000-9000/index.m3u8", now=NOW).scope == "vod/a1/"
    assert refused(token, "vod/a1/index.m3u8", EXPIRED, now=NOW + 61)


@pytest.mark.parametrize(
    ("issued_for", "neighbour"),
    [
        ("vod/a1/clip-1000-9000/", "vod/a1/index.m3u8"),  # a highlight never opens its game
        ("vod/a1/clip-1000-9000/", "vod/a1/clip-1000-9001/index.m3u8"),
        ("vod/a1/game-5400/", "vod/a1/game-5401/index.m3u8"),
        ("vod/a1/", "vod/a12/index.m3u8"),
        ("vod/a1/", "live/a1/from-1800000000/index.m3u8"),
        ("live/a1/", "vod/a1/index.m3u8"),
    ],
)
def test_a_token_opens_none_of_its_neighbours(issued_for, neighbour):
    assert refused(AKAMAI.issue(issued_for, NOW + 60), neighbour)


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t.replace("exp=1800000060", "exp=1900000060"),
        lambda t: t.replace("acl=/media/vod/a1/*", "acl=/media/vod/a2/*"),
        lambda t: t[:-1] + ("0" if t[-1] != "0" else "1"),
        lambda t: t.replace("~hmac=", "~hmac=~"),
        lambda t: t.split("~hmac=")[0],
    ],
)
def test_an_altered_token_is_refused(mangle):
    assert refused(mangle(AKAMAI.issue("vod/a1/", NOW + 60)), "vod/a1/index.m3u8")


def test_an_acl_wider_than_one_scope_is_refused_even_when_signed_with_the_key():
    signed = f"exp={NOW + 60}~acl=/media/vod/*"
    token = f"{signed}~hmac={hmac.new(bytes.fromhex(KEY), signed.encode(), hashlib.sha256).hexdigest()}"
    assert refused(token, "vod/a1/index.m3u8")


def test_the_flavours_do_not_open_each_other():
    nginx = EdgeSigner("secure_link", KEY)
    assert refused(nginx.issue("vod/a1/", NOW + 60), "vod/a1/index.m3u8")
    with pytest.raises(StreamDenied):
        nginx.check(AKAMAI.issue("vod/a1/", NOW + 60), "vod/a1/index.m3u8", now=NOW)


def test_the_key_is_the_configured_one_or_else_derived_from_the_secret_key():
    configured = Settings(stream_token_flavour="akamai", stream_token_key=SecretStr(KEY.upper()))
    assert signer_of(configured) == AKAMAI
    derived = signer_of(Settings(stream_token_flavour="akamai"))
    assert derived.key != KEY and len(bytes.fromhex(derived.key)) == 32


@pytest.mark.parametrize("key", ["short", "0f" * 31, "zz" * 32, "0f" * 129])
def test_a_key_that_is_not_32_to_128_bytes_of_hex_is_refused_at_start(key):
    with pytest.raises(ValidationError, match="64 to 256 hexadecimal digits"):
        Settings(stream_token_key=SecretStr(key))


async def test_make_run_serves_a_stream_on_a_cdn_flavoured_token(settings, database, media):
    """The server checks the flavour it issues: the address an event answer gives plays."""
    cdn = settings.model_copy(update={"stream_token_flavour": "akamai"})
    address = sign_stream("/media/vod/football/index.m3u8", settings=cdn)
    assert address is not None and "token=exp%3D" in address
    token = unquote(address.split("token=", 1)[1])
    assert signer_of(cdn).check(token, "vod/football/index.m3u8", now=clock.timestamp()).scope == "vod/football/"
    # The server in front of the test reads the setting it was started with: the default flavour.
    assert (await media.get(address)).status_code == 403
    app = httpx.ASGITransport(app=media_app(cdn, database))
    async with httpx.AsyncClient(transport=app, base_url=BASE) as viewer:
        addresses = await played(viewer, address)
    assert all(a.startswith("/media/vod/football/") for a in addresses)
