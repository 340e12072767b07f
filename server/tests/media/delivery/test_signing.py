"""Signed stream URLs (server.media.delivery.signing): what a token says, who made it, until when it holds."""

import time
import uuid
from datetime import timedelta

import jwt
import pytest

from server import clock
from server.auth.tokens import issue_access_token, verify_access_token
from server.media.delivery import signing
from server.media.delivery.reach import reach_of
from server.media.delivery.signing import StreamDenied, sign_stream, stream_of, verify
from server.media.delivery.urls import live_url, vod_url
from server.settings import Settings

SETTINGS = Settings(
    environment="test",
    secret_key="a-test-secret-for-stream-tokens-32-bytes-or-more",
    stream_token_seconds=600,
    public_base_url="https://watch.touchline.example",
)
EVENT = "e0e000000000000000000001"
USER = "a0a000000000000000000001"
T0 = 1_800_000_000.0


def token_of(url: str) -> str:
    assert url.startswith("/media/s/"), url
    return url.split("/")[3]


def sign(url, user_id=USER, now=T0, settings=SETTINGS):
    return sign_stream(url, user_id=user_id, event_id=EVENT, settings=settings, now=now)


def test_a_vod_url_gets_its_token_in_the_path_so_relative_segment_uris_inherit_it():
    url = sign(vod_url("football"))
    assert url.startswith("/media/s/") and url.endswith("/vod/football/index.m3u8")
    assert url.count("/") == vod_url("football").count("/") + 2  # /s/<token> inserted, nothing else


def test_a_live_url_is_signed_for_its_sample():
    url = sign(live_url("hockey"))
    assert url.endswith("/live/hockey.m3u8")
    assert verify(token_of(url), secret=SETTINGS.secret_key, now=T0).stream == "hockey"


def test_the_token_names_the_viewer_the_event_the_stored_path_and_the_expiry():
    grant = verify(token_of(sign(vod_url("football"))), secret=SETTINGS.secret_key, now=T0)
    reach = reach_of("vod/football/index.m3u8")
    assert reach is not None
    assert grant == signing.StreamGrant(reach=reach, event_id=EVENT, user_id=USER, expires_at=int(T0) + 600)
    assert (grant.path, grant.stream) == ("vod/football/index.m3u8", "football")


def test_a_token_for_anyone_has_no_subject():
    grant = verify(token_of(sign(vod_url("football"), user_id=None)), secret=SETTINGS.secret_key, now=T0)
    assert grant.user_id is None
    claims = jwt.decode(token_of(sign(vod_url("football"), user_id=None)), options={"verify_signature": False})
    assert "sub" not in claims


def test_the_time_comes_from_the_server_clock_by_default():
    before = int(clock.timestamp())
    grant = verify(token_of(sign(vod_url("football"), now=None)), secret=SETTINGS.secret_key)
    assert before + 600 <= grant.expires_at <= int(clock.timestamp()) + 600
    clock.advance(timedelta(seconds=601))
    with pytest.raises(StreamDenied) as refusal:
        verify(token_of(sign(vod_url("football"), now=before)), secret=SETTINGS.secret_key)
    assert refusal.value.code == "stream_token_expired"


def test_a_token_holds_until_its_lifetime_ends_and_not_a_second_longer():
    token = token_of(sign(vod_url("football")))
    verify(token, secret=SETTINGS.secret_key, now=T0 + 599)
    with pytest.raises(StreamDenied) as refusal:
        verify(token, secret=SETTINGS.secret_key, now=T0 + 600)
    assert refusal.value.code == "stream_token_expired"


def test_a_query_string_is_kept_after_the_signed_path():
    assert sign("/media/vod/football/index.m3u8?start=30").endswith("/vod/football/index.m3u8?start=30")


def test_an_absolute_url_to_this_server_is_signed_and_keeps_its_origin():
    url = sign_stream(
        "https://watch.touchline.example/media/live/football.m3u8",
        user_id=USER,
        event_id=EVENT,
        settings=SETTINGS,
        now=T0,
    )
    assert url is not None
    assert url.startswith("https://watch.touchline.example/media/s/") and url.endswith("/live/football.m3u8")


