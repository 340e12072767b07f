"""The viewer's own clips: POST /clip/create, /clip/update/{id}, /clip/delete/{id} and /clip/user_list.

The catalogue's archived game plays the 24 s football sample as VOD; `live_game` kicked off ten
minutes ago. Clips made here are removed after each test, so the catalogue's counts stay as the
other tests expect on the shared database.
"""

from datetime import timedelta

import pytest
from sqlalchemy import delete, func, select

from server import clock
from server.media.delivery.urls import live_url, vod_url
from server.models import Event, Purchase
from server.services.user_clips import CREATE_LIMIT, USER_MEDIA_TYPES
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.media_dir import as_sample

SAMPLE_SECONDS = 24  # fixtures/media/football: 12 segments of 2 s


@pytest.fixture(autouse=True)
async def no_clips_left_behind(database):
    yield
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.media_type.in_(USER_MEDIA_TYPES)))
        await db.commit()


async def free_live_game(database, kickoff_ago: timedelta) -> Event:
    """A free live game on the football sample (removed after the test, with its clips)."""
    return await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="live",
        when=clock.now() - kickoff_ago,
        hls_stream=live_url("football"),
        sport_type="football",
    )


@pytest.fixture
async def live_game(database) -> Event:
    return await free_live_game(database, timedelta(minutes=10))


@pytest.fixture
async def fan(client):
    return await sign_up(client)


@pytest.fixture
async def rival(client):
    return await sign_up(client)


async def create(client, viewer: dict, event_id: str, start: float = 2, end: float = 8.5, **extra):
    body = {"event_id": event_id, "title": "Mariners' opening goal", "startTime": start, "endTime": end, **extra}
    return await client.post("/api/clip/create", json=body, headers=viewer["headers"])


async def made(client, viewer: dict, event_id: str, start: float = 2, end: float = 8.5, **extra) -> dict:
    answer = await create(client, viewer, event_id, start, end, **extra)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


async def user_list(client, viewer: dict, **body) -> dict:
    answer = await client.post("/api/clip/user_list", json=body, headers=viewer["headers"])
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


def refusal(answer, status: int, code: str, field: str | None = None) -> dict:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] is True and body["messageErrorCode"] == code, body
    if field is not None:
        assert [d["field"] for d in body["details"]] == [field], body
    return body


# --- create ---------------------------------------------------------------------------------------


async def test_a_viewer_cuts_a_clip_of_an_archived_game(client, catalogue, fan):
    clip = await made(client, fan, catalogue["archived"], 2, 8.5, title="  Mariners' opening goal  ")
    assert clip["media_type"] == "user_clip" and clip["title"] == "Mariners' opening goal"
    assert clip["event_id"] == catalogue["archived"]  # the event it was cut from
    assert (clip["startTime"], clip["endTime"], clip["duration"]) == (2000, 8500, 7)
    assert clip["availableForUser"] is True and clip["availableInUserRegion"] is True
    assert clip["type"] is None and clip["status"] == "archived"
    assert clip["eventTeams"]["homeTeam"]["teamId"] == catalogue["hawks"]
    stream = clip["content"]["HLSStream"]
    assert as_sample(stream).startswith("/media/vod/football/clip-2000-8500/index.m3u8?token=")
    assert clip["content"]["PanoStream"] is None and clip["content"]["MezzanineVideo"] is None


async def test_a_viewer_may_cut_a_highlight_too(client, catalogue, fan):
    clip = await made(client, fan, catalogue["archived"], 0, 24, media_type="user_highlight")
    assert clip["media_type"] == "user_highlight" and clip["availableForUser"] is True
    assert as_sample(clip["content"]["HLSStream"]).startswith("/media/vod/football/clip-0-24000/index.m3u8?token=")


async def test_a_clip_of_a_live_game_is_cut_within_its_rewind_window(client, live_game, fan):
    # Kicked off ten minutes ago: the stream so far is all within the default 30-minute window.
    clip = await made(client, fan, live_game.id, 60, 75.5)
    assert (clip["startTime"], clip["endTime"], clip["duration"]) == (60_000, 75_500, 16)
    assert "/vod/football/clip-" in as_sample(clip["content"]["HLSStream"])


