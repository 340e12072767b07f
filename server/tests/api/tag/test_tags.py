"""Timeline tags: a viewer's private tags, global tags of viewers allowed to create them, and the
official match tags the seed loads; times sent in seconds and answered in milliseconds."""

import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import delete, select, update

from server import clock
from server.app import create_api
from server.models import Event, EventStats, Tag, Team, User
from server.seed.catalogue import build_catalogue, table_of
from server.seed.loader import upsert
from server.tests.accounts import sign_up
from server.tests.conftest import with_state
from server.tests.mailbox import recording_socket

NOBODY = "f" * 24
SAMPLE_SECONDS = 24  # fixtures/media/football: what the test catalogue's archived game plays


@pytest.fixture(autouse=True)
async def no_tags_left_behind(database):
    """The catalogue is shared by the session: each test starts with no tags on it."""
    yield
    async with database.session() as db:
        await db.execute(delete(Tag))
        await db.commit()


@pytest.fixture
async def viewer(client):
    return await sign_up(client)


@pytest.fixture
async def other(client):
    return await sign_up(client)


async def allow_global_tags(database, account, allowed: bool = True) -> None:
    async with database.session() as db:
        await db.execute(update(User).where(User.id == account["profile"]["userId"]).values(global_tags=allowed))
        await db.commit()


@pytest.fixture
async def tagger(client, database):
    """A viewer whose profile has `globalTags: true` (set in the database, as staff would)."""
    account = await sign_up(client)
    await allow_global_tags(database, account)
    return account


OMIT = object()  # a field left out of the request


def tag_body(target: str, **fields) -> dict:
    body = {"targetId": target, "startTime": 5, "endTime": 9.5, "videoType": "vod", **fields}
    return {name: value for name, value in body.items() if value is not OMIT}


async def save(client, account, target: str, **fields):
    return await client.post("/api/tag/saveV2", json=tag_body(target, **fields), headers=account["headers"])


async def saved(client, account, target: str, **fields) -> dict:
    response = await save(client, account, target, **fields)
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def listed(client, account, target: str, *, global_: bool, **paging) -> dict:
    body = {"targetId": target, "global": global_, "page": 0, "size": 999, **paging}
    response = await client.post("/api/tag/list", json=body, headers=account["headers"])
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def listed_ids(client, account, target: str, *, global_: bool) -> list[str]:
    return [t["_id"] for t in (await listed(client, account, target, global_=global_))["entries"]]


async def update_tag(client, account, tag_id: str, **fields):
    return await client.post("/api/tag/update", json={"_id": tag_id, **fields}, headers=account["headers"])


async def remove(client, account, *ids: str):
    return await client.post("/api/tag/remove_list", json={"ids": list(ids)}, headers=account["headers"])


def assert_error(response, status: int, code: str, field: str | None = None):
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] is True and body["messageErrorCode"] == code and body["message"]
    if field is not None:
        assert [d.get("field") for d in body["details"]] == [field], body


# --- saving and listing -------------------------------------------------------------------------


async def test_a_saved_tag_is_answered_with_its_times_in_milliseconds(client, catalogue, viewer):
    tag = await saved(
        client,
        viewer,
        catalogue["archived"],
        title="Goal",
        startTime=5.25,
        endTime=9.5,
        type="player",
        subtype="goal",
        playerNumber="9",
        playerColor="#0b3d91",
        teamId=catalogue["hawks"],
        mode="sync",
        streamName="hd",
    )
    assert (tag["startTime"], tag["endTime"], tag["timePTS"]) == (5250, 9500, None)
    assert tag["targetId"] == catalogue["archived"] and tag["userId"] == viewer["profile"]["userId"]
    assert (tag["title"], tag["type"], tag["subtype"], tag["playerNumber"], tag["playerColor"]) == (
        "Goal",
        "player",
        "goal",
        "9",
        "#0b3d91",
    )
    assert (tag["teamId"], tag["global"], tag["videoType"], tag["streamName"], tag["mode"]) == (
        catalogue["hawks"],
        False,
        "vod",
        "hd",
        "sync",
    )
    assert tag["added"] == tag["updated"] and tag["added"].endswith("Z")
    again = (await listed(client, viewer, catalogue["archived"], global_=False))["entries"]
    assert again == [tag]


