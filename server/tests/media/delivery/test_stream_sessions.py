"""A viewer's stream ends with their sign-in session: after a logout (or any other end of the
session) the signed URL no longer plays with that session's access token, although the token
itself has minutes to live. The process that ended the session refuses at once; any other within
STANDING_SECONDS (server.auth.standing), without asking the database for every segment."""

from datetime import timedelta
from urllib.parse import urljoin

import httpx
import jwt
import pytest
from sqlalchemy import delete

from server import clock
from server.auth import standing
from server.db import Database
from server.media.delivery.credentials import MEDIA_COOKIE
from server.media.delivery.urls import game_url
from server.models import Event
from server.services import sessions
from server.tests.accounts import bearer, new_device, sign_in, sign_up
from server.tests.commerce import buy, paid_event
from server.tests.conftest import with_state
from server.tests.session_endings import ENDINGS, Context, count_standing_questions, session_of
from server.web import static_app

from ..hls import read_master_playlist
from ..serving import media_app

BASE = "http://touchline.test"


@pytest.fixture(scope="module")
async def media(settings, database):
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=media_app(settings, database)), base_url=BASE
    ) as http:
        yield http


@pytest.fixture
async def match(database):
    """An archived pay-per-view match (two hours of VOD); removed afterwards."""
    event = await paid_event(
        database, status="archived", when=clock.now() - timedelta(days=1), hls_stream=game_url("football", 7200)
    )
    yield event
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.id == event.id))
        await db.commit()


async def bought_stream(client, database, event_id: str) -> tuple[dict, str]:
    """A new viewer who bought the match, and the stream URL the event answer gives them."""
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], event_id)
    answer = await client.get(f"/api/event/get_by_id/id/{event_id}", headers=fan["headers"])
    assert answer.status_code == 200, answer.text
    return fan, answer.json()["content"]["content"]["HLSStream"]


def segment_of(url: str) -> str:
    return url.replace(url.rsplit("/", 1)[1], "360p/seg-1800.ts")  # an hour into the game


def refused(response: httpx.Response, code: str = "stream_session_ended") -> bool:
    assert response.status_code == 403, response.text
    assert response.json()["messageErrorCode"] == code and response.headers["cache-control"] == "no-store"
    return True


@pytest.mark.parametrize("ending", list(ENDINGS), ids=list(ENDINGS))
async def test_an_ended_sessions_stream_is_refused_at_once_with_its_still_valid_access_token(
    client, api, database, settings, media, match, ending
):
    fan, url = await bought_stream(client, database, match.id)
    assert (await media.get(url, headers=fan["headers"])).status_code == 200
    assert (await media.get(segment_of(url), headers=fan["headers"])).status_code == 200

    await ENDINGS[ending](Context(client, api, database, settings), fan)

    # The access token has most of its 15 minutes left; the session behind it is over.
    assert refused(await media.get(url, headers=fan["headers"]))
    assert refused(await media.get(segment_of(url), headers=fan["headers"]))


async def test_a_logged_out_sessions_stream_is_refused_within_two_seconds_by_a_process_told_nothing(
    client, database, media, match
):
    """Another server process, without Redis, hears nothing of the logout: it believes the
    session stands for STANDING_SECONDS at most."""
    fan, url = await bought_stream(client, database, match.id)
    assert (await media.get(url, headers=fan["headers"])).status_code == 200
    async with database.session() as db:  # ended elsewhere: this process is not told
        await sessions.revoke_session(db, session_of(fan), reason="logout")
        await db.commit()
    assert standing.STANDING_SECONDS <= 2
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS))
    assert refused(await media.get(url, headers=fan["headers"]))
    assert refused(await media.get(segment_of(url), headers=fan["headers"]))


async def test_a_standing_session_is_asked_of_the_database_once_per_two_seconds_not_per_segment(
    client, database, media, match, monkeypatch
):
    fan, url = await bought_stream(client, database, match.id)
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS))  # forget what the API calls learnt
    asked = count_standing_questions(monkeypatch)
    playlist = await media.get(url, headers=fan["headers"])
    variant = urljoin(str(playlist.url), read_master_playlist(playlist.text).uris[0])
    for _ in range(5):
        assert (await media.get(variant, headers=fan["headers"])).status_code == 200
        assert (await media.get(segment_of(url), headers=fan["headers"])).status_code == 200
    assert asked == [session_of(fan)]  # eleven requests, one question
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS))
    assert (await media.get(segment_of(url), headers=fan["headers"])).status_code == 200
    assert asked == [session_of(fan)] * 2


async def test_a_url_issued_in_one_session_does_not_play_with_the_same_viewers_other_session(
    client, database, media, match
):
    """The token names the session it was issued in (`sid`): a URL kept from before a logout plays
    for nobody, even when its viewer signs in again; the player fetches the event anew."""
    fan, url = await bought_stream(client, database, match.id)
    assert jwt.decode(url.split("/")[3], options={"verify_signature": False})["sid"] == session_of(fan)
    again = await sign_in(client, fan["email"], fan["password"], new_device())
    other = bearer(again.json()["content"]["tokenData"]["access_token"])
    assert refused(await media.get(url, headers=other), "stream_access_denied")
    fresh = (await client.get(f"/api/event/get_by_id/id/{match.id}", headers=other)).json()["content"]
    assert (await media.get(fresh["content"]["HLSStream"], headers=other)).status_code == 200


async def test_the_media_cookie_of_a_logged_out_session_is_refused(client, database, media, match):
    fan, url = await bought_stream(client, database, match.id)
    answer = await client.post("/api/user/media_cookie", headers=fan["headers"])
    cookie = {"Cookie": f"{MEDIA_COOKIE}={answer.cookies[MEDIA_COOKIE]}"}
    assert (await media.get(url, headers=cookie)).status_code == 200
    assert (await client.post("/api/user/logout", headers=fan["headers"])).status_code == 200
    assert refused(await media.get(url, headers=cookie))


async def test_when_sessions_cannot_be_checked_a_viewers_stream_asks_the_player_to_retry(
    client, database, settings, match
):
    fan, url = await bought_stream(client, database, match.id)
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS))  # the media route must ask
    unreachable = Database("postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=1")
    app = with_state(static_app(settings), {"database": unreachable, "settings": settings})
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as media:
            answer = await media.get(url, headers=fan["headers"])
    finally:
        await unreachable.dispose()
    # Not "your session has ended": the player must not give up because a database hiccuped.
    assert answer.status_code == 503 and answer.json()["messageErrorCode"] == "service_unavailable"
    assert answer.headers["retry-after"] == "1" and answer.headers["cache-control"] == "no-store"


async def test_without_a_database_to_ask_a_viewers_stream_does_not_play(client, database, settings, match):
    fan, url = await bought_stream(client, database, match.id)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=static_app(settings)), base_url=BASE) as media:
        assert refused(await media.get(url, headers=fan["headers"]), "stream_access_denied")