async def test_clipping_needs_a_signed_in_viewer(client, catalogue):
    answer = await client.post(
        "/api/clip/create", json={"event_id": catalogue["archived"], "title": "Goal", "startTime": 1, "endTime": 2}
    )
    refusal(answer, 401, "unauthorized")


async def test_an_unknown_event_or_a_highlight_cannot_be_clipped(client, catalogue, fan):
    refusal(await create(client, fan, "f" * 24), 404, "event_not_found")
    refusal(await create(client, fan, catalogue["recap"]), 404, "event_not_found")


async def test_a_pay_per_view_match_is_clipped_only_by_a_viewer_who_bought_it(client, database, fan):
    match = await paid_event(database, status="archived", when=clock.now() - timedelta(days=1))
    body = refusal(await create(client, fan, match.id), 403, "forbidden")
    assert "may watch" in body["message"]
    await buy(database, fan["profile"]["userId"], match.id)
    clip = await made(client, fan, match.id)
    assert clip["availableForUser"] is True
    # A paid stream's clip: its address is given to its owner (who bought the match) alone.
    assert "/clip-" in clip["content"]["HLSStream"] and "?token=" in clip["content"]["HLSStream"]


async def test_a_members_game_is_clipped_by_any_signed_in_viewer(client, catalogue, fan):
    clip = await made(client, fan, catalogue["hoops"], 0, 4)
    assert as_sample(clip["content"]["HLSStream"]).startswith("/media/vod/basketball/clip-0-4000/index.m3u8?token=")


@pytest.mark.parametrize("title, message", [("   ", "blank"), ("Goal\u0000", "control characters")])
async def test_a_blank_title_or_control_characters_are_refused(client, catalogue, fan, title, message):
    body = refusal(await create(client, fan, catalogue["archived"], title=title), 400, "validation_error", "title")
    assert message in body["message"]


# --- bad times ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "start, end, field, words",
    [
        (8, 2, "endTime", "after startTime"),
        (5, 5, "endTime", "after startTime"),
        (0, 600.5, "endTime", "at most 10 minutes"),
        (20, 30, "endTime", "24 s long"),
        (24, 26, "startTime", "beyond the end of the stream"),
    ],
)
async def test_bad_times_of_an_archived_game_are_refused_with_the_field(
    client, catalogue, fan, start, end, field, words
):
    body = refusal(await create(client, fan, catalogue["archived"], start, end), 400, "invalid_time_range", field)
    assert words in body["message"] and body["details"][0]["message"] == body["message"]


async def test_a_clip_of_a_live_game_cannot_reach_past_the_live_edge(client, live_game, fan):
    body = refusal(await create(client, fan, live_game.id, 590, 700), 400, "invalid_time_range", "endTime")
    assert "live edge" in body["message"]
    refusal(await create(client, fan, live_game.id, 700, 710), 400, "invalid_time_range", "startTime")


async def test_a_clip_of_a_live_game_cannot_start_before_the_rewind_window(client, database, fan, settings):
    game = await free_live_game(database, timedelta(hours=2))
    body = refusal(await create(client, fan, game.id, 10, 20), 400, "invalid_time_range", "startTime")
    assert "goes back to" in body["message"]
    # Two hours in, the window holds the last 30 minutes: from about 5400 s.
    lowest = 2 * 3600 - settings.live_rewind_seconds
    assert (await create(client, fan, game.id, lowest + 10, lowest + 20)).status_code == 200


async def test_a_stream_that_has_not_started_has_nothing_to_clip(client, database, fan):
    early = await free_live_game(database, -timedelta(minutes=10))  # on air ten minutes before kickoff
    body = refusal(await create(client, fan, early.id, 0, 5), 400, "invalid_time_range", "startTime")
    assert "not started" in body["message"]