async def test_a_tag_saved_without_a_title_is_called_no_title(client, catalogue, viewer):
    untitled = await saved(client, viewer, catalogue["archived"])
    blank = await saved(client, viewer, catalogue["archived"], title="   ")
    assert untitled["title"] == blank["title"] == "NO TITLE"
    assert (untitled["type"], untitled["mode"], untitled["streamName"]) == ("user", "sync", "hd")
    no_end = await saved(client, viewer, catalogue["archived"], endTime=OMIT)
    assert no_end["endTime"] is None


async def test_the_viewers_own_tags_are_listed_in_timeline_order(client, catalogue, viewer):
    late = await saved(client, viewer, catalogue["archived"], startTime=12, endTime=13)
    early = await saved(client, viewer, catalogue["archived"], startTime=3, endTime=4)
    middle = await saved(client, viewer, catalogue["archived"], startTime=7, endTime=8)
    await saved(client, viewer, catalogue["recap"], startTime=1, endTime=2)  # another video's
    page = await listed(client, viewer, catalogue["archived"], global_=False)
    assert [t["_id"] for t in page["entries"]] == [early["_id"], middle["_id"], late["_id"]]
    assert (page["entryCount"], page["itemsPerPage"], page["startIndex"]) == (3, 999, 0)
    assert await listed_ids(client, viewer, catalogue["archived"], global_=True) == []  # private, not global


async def test_private_tags_are_invisible_to_other_viewers(client, catalogue, viewer, other):
    await saved(client, viewer, catalogue["archived"])
    assert await listed_ids(client, other, catalogue["archived"], global_=False) == []
    assert await listed_ids(client, other, catalogue["archived"], global_=True) == []


async def test_the_list_pages_up_to_999_tags_at_once(client, catalogue, viewer):
    ids = [(await saved(client, viewer, catalogue["archived"], startTime=n, endTime=n))["_id"] for n in range(3)]
    first = await listed(client, viewer, catalogue["archived"], global_=False, size=2, next=True, count=True)
    assert [t["_id"] for t in first["entries"]] == ids[:2]
    assert (first["nextExists"], first["totalCount"], first["itemsPerPage"]) == (True, 3, 2)
    last = await listed(client, viewer, catalogue["archived"], global_=False, page=1, size=2, next=True)
    assert [t["_id"] for t in last["entries"]] == ids[2:] and last["nextExists"] is False
    default = await client.post("/api/tag/list", json={"targetId": catalogue["archived"]}, headers=viewer["headers"])
    assert default.json()["content"]["itemsPerPage"] == 999  # and `global` defaults to false
    assert [t["_id"] for t in default.json()["content"]["entries"]] == ids
    too_many = await client.post(
        "/api/tag/list", json={"targetId": catalogue["archived"], "size": 1000}, headers=viewer["headers"]
    )
    assert_error(too_many, 400, "validation_error", "size")


async def test_an_unknown_video_is_404(client, viewer):
    assert_error(await save(client, viewer, NOBODY), 404, "event_not_found")
    response = await client.post("/api/tag/list", json={"targetId": NOBODY, "global": True}, headers=viewer["headers"])
    assert_error(response, 404, "event_not_found")


# --- global tags --------------------------------------------------------------------------------


async def test_a_viewer_without_global_tags_cannot_save_a_global_tag(client, catalogue, viewer):
    profile = (await client.get("/api/user/get_profile", headers=viewer["headers"])).json()["content"]
    assert profile["globalTags"] is False
    assert_error(await save(client, viewer, catalogue["archived"], **{"global": True}), 403, "global_tags_not_allowed")
    assert await listed_ids(client, viewer, catalogue["archived"], global_=True) == []
    assert await listed_ids(client, viewer, catalogue["archived"], global_=False) == []


