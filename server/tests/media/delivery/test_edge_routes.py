"""The edge layout served by the server itself (issue 30, `make run` without an edge): the same
path for every viewer, the token in the query once and then in the cookie it sets, and what a
path may be checked by the path alone (server.media.delivery.edge_routes)."""

from datetime import timedelta
from urllib.parse import urljoin

import httpx
import pytest

from server import clock
from server.media.delivery.edge_tokens import EDGE_COOKIE, issue_edge_token, scope_of
from server.media.delivery.urls import edge_path

from ..hls import is_master, read_master_playlist, read_media_playlist
from ..serving import media_app

BASE = "http://touchline.test"
CLIP = "vod/football/clip-60000-90000.m3u8"  # seg-30 .. seg-44 of the 2 s timeline
GAME = "vod/football/game-5400.m3u8"


@pytest.fixture
async def media(settings, database):
    """A browser of its own per test: a cookie jar that keeps what the answers set, by path."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=media_app(settings, database)), base_url=BASE
    ) as http:
        yield http


def edge_url(settings, stored: str, *, start: int | None = None, lifetime: int = 120) -> str:
    """`/media/<edge path>?token=...` for a stored media path (no `/media/`), as a player gets it."""
    path = edge_path(stored, start)
    assert path is not None
    scope = scope_of(path)
    assert scope is not None
    token = issue_edge_token(scope, secret=settings.secret_key, expires=int(clock.timestamp()) + lifetime)
    return f"/media/{path}?token={token}"


def refused(response: httpx.Response, code: str = "stream_access_denied") -> bool:
    assert response.status_code == 403, (str(response.url), response.status_code, response.text[:200])
    assert response.json() == {"error": True, "message": response.json()["message"], "messageErrorCode": code}
    assert response.headers["cache-control"] == "no-store"
    return True


async def played(media: httpx.AsyncClient, url: str) -> list[str]:
    """Every address a player fetches for `url` (the master, each rendition's playlist, its first
    and last segment), each resolved against the playlist listing it and so without the query:
    the token goes with them in the cookie the master's answer set."""
    fetched: list[str] = []

    async def get(address: str) -> httpx.Response:
        response = await media.get(address)
        assert response.status_code == 200, (address, response.status_code, response.text[:200])
        assert "?" not in address or address == url
        fetched.append(address.removeprefix(BASE))
        return response

    master = await get(url)
    assert is_master(master.text)
    for uri in read_master_playlist(master.text).uris:
        variant = await get(urljoin(url, uri))
        segments = read_media_playlist(variant.text).uris
        for segment in {segments[0], segments[-1]}:
            await get(urljoin(str(variant.url), segment))
    return fetched


async def test_an_asset_plays_with_its_token_in_the_query_once_then_in_the_cookie(settings, media):
    url = edge_url(settings, "vod/football/index.m3u8")
    addresses = await played(media, url)
    assert len(addresses) == 1 + 3 + 6  # the master, three renditions, a first and a last segment each
    assert all(a.startswith("/media/vod/football/") for a in addresses)
    [cookie] = [c for c in media.cookies.jar if c.name == EDGE_COOKIE]
    assert cookie.path == "/media/vod/football/"
    assert cookie.value == url.split("token=", 1)[1]


async def test_the_query_sets_an_http_only_cookie_for_the_tokens_scope_as_long_as_it_lives(settings, media):
    response = await media.get(edge_url(settings, CLIP, lifetime=90))
    assert response.status_code == 200
    cookie = response.headers["set-cookie"]
    assert "Path=/media/vod/football/clip-60000-90000/;" in cookie
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert 88 <= int(cookie.split("Max-Age=", 1)[1].split(";")[0]) <= 90


async def test_answers_are_public_the_same_for_every_viewer(settings, media):
    first = await media.get(edge_url(settings, "vod/football/index.m3u8"))
    media.cookies.clear()
    second = await media.get(edge_url(settings, "vod/football/index.m3u8", lifetime=300))
    assert first.content == second.content
    assert first.headers["cache-control"].startswith("public")


async def test_a_game_and_a_clip_play_from_directories_of_their_own(settings, media):
    for stored, name in ((GAME, "game-5400"), (CLIP, "clip-60000-90000")):
        addresses = await played(media, edge_url(settings, stored))
        assert all(a.startswith(f"/media/vod/football/{name}/") for a in addresses), addresses
        assert sum(a.endswith("/index.m3u8") for a in addresses) == 3


