"""The `follow` operations: main categories, leagues and teams the signed-in viewer follows."""

import asyncio

import pytest

from server import clock
from server.models import Follow, new_id
from server.services import follows as follows_service
from server.tests.accounts import sign_up

NOBODY = "f" * 24


@pytest.fixture
async def user(client):
    return await sign_up(client)


async def save(client, user, reference_id: str, type_: str):
    return await client.post(
        "/api/follow/save", json={"reference_id": reference_id, "type": type_}, headers=user["headers"]
    )


async def saved(client, user, reference_id: str, type_: str) -> dict:
    response = await save(client, user, reference_id, type_)
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def remove(client, user, reference_id: str):
    return await client.post("/api/follow/remove_by_reference", json={"id": reference_id}, headers=user["headers"])


async def listed(client, user, **params) -> dict:
    response = await client.get("/api/follow/list_by_user", params=params, headers=user["headers"])
    assert response.status_code == 200, response.text
    return response.json()["content"]


def ids(page: dict) -> list[str]:
    return [e["reference_id"] for e in page["entries"]]


def assert_error(response, status: int, code: str):
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] is True and body["messageErrorCode"] == code and body["message"]


async def test_a_new_account_follows_nothing(client, user):
    page = await listed(client, user)
    assert page["entries"] == [] and page["itemsPerPage"] == 150 and page["startIndex"] == 0


async def test_following_a_league_answers_the_follow_with_the_league(client, catalogue, user):
    follow = await saved(client, user, catalogue["npd"], "identity_item")
    assert (follow["reference_id"], follow["type"]) == (catalogue["npd"], "identity_item")
    item = follow["item"]
    assert (item["_id"], item["title"], item["media_type"]) == (
        catalogue["npd"],
        "Northern Premier Division",
        "identity_item",
    )
    assert item["identityId"] == [catalogue["football"]]
    assert (await listed(client, user))["entries"] == [follow]


async def test_a_followed_team_carries_its_logo_and_categories(client, catalogue, user):
    item = (await saved(client, user, catalogue["hawks"], "team"))["item"]
    assert (item["media_type"], item["title"], item["shortName"]) == ("team", "Eastfield Hawks", "EFH")
    assert item["logo"] == "/media/logos/efh.svg"
    assert set(item["identityId"]) == {catalogue["npd"], catalogue["cup"], catalogue["football"]}


async def test_follows_are_listed_most_recent_first_and_filter_by_type(client, catalogue, user):
    await saved(client, user, catalogue["football"], "identity")
    await saved(client, user, catalogue["npd"], "identity_item")
    await saved(client, user, catalogue["mariners"], "team")
    await saved(client, user, catalogue["cup"], "identity_item")
    assert ids(await listed(client, user)) == [catalogue[k] for k in ("cup", "mariners", "npd", "football")]
    teams_and_leagues = await listed(client, user, **{"types[]": ["team", "identity_item"]})
    assert ids(teams_and_leagues) == [catalogue[k] for k in ("cup", "mariners", "npd")]
    assert ids(await listed(client, user, **{"types[]": "identity"})) == [catalogue["football"]]
    second = await listed(client, user, page=1, size=3, version=2)
    assert ids(second) == [catalogue["football"]] and second["startIndex"] == 3


async def test_following_twice_is_harmless_and_keeps_the_first_follow(client, catalogue, user):
    first = await saved(client, user, catalogue["cbl"], "identity_item")
    again = await saved(client, user, catalogue["cbl"], "identity_item")
    assert again == first
    assert ids(await listed(client, user)) == [catalogue["cbl"]]


async def test_nothing_of_that_type_with_the_id_is_not_found(client, catalogue, user):
    assert_error(await save(client, user, NOBODY, "team"), 404, "identity_not_found")
    assert_error(await save(client, user, NOBODY, "identity_item"), 404, "identity_not_found")
    # The id exists, but as another kind of item.
    assert_error(await save(client, user, catalogue["npd"], "team"), 404, "identity_not_found")
    assert_error(await save(client, user, catalogue["hawks"], "identity_item"), 404, "identity_not_found")
    assert_error(await save(client, user, catalogue["npd"], "identity"), 404, "identity_not_found")
    assert (await listed(client, user))["entries"] == []