async def test_a_viewer_allowed_global_tags_saves_tags_everyone_sees(client, catalogue, tagger, other):
    profile = (await client.get("/api/user/get_profile", headers=tagger["headers"])).json()["content"]
    assert profile["globalTags"] is True
    shared = await saved(
        client,
        tagger,
        catalogue["live"],
        title="Kick-off",
        startTime=1,
        endTime=2,
        videoType="live",
        **{"global": True},
    )
    own = await saved(client, tagger, catalogue["live"], title="Note to self", startTime=3, endTime=4, videoType="live")
    assert shared["global"] is True and shared["videoType"] == "live"
    assert await listed_ids(client, other, catalogue["live"], global_=True) == [shared["_id"]]
    assert await listed_ids(client, tagger, catalogue["live"], global_=True) == [shared["_id"]]
    assert await listed_ids(client, tagger, catalogue["live"], global_=False) == [own["_id"]]


async def test_making_a_tag_global_needs_the_permission(client, catalogue, database, viewer, tagger):
    mine = await saved(client, viewer, catalogue["archived"])
    assert_error(await update_tag(client, viewer, mine["_id"], **{"global": True}), 403, "global_tags_not_allowed")
    theirs = await saved(client, tagger, catalogue["archived"])
    answer = await update_tag(client, tagger, theirs["_id"], **{"global": True})
    assert answer.status_code == 200 and answer.json()["content"]["global"] is True
    # Without the permission any more, the tagger's global tags stay, and stay as they are.
    await allow_global_tags(database, tagger, False)
    assert_error(await update_tag(client, tagger, theirs["_id"], title="Changed"), 403, "global_tags_not_allowed")
    assert (await remove(client, tagger, theirs["_id"])).json()["content"] == {"removed": 0, "ids": []}
    assert await listed_ids(client, viewer, catalogue["archived"], global_=True) == [theirs["_id"]]


async def test_saving_editing_and_removing_a_global_tag_tells_the_events_room_and_a_private_one_does_not(
    client, catalogue, tagger
):
    with recording_socket() as socket:
        shared = await saved(client, tagger, catalogue["live"], title="Goal", subtype="goal", **{"global": True})
        await saved(client, tagger, catalogue["live"], title="Note to self")  # private: nobody is told
        assert (await update_tag(client, tagger, shared["_id"], title="Goal - header")).status_code == 200
        assert (await remove(client, tagger, shared["_id"])).status_code == 200
    told = [(data["tagIds"], data["change"], room) for name, data, room in socket.sent if name == "tags-change"]
    room = f"event:{catalogue['live']}"
    assert told == [
        ([shared["_id"]], "saved", room),
        ([shared["_id"]], "saved", room),
        ([shared["_id"]], "removed", room),
    ]


# --- changing and removing ----------------------------------------------------------------------


async def test_update_changes_only_the_fields_sent(client, catalogue, viewer):
    tag = await saved(client, viewer, catalogue["archived"], title="Goal", subtype="goal", playerNumber="9")
    clock.advance(timedelta(seconds=2))
    answer = await update_tag(client, viewer, tag["_id"], title="Goal - header", endTime=11, playerNumber=None)
    assert answer.status_code == 200, answer.text
    changed = answer.json()["content"]
    assert (changed["title"], changed["endTime"], changed["playerNumber"]) == ("Goal - header", 11000, None)
    assert (changed["startTime"], changed["subtype"], changed["added"]) == (5000, "goal", tag["added"])
    assert changed["updated"] > tag["updated"]
    assert (await listed(client, viewer, catalogue["archived"], global_=False))["entries"] == [changed]


