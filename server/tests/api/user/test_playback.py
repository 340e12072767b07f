"""Playback positions through the API: the viewer's own positions in archived events and clips,
"Continue watching" and resuming."""

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from server import clock
from server.models import Event, PlaybackPosition, new_id
from server.tests.accounts import sign_up

NOBODY = "f" * 24


@pytest.fixture
async def user(client):
    return await sign_up(client)


async def save(client, user, video_id: str, position: float, duration: float = 5400):
    body = {"video_id": video_id, "position": position, "duration": duration}
    return await client.post("/api/user/save_playback_position", json=body, headers=user["headers"])


async def save_ok(client, user, video_id: str, position: float, duration: float = 5400) -> dict:
    response = await save(client, user, video_id, position, duration)
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def resume_at(client, user, video_id: str) -> Any:
    """The position to resume at (a dict), or None."""
    response = await client.get(
        "/api/user/get_playback_position", params={"video_id": video_id}, headers=user["headers"]
    )
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def continue_watching(client, user, **params) -> dict:
    response = await client.get("/api/user/get_continue_watching", params=params, headers=user["headers"])
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def listed(client, user) -> list[tuple[str, float]]:
    return [(entry["video_id"], entry["position"]) for entry in (await continue_watching(client, user))["entries"]]


async def remove(client, user, video_id: str):
    return await client.post("/api/user/remove_playback_position", json={"video_id": video_id}, headers=user["headers"])


async def rows_of(database, user) -> int:
    async with database.session() as db:
        count = select(func.count()).select_from(PlaybackPosition)
        return await db.scalar(count.where(PlaybackPosition.user_id == user["profile"]["userId"]))


def assert_error(response, status: int, code: str):
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] is True and body["messageErrorCode"] == code and body["message"]


async def test_a_saved_position_is_resumed_and_listed_with_its_video(client, catalogue, user):
    saved = await save_ok(client, user, catalogue["archived"], 754.5)
    assert (saved["video_id"], saved["position"], saved["duration"]) == (catalogue["archived"], 754.5, 5400)
    assert saved["updated"].endswith("Z")
    assert (await resume_at(client, user, catalogue["archived"]))["position"] == 754.5
    page = await continue_watching(client, user, count=True)
    assert page["totalCount"] == 1
    [entry] = page["entries"]
    assert (entry["position"], entry["duration"]) == (754.5, 5400)
    assert entry["video"]["_id"] == catalogue["archived"] and entry["video"]["status"] == "archived"
    assert entry["video"]["eventTeams"]["homeTeam"]["name"]


async def test_a_new_report_replaces_the_last_one(client, catalogue, user, database):
    await save_ok(client, user, catalogue["archived"], 100)
    await save_ok(client, user, catalogue["archived"], 460)
    assert await listed(client, user) == [(catalogue["archived"], 460)]
    assert await rows_of(database, user) == 1


async def test_concurrent_reports_of_one_video_leave_one_row(client, catalogue, user, database):
    positions = [30, 40, 50, 60, 70, 80]
    answers = await asyncio.gather(*(save(client, user, catalogue["archived"], p) for p in positions))
    assert [a.status_code for a in answers] == [200] * len(positions)
    assert await rows_of(database, user) == 1
    [(video_id, position)] = await listed(client, user)
    assert video_id == catalogue["archived"] and position in positions


async def test_continue_watching_lists_the_most_recently_watched_first_and_pages(client, catalogue, user):
    for video in ("archived", "goal", "recap"):
        await save_ok(client, user, catalogue[video], 20, duration=100)
        clock.advance(timedelta(seconds=5))
    await save_ok(client, user, catalogue["archived"], 30, duration=100)  # watched again: first now
    assert [video for video, _ in await listed(client, user)] == [
        catalogue["archived"],
        catalogue["recap"],
        catalogue["goal"],
    ]
    first = await continue_watching(client, user, size=2, next=True, count=True)
    assert [e["video_id"] for e in first["entries"]] == [catalogue["archived"], catalogue["recap"]]
    assert (first["nextExists"], first["totalCount"]) == (True, 3)
    last = await continue_watching(client, user, page=1, size=2, next=True)
    assert [e["video_id"] for e in last["entries"]] == [catalogue["goal"]] and last["nextExists"] is False


async def test_barely_started_and_finished_videos_are_neither_listed_nor_resumed(client, catalogue, user):
    await save_ok(client, user, catalogue["archived"], 9.5, duration=1000)  # under 10 s: not started
    await save_ok(client, user, catalogue["goal"], 950, duration=1000)  # 95 %: finished
    await save_ok(client, user, catalogue["recap"], 949, duration=1000)  # still watching
    assert await listed(client, user) == [(catalogue["recap"], 949)]
    assert await resume_at(client, user, catalogue["archived"]) is None
    assert await resume_at(client, user, catalogue["goal"]) is None
    assert (await resume_at(client, user, catalogue["recap"]))["position"] == 949
    # Watching from the start again (a report under 10 s) takes a video off the list.
    await save_ok(client, user, catalogue["recap"], 2, duration=1000)
    assert await listed(client, user) == []


async def test_nothing_saved_resumes_nowhere(client, catalogue, user):
    assert await resume_at(client, user, catalogue["archived"]) is None
    assert await resume_at(client, user, NOBODY) is None
    assert (await continue_watching(client, user))["entries"] == []


