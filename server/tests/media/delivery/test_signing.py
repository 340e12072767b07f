"""Stream addresses for viewers (server.media.delivery.signing): the edge layout's path of the stored
URL, with a token for that stream's directory beside it, until `stream_token_seconds` after issue."""

from datetime import timedelta

import pytest

from server import clock
from server.media.delivery import signing
from server.media.delivery.edge_tokens import check_edge_token, edge_key, issue_edge_token
from server.media.delivery.signing import StreamDenied, sign_stream, stream_of
from server.media.delivery.urls import clip_url, game_url, live_url, vod_url
from server.settings import Settings

SETTINGS = Settings(
    environment="test",
    secret_key="a-test-secret-for-stream-tokens-32-bytes-or-more",
    stream_token_seconds=600,
    public_base_url="https://watch.touchline.example",
)
T0 = 1_800_000_000.0


def sign(url, now=T0, settings=SETTINGS, start=None):
    return sign_stream(url, settings=settings, now=now, start=start)


def split(url: str) -> tuple[str, str]:
    """(path below /media/, token) of a signed address."""
    path, _, token = url.partition("?token=")
    return path.split("/media/", 1)[1], token


@pytest.mark.parametrize(
    ("stored", "start", "signed_path"),
    [
        (vod_url("football"), None, "vod/football/index.m3u8"),
        (clip_url("football", 60_000, 90_000), None, "vod/football/clip-60000-90000/index.m3u8"),
        (game_url("football", 5400), None, "vod/football/game-5400/index.m3u8"),
        (live_url("hockey"), T0 - 600.2, f"live/hockey/from-{int(T0) - 600}/index.m3u8"),
    ],
)
def test_a_stored_url_becomes_its_edge_path_with_a_token_for_its_directory(stored, start, signed_path):
    path, token = split(sign(stored, start=start))
    assert path == signed_path
    grant = check_edge_token(token, path, secret=SETTINGS.secret_key, now=T0)
    assert grant.expires_at == int(T0) + 600


def test_a_live_url_signed_without_a_kickoff_begins_where_it_was_signed():
    path, _ = split(sign(live_url("hockey")))
    assert path == f"live/hockey/from-{int(T0)}/index.m3u8"


def test_the_time_comes_from_the_server_clock_by_default():
    before = int(clock.timestamp())
    path, token = split(sign(vod_url("basketball"), now=None))
    grant = check_edge_token(token, path, secret=SETTINGS.secret_key, now=clock.timestamp())
    assert before + 600 <= grant.expires_at <= int(clock.timestamp()) + 600
    clock.advance(timedelta(seconds=602))
    with pytest.raises(StreamDenied) as refusal:
        check_edge_token(token, path, secret=SETTINGS.secret_key, now=clock.timestamp())
    assert refusal.value.code == "stream_token_expired"


def test_a_token_opens_its_stream_and_not_the_same_assets_other_streams():
    _path, token = split(sign(clip_url("football", 60_000, 90_000)))
    for other in (
        "vod/football/index.m3u8",
        "vod/football/clip-60000-92000/index.m3u8",
        "live/football/from-0/index.m3u8",
    ):
        with pytest.raises(StreamDenied):
            check_edge_token(token, other, secret=SETTINGS.secret_key, now=T0)


def test_a_query_string_is_kept_after_the_token():
    assert sign("/media/vod/football/index.m3u8?start=30").endswith("&start=30")


def test_an_absolute_url_to_this_server_is_signed_and_keeps_its_origin():
    url = sign("https://watch.touchline.example/media/live/football.m3u8", start=T0)
    assert url is not None
    assert url.startswith(f"https://watch.touchline.example/media/live/football/from-{int(T0)}/index.m3u8?token=")


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


def test_a_different_secret_makes_tokens_that_do_not_open_the_stream():
    other = SETTINGS.model_copy(update={"secret_key": "another-secret-of-at-least-thirty-two-bytes"})
    path, token = split(sign(vod_url("football"), settings=other))
    with pytest.raises(StreamDenied) as refusal:
        check_edge_token(token, path, secret=SETTINGS.secret_key, now=T0)
    assert refusal.value.code == "stream_access_denied"


def test_a_token_is_handed_out_again_for_a_tenth_of_its_lifetime_then_a_new_one():
    first = split(sign(vod_url("hockey"), now=T0))[1]
    assert split(sign(vod_url("hockey"), now=T0 + 59))[1] == first  # min(60 s, 600 s / 10)
    assert split(sign(vod_url("hockey"), now=T0 + 60))[1] != first


def test_the_token_is_the_edges_for_the_stored_streams_directory():
    _path, token = split(sign(vod_url("football")))
    assert token == issue_edge_token("vod/football/", secret=SETTINGS.secret_key, expires=int(T0) + 600)
    assert edge_key(SETTINGS.secret_key) not in token


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


def test_recent_tokens_are_bounded():
    recent = signing._RecentTokens()
    for n in range(recent.ENTRIES + 10):
        recent.put((n,), T0, "t")
    assert recent.get((0,), T0, 600) is None and recent.get((recent.ENTRIES + 9,), T0, 600) == "t"