@pytest.mark.parametrize(
    "url",
    [
        None,
        "",
        "https://cdn.example.com/media/vod/football/index.m3u8",  # another host: it is not ours to sign
        "/media/posters/northern-premier-division.svg",  # artwork is public
        "/media/clips/8b1c0a8e2b3d4c5e6f7a8ba4/index.m3u8",  # not a stream this server serves
        "/media/vod/index.m3u8",  # a file with no stream directory
        "/media/vod/../secrets/index.m3u8",
        "/media/live/Football Cup.m3u8",
    ],
)
def test_urls_that_are_not_this_servers_streams_go_out_unchanged(url):
    assert sign(url) == url


def test_a_different_secret_makes_tokens_that_do_not_verify():
    other = SETTINGS.model_copy(update={"secret_key": "another-secret-of-at-least-thirty-two-bytes"})
    with pytest.raises(StreamDenied) as refusal:
        verify(token_of(sign(vod_url("football"), settings=other)), secret=SETTINGS.secret_key, now=T0)
    assert refusal.value.code == "stream_access_denied"


@pytest.mark.parametrize("where", ["header", "payload", "signature"])
def test_an_altered_token_is_refused(where):
    token = token_of(sign(vod_url("football")))
    header, payload, signature = token.split(".")
    if where == "payload":  # claim another stream with the original signature
        claims = {
            "aud": "touchline-media",
            "path": "vod/hockey/index.m3u8",
            "evt": EVENT,
            "exp": int(T0) + 600,
            "sub": USER,
        }
        forged = jwt.encode(claims, "a-key-the-forger-knows-thirty-two-bytes", algorithm="HS256").split(".")[1]
        token = ".".join([header, forged, signature])
    elif where == "header":  # alg none
        token = ".".join(["eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0", payload, ""])
    else:
        token = ".".join([header, payload, signature[:-2] + ("AA" if signature[-2:] != "AA" else "BB")])
    with pytest.raises(StreamDenied) as refusal:
        verify(token, secret=SETTINGS.secret_key, now=T0)
    assert refusal.value.code == "stream_access_denied"


def test_stream_tokens_and_access_tokens_are_not_interchangeable():
    access = issue_access_token(USER, secret=SETTINGS.secret_key, now=time.time())
    with pytest.raises(StreamDenied):
        verify(access, secret=SETTINGS.secret_key, now=time.time())
    stream_token = token_of(sign(vod_url("football"), now=time.time()))
    assert verify_access_token(stream_token, secret=SETTINGS.secret_key) is None


def test_a_token_made_with_the_raw_secret_instead_of_the_media_key_is_refused():
    token = jwt.encode(
        {"aud": "touchline-media", "path": "vod/football/index.m3u8", "evt": EVENT, "exp": int(T0) + 600},
        SETTINGS.secret_key,
        algorithm="HS256",
    )
    with pytest.raises(StreamDenied):
        verify(token, secret=SETTINGS.secret_key, now=T0)


@pytest.mark.parametrize(
    ("path", "stream"),
    [
        ("vod/football/index.m3u8", "football"),
        ("vod/football/index3.ts", "football"),
        ("vod/cup/final/720p/index.m3u8", "cup/final/720p"),
        ("live/football.m3u8", "football"),
        ("live/football", None),
        ("vod/index.m3u8", None),
        ("vod/football/../hockey/index.m3u8", None),
        ("posters/x.svg", None),
    ],
)
def test_the_stream_of_a_stored_path(path, stream):
    assert stream_of(path) == stream


def test_a_page_of_events_is_signed_with_one_derivation_of_the_media_key():
    # An event list signs up to 24 x 3 URLs per answer, each viewer's their own; the key is derived
    # once (what signing costs: `python -m server.bench.costs`, run by `make bench`).
    before = signing.media_key.cache_info()
    for _ in range(72):
        sign(vod_url("football"), user_id=uuid.uuid4().hex[:24])  # a token of its own: no reuse
    after = signing.media_key.cache_info()
    assert after.misses - before.misses <= 1  # none when an earlier test derived it already
    assert after.hits + after.misses - before.hits - before.misses == 72


def test_a_token_is_a_standard_jwt_under_the_media_key():
    token = token_of(sign(vod_url("football")))
    claims = jwt.decode(
        token,
        signing.media_key(SETTINGS.secret_key),
        algorithms=["HS256"],
        audience="touchline-media",
        options={"verify_exp": False},
    )
    expected = {"aud": "touchline-media", "path": "vod/football/index.m3u8", "evt": EVENT, "sub": USER}
    assert claims == {**expected, "exp": int(T0) + 600}
    assert jwt.get_unverified_header(token) == {"alg": "HS256"}