async def test_other_viewers_tags_cannot_be_changed_or_removed(client, catalogue, viewer, other, tagger):
    private = await saved(client, viewer, catalogue["archived"])
    shared = await saved(client, tagger, catalogue["archived"], **{"global": True})
    for tag in (private, shared):
        assert_error(await update_tag(client, other, tag["_id"], title="Mine now"), 404, "tag_not_found")
        assert_error(
            await update_tag(client, tagger if tag is private else viewer, tag["_id"], title="x"), 404, "tag_not_found"
        )
    assert_error(await update_tag(client, other, NOBODY, title="x"), 404, "tag_not_found")
    answer = await remove(client, other, private["_id"], shared["_id"])
    assert answer.status_code == 200 and answer.json()["content"] == {"removed": 0, "ids": []}
    assert await listed_ids(client, viewer, catalogue["archived"], global_=False) == [private["_id"]]
    assert await listed_ids(client, other, catalogue["archived"], global_=True) == [shared["_id"]]


async def test_remove_list_answers_the_ids_removed_and_ignores_unknown_and_foreign_ones(
    client, catalogue, viewer, other, tagger
):
    first = await saved(client, viewer, catalogue["archived"], startTime=1)
    second = await saved(client, viewer, catalogue["recap"], startTime=2)
    kept = await saved(client, viewer, catalogue["archived"], startTime=3)
    foreign = await saved(client, other, catalogue["archived"])
    shared = await saved(client, tagger, catalogue["archived"], **{"global": True})
    answer = await remove(client, viewer, second["_id"], NOBODY, foreign["_id"], shared["_id"], first["_id"])
    assert answer.status_code == 200, answer.text
    assert answer.json()["content"] == {"removed": 2, "ids": [second["_id"], first["_id"]]}
    assert await listed_ids(client, viewer, catalogue["archived"], global_=False) == [kept["_id"]]
    assert await listed_ids(client, other, catalogue["archived"], global_=False) == [foreign["_id"]]
    again = await remove(client, viewer, first["_id"])
    assert again.json()["content"] == {"removed": 0, "ids": []}
    # A viewer allowed global tags removes their own global tags too.
    assert (await remove(client, tagger, shared["_id"])).json()["content"] == {"removed": 1, "ids": [shared["_id"]]}


# --- times --------------------------------------------------------------------------------------


async def test_an_end_before_the_start_is_refused_naming_the_field(client, catalogue, viewer):
    answer = await save(client, viewer, catalogue["archived"], startTime=10, endTime=5)
    assert_error(answer, 400, "invalid_time_range", "endTime")
    tag = await saved(client, viewer, catalogue["archived"], startTime=5, endTime=9)
    assert_error(await update_tag(client, viewer, tag["_id"], endTime=4), 400, "invalid_time_range", "endTime")
    assert_error(await update_tag(client, viewer, tag["_id"], startTime=9.5), 400, "invalid_time_range", "startTime")
    answer = await update_tag(client, viewer, tag["_id"], startTime=9)  # a moment: start and end equal
    assert answer.status_code == 200 and answer.json()["content"]["startTime"] == 9000


async def test_times_beyond_an_archived_video_are_refused_naming_the_field(client, catalogue, viewer):
    # The test catalogue's archived game has no duration: the sample it plays (24 s) bounds it.
    assert_error(
        await save(client, viewer, catalogue["archived"], startTime=SAMPLE_SECONDS + 1, endTime=OMIT),
        400,
        "invalid_time_range",
        "startTime",
    )
    answer = await save(client, viewer, catalogue["archived"], startTime=20, endTime=SAMPLE_SECONDS + 0.5)
    assert_error(answer, 400, "invalid_time_range", "endTime")
    assert "beyond the end of the video (24 s)" in answer.json()["message"]
    assert (await save(client, viewer, catalogue["archived"], startTime=20, endTime=SAMPLE_SECONDS)).status_code == 200
    # A clip's own range is its video: 30 s for the goal clip, 180 s for the recap.
    assert_error(
        await save(client, viewer, catalogue["goal"], startTime=29, endTime=31), 400, "invalid_time_range", "endTime"
    )
    assert (await save(client, viewer, catalogue["recap"], startTime=170, endTime=180)).status_code == 200
    tag = await saved(client, viewer, catalogue["archived"])
    assert_error(await update_tag(client, viewer, tag["_id"], endTime=60), 400, "invalid_time_range", "endTime")


