"""Native HLS players cannot send a bearer header: POST /api/user/media_cookie puts the viewer's
access token in an HttpOnly cookie scoped to /media/s/, and a stream signed for that viewer plays
with the cookie instead of the header (and for nobody else's cookie)."""

from datetime import timedelta
from http.cookies import SimpleCookie

import httpx
import pytest
from sqlalchemy import delete

from server import clock
from server.app import create_api
from server.media.delivery.credentials import MEDIA_COOKIE
from server.media.delivery.urls import vod_url
from server.models import Event
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.conftest import with_state
from server.tests.media.serving import media_app

COOKIE_PATH = "/api/user/media_cookie"


@pytest.fixture(scope="module")
async def media(settings, database):
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
        yield http


@pytest.fixture
async def bought(client, database):
    """(the buyer's headers, their signed stream URL) of an archived pay-per-view match."""
    event = await paid_event(
        database, status="archived", when=clock.now() - timedelta(days=1), hls_stream=vod_url("football")
    )
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], event.id)
    answer = await client.get(f"/api/event/get_by_id/id/{event.id}", headers=fan["headers"])
    yield fan["headers"], answer.json()["content"]["content"]["HLSStream"]
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.id == event.id))
        await db.commit()


def refused(response: httpx.Response) -> bool:
    return response.status_code == 403 and response.json()["messageErrorCode"] == "stream_access_denied"


async def media_cookie(client, headers: dict) -> tuple[str, SimpleCookie]:
    answer = await client.post(COOKIE_PATH, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["expiresAt"], SimpleCookie(answer.headers["set-cookie"])


async def test_the_cookie_holds_the_access_token_for_the_signed_media_path_only(client, settings):
    fan = await sign_up(client)
    expires_at, jar = await media_cookie(client, fan["headers"])
    morsel = jar[MEDIA_COOKIE]
    assert morsel.value == fan["headers"]["Authorization"].split(" ", 1)[1]
    assert morsel["path"] == "/media/s/" and morsel["httponly"] and morsel["samesite"] == "Strict"
    assert 0 < int(morsel["max-age"]) <= settings.access_token_lifetime
    assert expires_at.endswith("Z")
    assert not morsel["secure"]  # the test server's address is http; over https it is Secure


async def test_the_cookie_is_secure_when_the_request_came_over_https(client):
    fan = await sign_up(client)
    answer = await client.post(f"https://touchline.test{COOKIE_PATH}", headers=fan["headers"])
    assert SimpleCookie(answer.headers["set-cookie"])[MEDIA_COOKIE]["secure"]


async def test_the_cookie_is_secure_when_the_public_address_is_https_in_any_case(client, database, settings):
    fan = await sign_up(client)
    public = settings.model_copy(update={"public_base_url": "HTTPS://Watch.Touchline.Example"})
    transport = httpx.ASGITransport(app=with_state(create_api(public), {"database": database, "settings": public}))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as behind_a_proxy:
        _, jar = await media_cookie(behind_a_proxy, fan["headers"])
    assert jar[MEDIA_COOKIE]["secure"]


async def test_without_a_bearer_there_is_no_cookie(client):
    answer = await client.post(COOKIE_PATH)
    assert answer.status_code == 401 and "set-cookie" not in answer.headers


async def test_a_viewers_stream_plays_with_their_cookie_instead_of_the_header(client, media, bought):
    headers, stream = bought
    assert refused(await media.get(stream))  # neither header nor cookie
    _, jar = await media_cookie(client, headers)
    cookies = {"Cookie": f"{MEDIA_COOKIE}={jar[MEDIA_COOKIE].value}"}
    playlist = await media.get(stream, headers=cookies)
    assert playlist.status_code == 200, playlist.text


async def test_another_viewers_cookie_is_refused(client, media, bought):
    _, stream = bought
    stranger = await sign_up(client)
    _, jar = await media_cookie(client, stranger["headers"])
    assert refused(await media.get(stream, headers={"Cookie": f"{MEDIA_COOKIE}={jar[MEDIA_COOKIE].value}"}))


async def test_a_cookie_that_is_not_an_access_token_is_refused(media, bought):
    _, stream = bought
    assert refused(await media.get(stream, headers={"Cookie": f"{MEDIA_COOKIE}=not.a.token"}))
    assert refused(await media.get(stream, headers={"Cookie": "unrelated=1; other=2"}))