async def test_bad_input_is_refused_with_a_clear_error(client, catalogue, user):
    assert_error(await save(client, user, catalogue["npd"], "league"), 400, "validation_error")
    assert_error(await save(client, user, "not-an-id", "team"), 400, "validation_error")
    response = await client.post("/api/follow/save", json={"reference_id": catalogue["npd"]}, headers=user["headers"])
    assert_error(response, 400, "validation_error")
    assert_error(await remove(client, user, "x"), 400, "validation_error")
    for params in ({"size": 501}, {"version": 1}, {"types[]": "player"}):
        response = await client.get("/api/follow/list_by_user", params=params, headers=user["headers"])
        assert_error(response, 400, "validation_error")


async def test_unfollowing_by_the_items_id_and_unfollowing_twice_is_harmless(client, catalogue, user):
    await saved(client, user, catalogue["npd"], "identity_item")
    await saved(client, user, catalogue["rovers"], "team")
    response = await remove(client, user, catalogue["npd"])
    assert response.status_code == 200 and response.json() == {"content": None, "error": False, "message": ""}
    assert ids(await listed(client, user)) == [catalogue["rovers"]]
    for absent in (catalogue["npd"], NOBODY):
        assert (await remove(client, user, absent)).status_code == 200
    assert ids(await listed(client, user)) == [catalogue["rovers"]]


async def test_following_needs_a_signed_in_viewer(client, catalogue):
    assert_error(await client.get("/api/follow/list_by_user"), 401, "unauthorized")
    response = await client.post("/api/follow/save", json={"reference_id": catalogue["npd"], "type": "identity_item"})
    assert_error(response, 401, "unauthorized")
    assert_error(
        await client.post("/api/follow/remove_by_reference", json={"id": catalogue["npd"]}), 401, "unauthorized"
    )


async def test_a_user_never_sees_or_changes_another_users_follows(client, catalogue):
    ada, bob = await sign_up(client), await sign_up(client)
    await saved(client, ada, catalogue["tigers"], "team")
    assert (await listed(client, bob))["entries"] == []
    assert (await remove(client, bob, catalogue["tigers"])).status_code == 200
    assert ids(await listed(client, ada)) == [catalogue["tigers"]]


async def test_a_viewer_follows_at_most_the_limit(client, catalogue, user, monkeypatch):
    monkeypatch.setattr(follows_service, "FOLLOW_LIMIT", 3)
    for key, kind in (("npd", "identity_item"), ("cup", "identity_item"), ("hawks", "team")):
        await saved(client, user, catalogue[key], kind)
    assert_error(await save(client, user, catalogue["bears"], "team"), 409, "follow_limit_reached")
    # Following again what is followed already still works at the limit; unfollowing makes room.
    assert (await save(client, user, catalogue["npd"], "identity_item")).status_code == 200
    await remove(client, user, catalogue["cup"])
    assert (await save(client, user, catalogue["bears"], "team")).status_code == 200
    assert len((await listed(client, user))["entries"]) == 3


async def test_concurrent_follows_never_pass_the_limit(client, catalogue, user, monkeypatch):
    monkeypatch.setattr(follows_service, "FOLLOW_LIMIT", 2)
    teams = [catalogue[k] for k in ("mariners", "rovers", "hawks", "tigers", "bears")]
    answers = await asyncio.gather(*(save(client, user, team, "team") for team in teams))
    assert sorted(a.status_code for a in answers) == [200, 200, 409, 409, 409]
    assert len((await listed(client, user))["entries"]) == 2


async def test_concurrent_follows_of_the_same_item_keep_one_follow(client, catalogue, user):
    answers = await asyncio.gather(*(save(client, user, catalogue["football"], "identity") for _ in range(5)))
    assert [a.status_code for a in answers] == [200] * 5
    assert len({a.json()["content"]["_id"] for a in answers}) == 1
    assert ids(await listed(client, user)) == [catalogue["football"]]


async def test_follows_of_items_gone_from_the_catalogue_are_neither_listed_nor_counted(
    client, catalogue, database, user, monkeypatch
):
    async with database.session() as db:  # a follow whose team has since been deleted
        db.add(
            Follow(
                id=new_id(), user_id=user["profile"]["userId"], type="team", reference_id=NOBODY, created=clock.now()
            )
        )
        await db.commit()
    monkeypatch.setattr(follows_service, "FOLLOW_LIMIT", 1)
    assert (await listed(client, user))["entries"] == []
    assert (await save(client, user, catalogue["bears"], "team")).status_code == 200
    assert ids(await listed(client, user)) == [catalogue["bears"]]
