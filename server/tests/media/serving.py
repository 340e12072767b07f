"""The media routes as a test reaches them: the static part of the one ASGI app
(server.web.static_app) with the state the app's lifespan gives every request, whose database
the routes ask whether a viewer's session still stands."""

import re
from urllib.parse import urljoin

import httpx

from server.tests.conftest import with_state
from server.web import static_app

from .hls import is_master, read_master_playlist, read_media_playlist

BASE = "http://touchline.test"


def media_app(settings, database):
    return with_state(static_app(settings), {"database": database, "settings": settings})


def media_client(settings, database) -> httpx.AsyncClient:
    """The media routes as one viewer's browser reaches them (use it as `async with`)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=media_app(settings, database)), base_url=BASE)


async def played(media: httpx.AsyncClient, url: str) -> list[str]:
    """Every address a player fetches for the signed address `url`, each checked to play: the
    master, each rendition's playlist and its first and last segment, resolved against the
    playlist that lists them (so without the query: the token goes with them in the cookie the
    master's answer set). The addresses are paths, the master's with its query."""
    fetched: list[str] = []

    async def get(address: str) -> httpx.Response:
        response = await media.get(address)
        assert response.status_code == 200, (address, response.status_code, response.text[:200])
        assert "?" not in address or address == url
        fetched.append(re.sub(r"^https?://[^/]+", "", address))
        return response

    master = await get(url)
    assert is_master(master.text)
    for uri in read_master_playlist(master.text).uris:
        variant = await get(urljoin(url, uri))
        segments = read_media_playlist(variant.text).uris
        for segment in {segments[0], segments[-1]}:
            await get(urljoin(str(variant.url), segment))
    return fetched