async def test_events_without_a_stream_and_channels_cannot_be_clipped(client, catalogue, fan):
    body = refusal(await create(client, fan, catalogue["training"], 0, 5), 400, "validation_error", "event_id")
    assert "no stream" in body["message"]
    body = refusal(await create(client, fan, catalogue["channel"], 0, 5), 400, "validation_error", "event_id")
    assert "channel" in body["message"]


async def test_clips_are_limited_per_viewer_and_window(client, catalogue):
    # Start right after a window boundary so the whole test falls in one window.
    seconds = int(clock.timestamp())
    clock.advance(timedelta(seconds=CREATE_LIMIT.window - seconds % CREATE_LIMIT.window + 1))
    viewer = await sign_up(client)
    for _ in range(CREATE_LIMIT.limit):
        assert (await create(client, viewer, catalogue["archived"], 0, 1)).status_code == 200
    # Refusals of bad requests do not count; the next clip is one too many.
    refusal(await create(client, viewer, catalogue["archived"], 5, 1), 400, "invalid_time_range")
    answer = await create(client, viewer, catalogue["archived"], 0, 1)
    refusal(answer, 429, "too_many_requests")
    assert 0 < int(answer.headers["retry-after"]) <= CREATE_LIMIT.window
    other = await sign_up(client)
    assert (await create(client, other, catalogue["archived"], 0, 1)).status_code == 200


# --- list, rename, delete: the owner only ---------------------------------------------------------


async def test_user_list_shows_the_viewers_clips_newest_first(client, catalogue, fan):
    first = await made(client, fan, catalogue["archived"], 0, 2)
    clock.advance(timedelta(seconds=1))
    second = await made(client, fan, catalogue["hoops"], 0, 2, media_type="user_highlight")
    content = await user_list(client, fan, count=True, next=True)
    assert [c["_id"] for c in content["entries"]] == [second["_id"], first["_id"]]
    assert content["totalCount"] == 2 and content["nextExists"] is False
    assert all(c["availableForUser"] for c in content["entries"])
    oldest_first = await user_list(client, fan, order="asc")
    assert [c["_id"] for c in oldest_first["entries"]] == [first["_id"], second["_id"]]


async def test_user_list_filters_by_event_and_media_type(client, catalogue, fan):
    game = await made(client, fan, catalogue["archived"], 0, 2)
    highlight = await made(client, fan, catalogue["archived"], 4, 6, media_type="user_highlight")
    hoops = await made(client, fan, catalogue["hoops"], 0, 2)
    by_event = await user_list(client, fan, event_id=[catalogue["archived"]], count=True)
    assert {c["_id"] for c in by_event["entries"]} == {game["_id"], highlight["_id"]} and by_event["totalCount"] == 2
    clips = await user_list(client, fan, media_type=["user_clip"])
    assert {c["_id"] for c in clips["entries"]} == {game["_id"], hoops["_id"]}
    both = await user_list(client, fan, event_id=[catalogue["archived"]], media_type=["user_highlight"])
    assert [c["_id"] for c in both["entries"]] == [highlight["_id"]]
    assert (await user_list(client, fan, event_id=[catalogue["live"]]))["entries"] == []


async def test_user_list_pages(client, catalogue, fan):
    ids = []
    for n in range(5):
        ids.append((await made(client, fan, catalogue["archived"], n, n + 1, title=f"Moment {n}"))["_id"])
        clock.advance(timedelta(seconds=1))
    newest_first = ids[::-1]
    page0 = await user_list(client, fan, page=0, size=2, next=True, count=True)
    page2 = await user_list(client, fan, page=2, size=2, next=True, count=True)
    assert [c["_id"] for c in page0["entries"]] == newest_first[:2] and page0["nextExists"] is True
    assert [c["_id"] for c in page2["entries"]] == newest_first[4:] and page2["nextExists"] is False
    assert page0["totalCount"] == page2["totalCount"] == 5 and page0["itemsPerPage"] == 2 and page2["startIndex"] == 4
    by_title = await user_list(client, fan, sort="title", order="asc", size=3)
    assert [c["title"] for c in by_title["entries"]] == ["Moment 0", "Moment 1", "Moment 2"]