async def test_times_on_a_live_event_reach_up_to_now(client, catalogue, viewer):
    # The live game kicked off 30 minutes before the catalogue was built.
    kickoff = catalogue.now - timedelta(minutes=30)
    edge = (clock.now() - kickoff).total_seconds()
    answer = await save(client, viewer, catalogue["live"], startTime=edge + 120, endTime=OMIT, videoType="live")
    assert_error(answer, 400, "invalid_time_range", "startTime")
    assert "live edge" in answer.json()["message"]
    assert (
        await save(client, viewer, catalogue["live"], startTime=edge - 60, endTime=edge - 50, videoType="live")
    ).status_code == 200
    clock.advance(timedelta(minutes=5))
    assert (
        await save(client, viewer, catalogue["live"], startTime=edge + 120, endTime=OMIT, videoType="live")
    ).status_code == 200


async def test_an_upcoming_event_has_nothing_to_tag_yet(client, catalogue, viewer):
    answer = await save(client, viewer, catalogue["upcoming"], startTime=0, endTime=OMIT, videoType="live")
    assert_error(answer, 400, "invalid_time_range", "targetId")


# --- requests the contract or the rules refuse --------------------------------------------------


async def test_bad_input_is_refused_with_the_field(client, catalogue, viewer):
    target = catalogue["archived"]
    for fields, field in (
        ({"playerColor": "red"}, "playerColor"),
        ({"mode": "async"}, "mode"),
        ({"streamName": "sd"}, "streamName"),
        ({"videoType": "dvr"}, "videoType"),
        ({"startTime": -1}, "startTime"),
        ({"type": "team"}, "type"),
        ({"playerNumber": "12345"}, "playerNumber"),
    ):
        assert_error(await save(client, viewer, target, **fields), 400, "validation_error", field)
    assert_error(await save(client, viewer, target, title="Goal\x00"), 400, "validation_error", "title")
    assert_error(await save(client, viewer, target, teamId=NOBODY), 400, "validation_error", "teamId")
    tag = await saved(client, viewer, target)
    assert_error(await update_tag(client, viewer, tag["_id"]), 400, "validation_error")  # nothing to change
    assert_error(await update_tag(client, viewer, tag["_id"], subtype="a\tb"), 400, "validation_error", "subtype")
    assert_error(await remove(client, viewer), 400, "validation_error", "ids")
    assert_error(await remove(client, viewer, "not-an-id"), 400, "validation_error", "ids[0]")


async def test_tags_need_a_signed_in_viewer(client, catalogue):
    for path, body in (
        ("list", {"targetId": catalogue["archived"]}),
        ("saveV2", tag_body(catalogue["archived"])),
        ("update", {"_id": NOBODY, "title": "x"}),
        ("remove_list", {"ids": [NOBODY]}),
    ):
        assert_error(await client.post(f"/api/tag/{path}", json=body), 401, "unauthorized")


@pytest.fixture(scope="module")
def strict_client(settings, database):
    strict = settings.model_copy(update={"tag_saves_per_account": 3, "tag_save_window": 60})
    api = create_api(strict)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": strict}))
    return httpx.AsyncClient(transport=transport, base_url="http://touchline.test")


async def test_saving_is_limited_per_account_with_retry_after(client, strict_client, catalogue, viewer, other):
    async with strict_client as limited:
        for n in range(3):
            assert (await save(limited, viewer, catalogue["archived"], startTime=n)).status_code == 200
        answer = await save(limited, viewer, catalogue["archived"])
        assert_error(answer, 429, "too_many_requests")
        assert int(answer.headers["Retry-After"]) >= 1
        assert (await save(limited, other, catalogue["archived"])).status_code == 200  # per account
        # Refused saves do not count: the limit is on tags saved.
        assert (await save(limited, other, NOBODY)).status_code == 404


# --- official tags from the seed ----------------------------------------------------------------


