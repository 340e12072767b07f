"""The watchlist operations: the signed-in viewer's own list of events and clips to watch later."""

import asyncio

import pytest

from server.services import watchlist as watchlist_service
from server.tests.accounts import sign_up

NOBODY = "f" * 24


@pytest.fixture
async def user(client):
    return await sign_up(client)


async def add(client, user, video_id: str):
    return await client.post("/api/user/add_to_watchlist", json={"video_id": video_id}, headers=user["headers"])


async def remove(client, user, video_id: str):
    return await client.post("/api/user/remove_from_watchlist", json={"video_id": video_id}, headers=user["headers"])


async def selected(client, user) -> list[str]:
    response = await client.get("/api/user/get_watchlist_ids", headers=user["headers"])
    assert response.status_code == 200, response.text
    return response.json()["content"]["selected"]


async def watchlist(client, user, **params) -> dict:
    response = await client.get("/api/user/get_watchlist", params=params, headers=user["headers"])
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def add_all(client, user, *ids: str) -> None:
    for video_id in ids:  # one after the other: each is newer than the one before
        assert (await add(client, user, video_id)).status_code == 200


def assert_error(response, status: int, code: str):
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] is True and body["messageErrorCode"] == code and body["message"]


async def test_a_new_account_has_an_empty_watchlist(client, user):
    assert await selected(client, user) == []
    page = await watchlist(client, user, next=True, count=True)
    assert page["entries"] == [] and page["totalCount"] == 0 and page["nextExists"] is False


async def test_added_items_come_back_most_recent_first(client, catalogue, user):
    response = await add(client, user, catalogue["archived"])
    assert response.json()["content"] == {"selected": [catalogue["archived"]]}
    await add_all(client, user, catalogue["goal"], catalogue["live"])
    expected = [catalogue["live"], catalogue["goal"], catalogue["archived"]]
    assert await selected(client, user) == expected
    page = await watchlist(client, user)
    assert [e["_id"] for e in page["entries"]] == expected
    clip = page["entries"][1]
    assert clip["media_type"] == "clip" and clip["title"] == "Goal: Mariners equalise"
    assert page["entries"][0]["eventTeams"]["homeTeam"]["name"] == "Harbor City Mariners"


async def test_the_watchlist_pages_like_every_list(client, catalogue, user):
    ids = [catalogue[k] for k in ("archived", "hoops", "recap", "dunk", "channel")]
    await add_all(client, user, *ids)
    newest_first = ids[::-1]
    first = await watchlist(client, user, page=0, size=2, next=True, count=True)
    assert [e["_id"] for e in first["entries"]] == newest_first[:2]
    assert (first["totalCount"], first["nextExists"], first["itemsPerPage"], first["startIndex"]) == (5, True, 2, 0)
    last = await watchlist(client, user, page=2, size=2, next=True)
    assert [e["_id"] for e in last["entries"]] == newest_first[4:]
    assert (last["nextExists"], last["totalCount"], last["startIndex"]) == (False, None, 4)


async def test_a_signed_in_viewer_sees_members_only_items_as_available(client, catalogue, user):
    await add(client, user, catalogue["hoops"])  # commerce_members_media
    assert (await watchlist(client, user))["entries"][0]["availableForUser"] is True


async def test_adding_twice_is_harmless_and_keeps_the_first_place(client, catalogue, user):
    await add_all(client, user, catalogue["live"], catalogue["upcoming"])
    again = await add(client, user, catalogue["live"])
    assert again.status_code == 200
    assert again.json()["content"]["selected"] == [catalogue["upcoming"], catalogue["live"]]


async def test_removing_takes_an_item_off_and_removing_an_absent_one_is_harmless(client, catalogue, user):
    await add_all(client, user, catalogue["live"], catalogue["upcoming"])
    response = await remove(client, user, catalogue["live"])
    assert response.status_code == 200 and response.json()["content"]["selected"] == [catalogue["upcoming"]]
    for absent in (catalogue["live"], NOBODY):
        response = await remove(client, user, absent)
        assert response.status_code == 200 and response.json()["content"]["selected"] == [catalogue["upcoming"]]


