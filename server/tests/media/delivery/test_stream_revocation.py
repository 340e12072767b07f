"""A stream outlives the sign-in it was issued in by one token lifetime at most (issue 30 §1, the
bound ARCHITECTURE.md states): the token in hand plays until it expires, `stream_token_seconds`
after issue, and the player's renewal (the event asked for again) needs a standing session. So
after a logout, or any other end of the session, the media stops within that bound, and a copied
address stops with it."""

from datetime import timedelta

import pytest
from sqlalchemy import delete

from server import clock
from server.media.delivery.urls import game_url
from server.models import Event
from server.tests.accounts import bearer, refresh, sign_up
from server.tests.commerce import buy, paid_event
from server.tests.session_endings import ENDINGS, Context


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


async def stream_of(client, event_id: str, headers: dict) -> str | None:
    answer = await client.get(f"/api/event/get_by_id/id/{event_id}", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["content"]["HLSStream"]


def segment_of(url: str) -> str:
    """An hour into the game, beside the master (no token: the cookie carries it)."""
    return url.split("?")[0].replace("index.m3u8", "360p/seg-1800.ts")


@pytest.mark.parametrize("ending", list(ENDINGS), ids=list(ENDINGS))
async def test_an_ended_sessions_stream_stops_within_one_token_lifetime_and_is_not_renewed(
    client, api, database, settings, media, match, ending
):
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], match.id)
    issued = int(clock.timestamp())
    url = await stream_of(client, match.id, fan["headers"])
    assert url is not None
    assert (await media.get(url)).status_code == 200
    assert (await media.get(segment_of(url))).status_code == 200

    await ENDINGS[ending](Context(client, api, database, settings), fan)

    # No renewal: that session's event answer is refused (401), or gives no stream of a paid match.
    answer = await client.get(f"/api/event/get_by_id/id/{match.id}", headers=fan["headers"])
    assert answer.status_code == 401 or answer.json()["content"]["content"]["HLSStream"] is None, answer.text
    # The token in hand plays on until it expires (the bound: issued with the answer), and not
    # a second past it.
    expires = int(url.split("token=")[1].split(".")[0])
    # (a token minted for the same stream moments before may be handed out again: signing's _RecentTokens)
    assert 0.9 * settings.stream_token_seconds <= expires - issued <= settings.stream_token_seconds + 1
    clock.advance(timedelta(seconds=expires - clock.timestamp() - 2))
    assert (await media.get(segment_of(url))).status_code == 200
    clock.advance(timedelta(seconds=3))
    refused = await media.get(segment_of(url))
    assert refused.status_code == 403 and refused.json()["messageErrorCode"] == "stream_token_expired"


async def test_the_bound_is_the_tokens_lifetime_five_minutes_unless_set():
    from server.settings import Settings

    assert Settings().stream_token_seconds == 300


async def test_a_standing_session_renews_its_stream_before_the_bound(client, database, settings, media, match):
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], match.id)
    first = await stream_of(client, match.id, fan["headers"])
    assert first is not None and (await media.get(first)).status_code == 200
    clock.advance(timedelta(seconds=settings.stream_token_seconds - 30))
    # As the webapp does: a fresh access token of the same session, then the event again.
    answer = await refresh(client, fan["tokenData"]["refresh_token"], fan["device_id"])
    assert answer.status_code == 200, answer.text
    renewed = await stream_of(client, match.id, bearer(answer.json()["content"]["token"]))
    assert renewed is not None and renewed != first
    assert renewed.split("?")[0] == first.split("?")[0]  # the same stream, cached under one path
    assert (await media.get(renewed)).status_code == 200  # its answer sets the new token's cookie
    clock.advance(timedelta(seconds=60))  # the first token has expired; the cookie holds the new one
    assert (await media.get(segment_of(first))).status_code == 200
