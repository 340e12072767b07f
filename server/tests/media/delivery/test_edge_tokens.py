"""Edge tokens (issue 30 §1): a token opens one scope, a directory every viewer's URLs share, until
it expires; nothing else (server.media.delivery.edge_tokens)."""

import base64
import hashlib

import pytest

from server.media.delivery.edge_tokens import (
    EDGE_COOKIE,
    check_edge_token,
    cookie_header,
    edge_key,
    issue_edge_token,
    scope_of,
)
from server.media.delivery.signing import DENIED, EXPIRED, StreamDenied

SECRET = "a secret of the tests"
NOW = 1_800_000_000


@pytest.mark.parametrize(
    ("path", "scope"),
    [
        ("vod/a1/index.m3u8", "vod/a1/"),
        ("vod/a1/360p/index.m3u8", "vod/a1/"),
        ("vod/a1/360p/index3.ts", "vod/a1/"),
        ("vod/a1/thumbnails.vtt", "vod/a1/"),
        ("vod/a1/clip-1000-9000/index.m3u8", "vod/a1/clip-1000-9000/"),
        ("vod/a1/clip-1000-9000/360p/seg-3.ts", "vod/a1/clip-1000-9000/"),
        ("vod/a1/game-5400/720p/index.m3u8", "vod/a1/game-5400/"),
        ("vod/a1/keys-ru.bk0_1dr.bk0/360p/seg-3.ts", "vod/a1/keys-ru.bk0_1dr.bk0/"),  # a catch-up
        ("live/a1/from-1800000000/index.m3u8", "live/a1/"),
        ("live/a1/from-1800000000/360p/live.m3u8", "live/a1/"),
        # Not a clip's directory: the asset's (its route answers 404 for what is no file).
        ("vod/a1/clip-1000/index.m3u8", "vod/a1/"),
    ],
)
def test_a_path_lies_in_one_scope(path, scope):
    assert scope_of(path) == scope


@pytest.mark.parametrize(
    "path",
    ["vod/../index.m3u8", "vod//index.m3u8", "vod/a1", "s/token/vod/a1/index.m3u8", "posters/x.svg", "", "vod/.a/x"],
)
def test_a_path_outside_the_media_layout_lies_in_no_scope(path):
    assert scope_of(path) is None


def test_a_token_opens_every_path_of_its_scope_until_it_expires():
    token = issue_edge_token("vod/a1/", secret=SECRET, expires=NOW + 120)
    for path in ("vod/a1/index.m3u8", "vod/a1/720p/index9.ts", "vod/a1/poster.jpg"):
        grant = check_edge_token(token, path, secret=SECRET, now=NOW)
        assert (grant.scope, grant.expires_at) == ("vod/a1/", NOW + 120)
    with pytest.raises(StreamDenied) as refused:
        check_edge_token(token, "vod/a1/index.m3u8", secret=SECRET, now=NOW + 121)
    assert refused.value.code == EXPIRED


@pytest.mark.parametrize(
    ("issued_for", "neighbour"),
    [
        ("vod/a1/", "vod/a2/index.m3u8"),  # another asset
        ("vod/a1/", "vod/a10/index.m3u8"),  # whose name begins with this one's
        ("vod/a1/", "vod/a1/clip-0-4000/index.m3u8"),  # a clip of it (a free highlight of a paid game's asset)
        ("vod/a1/", "vod/a1/game-60/index.m3u8"),
        ("vod/a1/", "live/a1/from-0/index.m3u8"),  # its live stream
        ("vod/a1/clip-0-4000/", "vod/a1/index.m3u8"),  # the whole asset from a clip's token
        ("vod/a1/clip-0-4000/", "vod/a1/clip-0-4001/index.m3u8"),  # another range, however close
        ("vod/a1/clip-0-4000/", "vod/a1/360p/seg-0.ts"),
        ("vod/a1/game-60/", "vod/a1/game-61/360p/seg-0.ts"),
        ("live/a1/", "vod/a1/360p/index0.ts"),  # the recording's VOD from a live token
        ("live/a1/", "live/a2/from-0/index.m3u8"),
    ],
)
def test_a_token_opens_none_of_its_neighbours(issued_for, neighbour):
    token = issue_edge_token(issued_for, secret=SECRET, expires=NOW + 120)
    with pytest.raises(StreamDenied) as refused:
        check_edge_token(token, neighbour, secret=SECRET, now=NOW)
    assert refused.value.code == DENIED


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t.replace(t.split(".")[0], str(int(t.split(".")[0]) + 3600)),  # a later expiry
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # one character of the MAC
        lambda t: t.split(".")[1],  # no expiry
        lambda t: t + "=",
        lambda t: "",
        lambda t: f"{t}.{t}",
    ],
)
def test_an_altered_token_is_refused(mangle):
    token = issue_edge_token("vod/a1/", secret=SECRET, expires=NOW + 120)
    with pytest.raises(StreamDenied) as refused:
        check_edge_token(mangle(token), "vod/a1/index.m3u8", secret=SECRET, now=NOW)
    assert refused.value.code == DENIED


def test_a_token_of_another_secret_is_refused():
    token = issue_edge_token("vod/a1/", secret="another secret", expires=NOW + 120)
    with pytest.raises(StreamDenied):
        check_edge_token(token, "vod/a1/index.m3u8", secret=SECRET, now=NOW)


def test_no_token_is_refused():
    with pytest.raises(StreamDenied) as refused:
        check_edge_token(None, "vod/a1/index.m3u8", secret=SECRET, now=NOW)
    assert refused.value.code == DENIED


def test_the_token_is_nginx_secure_links_md5_of_expiry_scope_and_key():
    """What `secure_link_md5 "$secure_link_expires$media_scope <key>"` computes, base64url unpadded."""
    token = issue_edge_token("vod/a1/", secret=SECRET, expires=NOW)
    expires, mac = token.split(".")
    digest = hashlib.md5(f"{NOW}vod/a1/ {edge_key(SECRET)}".encode()).digest()  # nginx secure_link
    assert (expires, mac) == (str(NOW), base64.urlsafe_b64encode(digest).decode().rstrip("="))


def test_the_edge_key_is_derived_and_not_the_secret_itself():
    assert SECRET not in edge_key(SECRET)
    assert edge_key(SECRET) != edge_key("another secret")
    assert len(edge_key(SECRET)) == 64


def test_a_scope_that_is_no_scope_gets_no_token():
    for scope in ("vod/a1", "vod/a1/360p/", "/media/vod/a1/", "vod/../"):
        with pytest.raises(ValueError):
            issue_edge_token(scope, secret=SECRET, expires=NOW)


def test_the_cookie_keeps_the_token_for_its_scope_alone_while_it_lives():
    token = issue_edge_token("vod/a1/clip-0-4000/", secret=SECRET, expires=NOW + 90)
    grant = check_edge_token(token, "vod/a1/clip-0-4000/index.m3u8", secret=SECRET, now=NOW)
    header = cookie_header(grant, token, now=NOW + 30, secure=True)
    assert header == (
        f"{EDGE_COOKIE}={token}; Path=/media/vod/a1/clip-0-4000/; Max-Age=60; HttpOnly; SameSite=Strict; Secure"
    )
