"""The whole ASGI app: API, media, webapp fallback and the socket mount on one port."""

import httpx
import pytest

from server.app import create_app
from server.media.delivery.signing import sign_stream
from server.media.delivery.urls import live_url, vod_url
from server.settings import Settings


@pytest.fixture(scope="module")
def app_settings(tmp_path_factory):
    return Settings(
        environment="test",
        database_url=f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('app') / 'a.db'}",
        webapp_dist=tmp_path_factory.mktemp("nodist"),
        allowed_hosts=["touchline.test"],  # outside development only known hosts are served
    )


@pytest.fixture(scope="module")
async def app_client(app_settings):
    transport = httpx.ASGITransport(app=create_app(app_settings))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as client:
        yield client


def free_stream(url: str, settings: Settings) -> str:
    """A stored stream URL as a free event's viewers get it (see server/tests/media for the rules); a
    live one kicked off long ago."""
    signed = sign_stream(url, settings=settings, start=0.0)
    assert signed is not None
    return signed


async def test_live_playlist_is_served_with_the_hls_content_type(app_client, app_settings):
    response = await app_client.get(free_stream(live_url("football"), app_settings))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/vnd.apple.mpegurl")
    assert "#EXT-X-ENDLIST" not in response.text and "360p/live.m3u8" in response.text


async def test_vod_playlist_and_segments_are_served(app_client, app_settings):
    url = free_stream(vod_url("football"), app_settings)
    playlist = await app_client.get(url)
    assert playlist.status_code == 200 and "#EXT-X-STREAM-INF:" in playlist.text  # a master over the renditions
    variant = await app_client.get(url.replace("index.m3u8", "360p/index.m3u8"))
    assert variant.status_code == 200 and "#EXT-X-ENDLIST" in variant.text
    segment = await app_client.get(url.replace("index.m3u8", "360p/index0.ts"))
    assert segment.headers["content-type"] == "video/mp2t" and len(segment.content) > 1000


async def test_unknown_stream_is_not_found_in_the_envelope(app_client, app_settings):
    response = await app_client.get(free_stream(live_url("nope"), app_settings))
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "stream_not_found"


@pytest.mark.parametrize(
    "path", ["/media/live/football.m3u8", "/media/vod/football/index.m3u8", "/media/vod/football/index0.ts"]
)
async def test_stream_paths_without_a_token_serve_nothing(app_client, path):
    app_client.cookies.clear()  # what other tests' streams set
    response = await app_client.get(path)
    assert response.status_code == 403 and response.json()["messageErrorCode"] == "stream_access_denied"


async def test_unknown_media_path_is_not_found(app_client):
    response = await app_client.get("/media/elsewhere/x")
    assert response.status_code == 404 and response.json()["error"] is True


async def test_socket_path_refuses_polling(app_client):
    response = await app_client.get("/ws/", params={"EIO": "4", "transport": "polling"})
    assert response.status_code == 400


async def test_root_answers_without_a_built_webapp(app_client):
    response = await app_client.get("/")
    assert response.status_code == 200 and response.json()["api"] == "/api"


def test_default_secret_is_refused_in_production():
    with pytest.raises(ValueError, match="SECRET_KEY"):
        Settings(environment="production")


async def test_missing_media_file_is_not_found_in_the_envelope(app_client):
    response = await app_client.get("/media/logos/no-such-team.svg")
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "not_found"