async def test_another_viewer_never_sees_or_changes_my_positions(client, catalogue):
    ada, bob = await sign_up(client), await sign_up(client)
    await save_ok(client, ada, catalogue["archived"], 600)
    assert await listed(client, bob) == []
    assert await resume_at(client, bob, catalogue["archived"]) is None
    assert (await remove(client, bob, catalogue["archived"])).status_code == 200
    await save_ok(client, bob, catalogue["archived"], 1200)
    assert await listed(client, ada) == [(catalogue["archived"], 600)]


async def test_removing_a_position_takes_it_off_the_list_and_removing_an_absent_one_is_harmless(
    client, catalogue, user
):
    await save_ok(client, user, catalogue["archived"], 600)
    await save_ok(client, user, catalogue["goal"], 20, duration=60)
    response = await remove(client, user, catalogue["archived"])
    assert response.status_code == 200 and response.json() == {"content": None, "error": False, "message": ""}
    assert await listed(client, user) == [(catalogue["goal"], 20)]
    for absent in (catalogue["archived"], NOBODY):
        assert (await remove(client, user, absent)).status_code == 200
    assert await listed(client, user) == [(catalogue["goal"], 20)]


async def test_playback_positions_need_a_signed_in_viewer(client, catalogue):
    body = {"video_id": catalogue["archived"], "position": 20, "duration": 100}
    assert_error(await client.post("/api/user/save_playback_position", json=body), 401, "unauthorized")
    assert_error(
        await client.post("/api/user/remove_playback_position", json={"video_id": NOBODY}), 401, "unauthorized"
    )
    assert_error(await client.get("/api/user/get_continue_watching"), 401, "unauthorized")
    response = await client.get("/api/user/get_playback_position", params={"video_id": catalogue["archived"]})
    assert_error(response, 401, "unauthorized")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"position": -1, "duration": 100}, "position"),
        ({"position": 101, "duration": 100}, "position"),
        ({"position": 0, "duration": 0}, "duration"),
        ({"position": 10, "duration": -5}, "duration"),
        ({"position": "ten", "duration": 100}, "position"),
        ({"position": 10}, None),
        ({"position": 10, "duration": 100, "extra": 1}, None),
        ({"video_id": "not-an-id", "position": 10, "duration": 100}, "video_id"),
    ],
)
async def test_bad_reports_are_refused_with_a_clear_error(client, catalogue, user, database, body, field):
    response = await client.post(
        "/api/user/save_playback_position", json={"video_id": catalogue["archived"], **body}, headers=user["headers"]
    )
    assert_error(response, 400, "validation_error")
    if field:
        assert response.json()["details"][0]["field"] == field
    assert await rows_of(database, user) == 0


async def test_bad_lookups_are_refused_with_a_clear_error(client, user):
    for params in ({"video_id": "nope"}, {}):
        response = await client.get("/api/user/get_playback_position", params=params, headers=user["headers"])
        assert_error(response, 400, "validation_error")
    response = await client.get("/api/user/get_continue_watching", params={"size": 101}, headers=user["headers"])
    assert_error(response, 400, "validation_error")


async def test_an_unknown_video_or_another_viewers_clip_is_not_found(client, catalogue, user, database):
    assert_error(await save(client, user, NOBODY, 20), 404, "event_not_found")
    owner = await sign_up(client)
    clip_id = new_id()
    async with database.session() as db:
        parent = await db.get(Event, catalogue["archived"])
        db.add(
            Event(
                id=clip_id,
                media_type="user_clip",
                title="Someone else's clip",
                event_date=parent.event_date,
                external_id=f"TL-PB-{clip_id[:8]}",
                reference_id=f"ref-pb-{clip_id}",
                status="archived",
                parent_event_id=parent.id,
                owner_id=owner["profile"]["userId"],
            )
        )
        await db.commit()
    assert_error(await save(client, user, clip_id, 20, duration=30), 404, "event_not_found")
    assert (await save(client, owner, clip_id, 20, duration=30)).status_code == 200  # the owner's own clip


async def test_live_upcoming_and_channel_events_keep_no_position(client, catalogue, user, database):
    for video in ("live", "upcoming", "channel"):
        assert_error(await save(client, user, catalogue[video], 60), 409, "not_resumable")
    assert await rows_of(database, user) == 0


async def test_deleting_the_account_deletes_its_positions(client, catalogue, user, database):
    await save_ok(client, user, catalogue["archived"], 600)
    assert await rows_of(database, user) == 1
    assert (await client.post("/api/user/delete_account", headers=user["headers"])).status_code == 200
    assert await rows_of(database, user) == 0


async def test_continue_watching_asked_without_spoilers_carries_no_score(client, seeded_match, user):
    highlight = seeded_match.highlight
    await save_ok(client, user, highlight["id"], 20, highlight["duration_s"])
    for params in ({}, {"spoilers": "show"}):
        shown = await continue_watching(client, user, **params)
        assert seeded_match.shows_score(shown), params
    hidden = await continue_watching(client, user, spoilers="hide")
    [entry] = hidden["entries"]
    assert entry["video_id"] == highlight["id"] and entry["position"] == 20
    assert not seeded_match.shows_score(hidden)
    assert entry["video"]["title"] == f"Highlights: {seeded_match.home_name} vs {seeded_match.away_name}"
    refused = await client.get("/api/user/get_continue_watching", params={"spoilers": 1}, headers=user["headers"])
    assert refused.status_code == 400 and refused.json()["messageErrorCode"] == "validation_error"