async def test_user_list_asked_without_spoilers_takes_the_score_out_of_the_viewers_titles(client, catalogue, fan):
    # The test catalogue's archived game ended 1-1; a fan may name a clip after the score.
    clip = await made(client, fan, catalogue["archived"], 0, 2, title="Hawks 1-1 Mariners, the equaliser")
    assert [c["title"] for c in (await user_list(client, fan))["entries"]] == [clip["title"]]
    answer = await client.post("/api/clip/user_list", params={"spoilers": "hide"}, json={}, headers=fan["headers"])
    assert answer.status_code == 200, answer.text
    hidden = answer.json()["content"]["entries"]
    assert [c["title"] for c in hidden] == ["Hawks vs Mariners, the equaliser"]
    assert hidden[0]["duration"] == clip["duration"]  # a clip's own length stays


async def test_user_list_needs_a_signed_in_viewer_and_a_valid_body(client, fan):
    refusal(await client.post("/api/clip/user_list", json={}), 401, "unauthorized")
    refusal(
        await client.post("/api/clip/user_list", json={"size": 101}, headers=fan["headers"]), 400, "validation_error"
    )
    refusal(
        await client.post("/api/clip/user_list", json={"media_type": ["clip"]}, headers=fan["headers"]),
        400,
        "validation_error",
    )


async def test_the_owner_renames_a_clip(client, catalogue, fan):
    clip = await made(client, fan, catalogue["archived"])
    clock.advance(timedelta(seconds=2))
    answer = await client.post(
        f"/api/clip/update/{clip['_id']}", json={"title": " Header from the corner "}, headers=fan["headers"]
    )
    assert answer.status_code == 200, answer.text
    renamed = answer.json()["content"]
    assert renamed["title"] == "Header from the corner" and renamed["updated"] > clip["updated"]
    assert (renamed["startTime"], renamed["endTime"]) == (clip["startTime"], clip["endTime"])
    assert (await user_list(client, fan))["entries"][0]["title"] == "Header from the corner"
    blank = await client.post(f"/api/clip/update/{clip['_id']}", json={"title": " "}, headers=fan["headers"])
    refusal(blank, 400, "validation_error", "title")


async def test_the_owner_deletes_a_clip(client, catalogue, fan):
    clip = await made(client, fan, catalogue["archived"])
    answer = await client.post(f"/api/clip/delete/{clip['_id']}", headers=fan["headers"])
    assert answer.status_code == 200 and answer.json() == {"content": None, "error": False, "message": ""}
    assert (await user_list(client, fan))["entries"] == []
    again = await client.post(f"/api/clip/delete/{clip['_id']}", headers=fan["headers"])
    refusal(again, 404, "clip_not_found")


async def test_another_viewer_can_neither_see_nor_change_nor_delete_a_clip(client, catalogue, fan, rival):
    clip = await made(client, fan, catalogue["archived"])
    assert (await user_list(client, rival))["entries"] == []
    assert (await user_list(client, rival, event_id=[catalogue["archived"]]))["entries"] == []
    rename = await client.post(f"/api/clip/update/{clip['_id']}", json={"title": "Mine now"}, headers=rival["headers"])
    refusal(rename, 404, "clip_not_found")
    refusal(await client.post(f"/api/clip/delete/{clip['_id']}", headers=rival["headers"]), 404, "clip_not_found")
    refusal(await client.get(f"/api/clip/get_by_id/id/{clip['_id']}", headers=rival["headers"]), 404, "clip_not_found")
    watch = await client.post("/api/user/add_to_watchlist", json={"video_id": clip["_id"]}, headers=rival["headers"])
    refusal(watch, 404, "event_not_found")
    # Untouched for its owner.
    mine = (await user_list(client, fan))["entries"]
    assert [(c["_id"], c["title"]) for c in mine] == [(clip["_id"], clip["title"])]


async def test_update_and_delete_of_ids_that_are_no_clip_are_not_found(client, catalogue, fan):
    for ident in ("f" * 24, catalogue["goal"], catalogue["archived"]):  # nobody's; a catalogue clip; an event
        refusal(
            await client.post(f"/api/clip/update/{ident}", json={"title": "x"}, headers=fan["headers"]),
            404,
            "clip_not_found",
        )
        refusal(await client.post(f"/api/clip/delete/{ident}", headers=fan["headers"]), 404, "clip_not_found")
    refusal(await client.post("/api/clip/delete/not-an-id", headers=fan["headers"]), 400, "validation_error")