async def test_a_clips_directory_serves_the_segments_of_its_range_to_no_one(settings, media):
    """Not a viewer's check but the path's: the answer is the same for everyone, and cached so."""
    url = edge_url(settings, CLIP)
    assert (await media.get(url)).status_code == 200
    directory = "/media/vod/football/clip-60000-90000/360p"
    assert (await media.get(f"{directory}/seg-30.ts")).status_code == 200
    for outside in ("seg-29.ts", "seg-45.ts", "index0.ts", "game-5400.m3u8", "clip-60000-90000.m3u8"):
        response = await media.get(f"{directory}/{outside}")
        assert response.status_code == 404, (outside, response.text[:200])
        assert response.json()["messageErrorCode"] == "not_found"


async def test_a_token_opens_none_of_its_neighbours(settings, media):
    """A clip's token (a free highlight of a paid game) in the cookie and the query of every
    neighbour's request: the whole asset, its game, its live stream, another clip, another asset."""
    token = edge_url(settings, CLIP).split("token=", 1)[1]
    neighbours = [
        "vod/football/index.m3u8",
        "vod/football/360p/index0.ts",
        "vod/football/game-5400/index.m3u8",
        "vod/football/game-5400/360p/seg-30.ts",
        "vod/football/clip-60000-92000/index.m3u8",
        "vod/football/clip-58000-90000/360p/seg-30.ts",
        "live/football/from-0/index.m3u8",
        "live/football/from-0/360p/live.m3u8",
        "vod/hockey/clip-60000-90000/index.m3u8",
        "vod/football-pano/clip-60000-90000/360p/index.m3u8",
    ]
    media.cookies.set(EDGE_COOKIE, token, domain="touchline.test", path="/media/")
    for path in neighbours:
        assert refused(await media.get(f"/media/{path}")), path
        assert refused(await media.get(f"/media/{path}?token={token}")), path


async def test_no_token_an_expired_one_or_an_altered_one_is_refused(settings, media):
    assert refused(await media.get("/media/vod/football/index.m3u8"))
    url = edge_url(settings, "vod/football/index.m3u8", lifetime=60)
    clock.advance(timedelta(seconds=62))
    assert refused(await media.get(url), "stream_token_expired")
    expiry = url.split("token=", 1)[1].split(".")[0]
    later = url.replace(f"token={expiry}.", f"token={int(expiry) + 3600}.")
    assert refused(await media.get(later))


async def test_a_refusal_sets_no_cookie(settings, media):
    response = await media.get(edge_url(settings, "vod/football/index.m3u8").replace("vod/football/", "vod/hockey/"))
    assert refused(response)
    assert "set-cookie" not in response.headers


async def test_a_live_stream_plays_from_its_kickoff_in_a_directory_per_kickoff(settings, media):
    kickoff = int(clock.timestamp()) - 600
    url = edge_url(settings, "live/football.m3u8", start=kickoff)
    assert url.startswith(f"/media/live/football/from-{kickoff}/index.m3u8?token=")
    addresses = await played(media, url)
    assert sum(a.endswith("/live.m3u8") for a in addresses) == 3
    assert all(a.startswith(f"/media/live/football/from-{kickoff}/") for a in addresses)
    window = read_media_playlist((await media.get(f"/media/live/football/from-{kickoff}/360p/live.m3u8")).text)
    assert 0 < len(window.uris) <= 600 // 2 + 1  # from the kickoff, not the whole rewind window before it


async def test_a_live_stream_before_its_kickoff_is_not_started(settings, media):
    kickoff = int(clock.timestamp()) + 600
    response = await media.get(edge_url(settings, "live/football.m3u8", start=kickoff))
    assert response.status_code == 409
    assert response.json()["messageErrorCode"] == "stream_not_started"


@pytest.mark.parametrize(
    "path",
    [
        "vod/football/clip-60000-90000/360p/clip-60000-90000.m3u8",  # a made playlist under another name
        "vod/football/clip-60000-90000/",
        "live/football/360p/live.m3u8",  # no kickoff
        "live/football/from-x/index.m3u8",
    ],
)
async def test_a_path_the_layout_does_not_have_is_not_found_with_a_valid_token(settings, media, path):
    scope = scope_of(path)
    assert scope is not None
    token = issue_edge_token(scope, secret=settings.secret_key, expires=int(clock.timestamp()) + 60)
    response = await media.get(f"/media/{path}?token={token}")
    assert response.status_code == 404, response.text[:200]