async def test_an_unknown_event_cannot_be_added(client, user):
    assert_error(await add(client, user, NOBODY), 404, "event_not_found")
    assert await selected(client, user) == []


async def test_bad_input_is_refused_with_a_clear_error(client, catalogue, user):
    for body in ({"video_id": "not-an-id"}, {}, {"video_id": catalogue["live"], "extra": 1}):
        response = await client.post("/api/user/add_to_watchlist", json=body, headers=user["headers"])
        assert_error(response, 400, "validation_error")
    response = await client.get("/api/user/get_watchlist", params={"size": 101}, headers=user["headers"])
    assert_error(response, 400, "validation_error")
    assert response.json()["details"][0]["field"] == "size"


async def test_the_watchlist_needs_a_signed_in_viewer(client, catalogue):
    assert_error(await client.get("/api/user/get_watchlist"), 401, "unauthorized")
    assert_error(await client.get("/api/user/get_watchlist_ids"), 401, "unauthorized")
    for op in ("add_to_watchlist", "remove_from_watchlist"):
        assert_error(await client.post(f"/api/user/{op}", json={"video_id": catalogue["live"]}), 401, "unauthorized")


async def test_a_user_never_sees_or_changes_another_users_watchlist(client, catalogue):
    ada, bob = await sign_up(client), await sign_up(client)
    await add(client, ada, catalogue["live"])
    assert await selected(client, bob) == [] and (await watchlist(client, bob))["entries"] == []
    # Bob removing the same item only touches his own (empty) list.
    assert (await remove(client, bob, catalogue["live"])).json()["content"]["selected"] == []
    assert await selected(client, ada) == [catalogue["live"]]


async def test_the_watchlist_holds_at_most_the_limit(client, catalogue, user, monkeypatch):
    monkeypatch.setattr(watchlist_service, "WATCHLIST_LIMIT", 3)
    await add_all(client, user, catalogue["live"], catalogue["upcoming"], catalogue["archived"])
    assert_error(await add(client, user, catalogue["hoops"]), 409, "watchlist_full")
    # Items already on a full list can still be added (a no-op), and removing makes room.
    assert (await add(client, user, catalogue["live"])).status_code == 200
    await remove(client, user, catalogue["upcoming"])
    assert (await add(client, user, catalogue["hoops"])).status_code == 200
    assert len(await selected(client, user)) == 3


async def test_concurrent_adds_never_pass_the_limit(client, catalogue, user, monkeypatch):
    monkeypatch.setattr(watchlist_service, "WATCHLIST_LIMIT", 3)
    await add(client, user, catalogue["live"])
    candidates = [catalogue[k] for k in ("upcoming", "archived", "hoops", "channel", "training", "recap", "dunk")]
    answers = await asyncio.gather(*(add(client, user, c) for c in candidates))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200, 200] + [409] * (len(candidates) - 2)
    assert all(a.json()["messageErrorCode"] == "watchlist_full" for a in answers if a.status_code == 409)
    assert len(await selected(client, user)) == 3


async def test_concurrent_adds_of_the_same_item_keep_one_entry(client, catalogue, user):
    answers = await asyncio.gather(*(add(client, user, catalogue["goal"]) for _ in range(6)))
    assert [a.status_code for a in answers] == [200] * 6
    assert await selected(client, user) == [catalogue["goal"]]


async def test_the_watchlist_asked_without_spoilers_carries_no_score_and_no_matchs_length(client, seeded_match, user):
    game, highlight = seeded_match.game, seeded_match.highlight
    await add_all(client, user, game["id"], highlight["id"])
    for params in ({}, {"spoilers": "show"}):
        shown = await watchlist(client, user, **params)
        assert seeded_match.shows_score(shown), params
    hidden = {e["_id"]: e for e in (await watchlist(client, user, spoilers="hide"))["entries"]}
    assert set(hidden) == {game["id"], highlight["id"]}
    assert not seeded_match.shows_score(list(hidden.values()))
    assert hidden[game["id"]]["duration"] is None
    assert hidden[highlight["id"]]["duration"] == highlight["duration_s"]
    response = await client.get("/api/user/get_watchlist", params={"spoilers": "off"}, headers=user["headers"])
    assert_error(response, 400, "validation_error")