@pytest.fixture
async def seeded_game(database):
    """One archived football game of the seed, with its teams, stats and official tags, loaded
    the way `touchline seed` loads them (gone again afterwards)."""
    data = build_catalogue(datetime.now(UTC))
    stats = {s["event_id"]: s for s in data.event_stats}
    game = next(
        e
        for e in data.events
        if e["status"] == "archived"
        and e["sport_type"] == "football"
        and stats[e["id"]]["scores"]["homeTeam"]["score"] + stats[e["id"]]["scores"]["awayTeam"]["score"] >= 2
    )
    teams = [t for t in data.teams if t["id"] in (game["home_team_id"], game["away_team_id"])]
    tags = [t for t in data.tags if t["target_id"] == game["id"]]
    async with database.engine.begin() as conn:
        await conn.run_sync(
            lambda sync: [
                upsert(sync, table, rows)
                for table, rows in (
                    (table_of(Team), teams),
                    (table_of(Event), [game]),
                    (table_of(EventStats), [stats[game["id"]]]),
                    (table_of(Tag), tags),
                )
            ]
        )
    yield game, stats[game["id"]]["scores"], teams
    async with database.engine.begin() as conn:
        await conn.execute(delete(Tag).where(Tag.target_id == game["id"]))
        await conn.execute(delete(Event).where(Event.id == game["id"]))
        await conn.execute(delete(Team).where(Team.id.in_([t["id"] for t in teams])))


async def test_seeded_official_tags_are_global_and_match_the_final_score(client, database, seeded_game, viewer):
    game, scores, teams = seeded_game
    entries = (await listed(client, viewer, game["id"], global_=True))["entries"]
    assert entries and all(t["global"] and t["userId"] is None and t["videoType"] == "vod" for t in entries)
    assert [t["startTime"] for t in entries] == sorted(t["startTime"] for t in entries)
    assert all(0 <= t["startTime"] < t["endTime"] <= game["duration_s"] * 1000 for t in entries)
    assert {"goal", "substitution"} <= {t["subtype"] for t in entries}
    goals = [t for t in entries if t["subtype"] == "goal"]
    home, away = game["home_team_id"], game["away_team_id"]
    assert sum(t["teamId"] == home for t in goals) == scores["homeTeam"]["score"]
    assert sum(t["teamId"] == away for t in goals) == scores["awayTeam"]["score"]
    short = {t["id"]: t["short_name"] for t in teams}
    final = f"({short[home]} {scores['homeTeam']['score']}-{scores['awayTeam']['score']} {short[away]})"
    assert goals[-1]["title"].endswith(final)
    assert await listed_ids(client, viewer, game["id"], global_=False) == []
    # Official tags are nobody's: nobody changes or removes them through the API.
    assert_error(await update_tag(client, viewer, entries[0]["_id"], title="x"), 404, "tag_not_found")
    assert (await remove(client, viewer, entries[0]["_id"])).json()["content"]["removed"] == 0
    async with database.session() as db:
        official = list(await db.scalars(select(Tag.official).where(Tag.target_id == game["id"])))
    assert official and all(official)


async def test_official_tags_asked_without_spoilers_carry_no_score(client, seeded_match, viewer):
    game = seeded_match.game["id"]
    shown = await listed(client, viewer, game, global_=True)
    assert seeded_match.shows_score(shown)
    body = {"targetId": game, "global": True, "page": 0, "size": 999}
    answer = await client.post("/api/tag/list", params={"spoilers": "hide"}, json=body, headers=viewer["headers"])
    assert answer.status_code == 200, answer.text
    hidden = answer.json()["content"]
    assert not seeded_match.shows_score(hidden)
    # The same moments at the same times: only their running scores are gone.
    assert [(t["_id"], t["startTime"]) for t in hidden["entries"]] == [
        (t["_id"], t["startTime"]) for t in shown["entries"]
    ]
    goals = [t["title"] for t in hidden["entries"] if t["subtype"] == "goal"]
    assert goals and all(re.search(r"\(\w+ vs \w+\)$", title) for title in goals)
    refused = await client.post("/api/tag/list", params={"spoilers": "no"}, json=body, headers=viewer["headers"])
    assert_error(refused, 400, "validation_error")
