"""Clips of an archived game whose VOD is as long as the game (`game-<seconds>.m3u8`): a viewer may
cut anywhere within its `duration_s`, not just within the 24 s sample it loops."""

from datetime import timedelta

import httpx
import pytest
from sqlalchemy import delete

from server import clock
from server.media.delivery.urls import game_url
from server.models import Event
from server.services.user_clips import USER_MEDIA_TYPES
from server.tests.accounts import sign_up
from server.tests.commerce import paid_event
from server.tests.media.hls import read_master_playlist, read_media_playlist
from server.tests.media.serving import media_app
from server.tests.media_dir import as_sample

GAME_SECONDS = 7_200


@pytest.fixture(autouse=True)
async def no_clips_left_behind(database):
    yield
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.media_type.in_(USER_MEDIA_TYPES)))
        await db.commit()


@pytest.fixture
async def game(database) -> Event:
    return await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="archived",
        when=clock.now() - timedelta(days=2),
        hls_stream=game_url("football", GAME_SECONDS),
        duration_s=GAME_SECONDS,
        sport_type="football",
    )


async def create(client, viewer: dict, event_id: str, start: float, end: float):
    body = {"event_id": event_id, "title": "The hour mark", "startTime": start, "endTime": end}
    return await client.post("/api/clip/create", json=body, headers=viewer["headers"])


async def test_a_clip_at_minute_sixty_of_an_archived_game_is_made_and_plays(client, database, settings, game):
    fan = await sign_up(client)
    answer = await create(client, fan, game.id, 3_600, 3_630)
    assert answer.status_code == 200, answer.text
    clip = answer.json()["content"]
    assert (clip["startTime"], clip["endTime"], clip["duration"]) == (3_600_000, 3_630_000, 30)
    url = clip["content"]["HLSStream"]
    assert as_sample(url).startswith("/media/vod/football/clip-3600000-3630000/index.m3u8?token=")
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as media:
        master = await media.get(url)
        assert master.status_code == 200, master.text
        base = url.split("?")[0].rsplit("/", 1)[0]
        variant = await media.get(f"{base}/{read_master_playlist(master.text).uris[0]}")  # on the cookie
        # An hour in: segments 1800 to 1814 of the game's timeline, 30 s.
        playlist = read_media_playlist(variant.text)
        assert playlist.uris == [f"seg-{j}.ts" for j in range(1_800, 1_815)] and playlist.duration == 30


async def test_a_clip_reaches_up_to_the_end_of_the_game_and_no_further(client, game):
    fan = await sign_up(client)
    assert (await create(client, fan, game.id, GAME_SECONDS - 60, GAME_SECONDS)).status_code == 200
    beyond = await create(client, fan, game.id, GAME_SECONDS - 10, GAME_SECONDS + 20)
    assert beyond.status_code == 400
    body = beyond.json()
    assert body["messageErrorCode"] == "invalid_time_range" and body["details"][0]["field"] == "endTime"
    assert f"{GAME_SECONDS} s long" in body["message"]
    after = await create(client, fan, game.id, GAME_SECONDS + 1, GAME_SECONDS + 5)
    assert after.status_code == 400 and after.json()["details"][0]["field"] == "startTime"


async def test_a_viewers_clip_is_still_at_most_ten_minutes_whatever_the_game(client, game):
    fan = await sign_up(client)
    assert (await create(client, fan, game.id, 1_000, 1_600)).status_code == 200
    too_long = await create(client, fan, game.id, 1_000, 1_600.5)
    assert too_long.status_code == 400 and too_long.json()["messageErrorCode"] == "invalid_time_range"