# --- public lists and lookups ---------------------------------------------------------------------


async def test_user_clips_are_in_no_public_list(client, catalogue, fan):
    clip = await made(client, fan, catalogue["archived"])
    who: dict[str, str]
    for who in ({}, fan["headers"]):
        listed = (await client.post("/api/clip/list", json={"event_id": [catalogue["archived"]]}, headers=who)).json()
        assert clip["_id"] not in {c["_id"] for c in listed["content"]["entries"]}
        events = await client.post("/api/event/list", json={"filters": {"media_type": ["user_clip"]}}, headers=who)
        assert events.status_code == 200 and events.json()["content"]["entries"] == []
        related = await client.get("/api/vod/get_related_videos", params={"id": catalogue["archived"]}, headers=who)
        assert clip["_id"] not in {c["_id"] for c in related.json()["content"]["entries"]}
    refusal(await client.get(f"/api/event/get_by_id/id/{clip['_id']}", headers=fan["headers"]), 404, "event_not_found")


async def test_the_owner_gets_a_clip_by_id_and_nobody_else_does(client, catalogue, fan):
    clip = await made(client, fan, catalogue["archived"])
    mine = await client.get(f"/api/clip/get_by_id/id/{clip['_id']}", headers=fan["headers"])
    assert mine.status_code == 200 and mine.json()["content"]["availableForUser"] is True
    typed = await client.get(
        f"/api/clip/get_by_id/id/{clip['_id']}", params={"media_type": "user_clip"}, headers=fan["headers"]
    )
    assert typed.status_code == 200
    refusal(await client.get(f"/api/clip/get_by_id/id/{clip['_id']}"), 404, "clip_not_found")


async def test_a_clip_of_a_bought_match_stays_available_to_its_owner(client, database, fan, rival):
    match = await paid_event(database, status="archived", when=clock.now() - timedelta(days=1))
    await buy(database, fan["profile"]["userId"], match.id)
    clip = await made(client, fan, match.id)
    async with database.session() as db:  # the purchase is gone (refunded, say): the clip is still theirs
        await db.execute(delete(Purchase).where(Purchase.user_id == fan["profile"]["userId"]))
        await db.commit()
    match_now = await client.get(f"/api/event/get_by_id/id/{match.id}", headers=fan["headers"])
    assert match_now.json()["content"]["availableForUser"] is False
    listed = (await user_list(client, fan))["entries"]
    assert listed[0]["_id"] == clip["_id"] and listed[0]["availableForUser"] is True
    assert as_sample(listed[0]["content"]["HLSStream"]).startswith(
        f"/media/vod/football/clip-{clip['startTime']}-{clip['endTime']}/index.m3u8?token="
    )


# --- account deletion -----------------------------------------------------------------------------


async def test_deleting_the_account_removes_the_viewers_clips(client, database, catalogue, fan, rival):
    await made(client, fan, catalogue["archived"])
    await made(client, fan, catalogue["hoops"], 0, 3, media_type="user_highlight")
    kept = await made(client, rival, catalogue["archived"])
    answer = await client.post("/api/user/delete_account", headers=fan["headers"])
    assert answer.status_code == 200, answer.text
    async with database.session() as db:
        left = (
            await db.execute(select(func.count()).select_from(Event).where(Event.owner_id == fan["profile"]["userId"]))
        ).scalar_one()
        assert left == 0
        assert await db.get(Event, kept["_id"]) is not None


async def test_a_clip_goes_with_the_event_it_was_cut_from(client, database, fan):
    match = await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="archived",
        when=clock.now() - timedelta(days=1),
        hls_stream=vod_url("football"),
    )
    clip = await made(client, fan, match.id)
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.id == match.id))
        await db.commit()
        assert await db.get(Event, clip["_id"]) is None
