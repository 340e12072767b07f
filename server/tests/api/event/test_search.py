"""Search, as the search box and the search page use it: `GET /api/search` (every group) and
`GET /api/event/search` (events alone), on SQLite and PostgreSQL."""

from datetime import timedelta

import pytest
from sqlalchemy import delete, update

from server.models import Event, EventIdentity, Team, TeamIdentity
from server.models.base import new_id
from server.services import search as search_service
from server.tests.api.http.test_errors import assert_envelope
from server.tests.factories import event, team


async def search(client, q: str, **params) -> dict:
    response = await client.get("/api/search", params={"q": q, **params})
    assert response.status_code == 200, response.text
    return response.json()["content"]


def ids(items) -> list[str]:
    return [item["_id"] for item in items]


@pytest.fixture
async def ashford(database, catalogue):
    """Ashford Town (from the seed's fixtures) in the Northern Premier Division, with one archived
    game against the Mariners; gone again after the test, so other tests count what they did."""
    async with database.session() as db:
        npd_id, football_id = catalogue["npd"], catalogue["football"]
        from server.models import Identity

        npd, football = await db.get(Identity, npd_id), await db.get(Identity, football_id)
        mariners = await db.get(Team, catalogue["mariners"])
        club = team(db, "Ashford Town", "ASH", "#6cabdd", npd)
        club.city = "Ashford"
        await db.flush()
        game = event(
            db,
            "Ashford Town vs Harbor City Mariners",
            status="archived",
            when=catalogue.now - timedelta(days=40),
            league_=npd,
            category=football,
            home=club,
            away=mariners,
        )
        await db.commit()
        made = {"team": club.id, "event": game.id}
    yield made
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.id == made["event"]))
        await db.execute(delete(Team).where(Team.id == made["team"]))
        await db.commit()


@pytest.fixture
async def port_teams(database, catalogue):
    """Four teams "port" finds in four ways: a whole word, a beginning, inside a word, a typo."""
    names = {"exact": "Port Town", "prefix": "Portsmouth Athletic", "inside": "Sport Club", "typo": "Pert Rangers"}
    made = {}
    async with database.session() as db:
        for kind, name in names.items():
            made[kind] = Team(
                id=new_id(), name=name, short_name=name[:3].upper(), color="#000000", sport_type="football"
            )
            db.add(made[kind])
        await db.commit()
    yield {kind: t.id for kind, t in made.items()}
    async with database.session() as db:
        await db.execute(delete(Team).where(Team.id.in_([t.id for t in made.values()])))
        await db.commit()


async def test_search_typo_finds_team(client, ashford):
    content = await search(client, "Asford")
    assert ids(content["teams"]) == [ashford["team"]]
    found = content["teams"][0]
    assert found["title"] == "Ashford Town" and found["shortTitle"] == "ASH" and found["sportType"] == "football"
    assert found["logo"] == "/media/logos/ash.svg"
    assert ashford["event"] in ids(content["events"]["entries"])


async def test_search_prefix_finds_team_and_its_games(client, ashford):
    content = await search(client, "Ash")
    assert ids(content["teams"]) == [ashford["team"]]
    assert ids(content["events"]["entries"]) == [ashford["event"]]


async def test_search_every_word_must_match_and_each_may_be_a_prefix_or_a_typo(client, ashford, catalogue):
    assert ids((await search(client, "ashf marinrs"))["events"]["entries"]) == [ashford["event"]]
    both = await search(client, "ashford rovers")
    assert both["teams"] == [] and both["events"]["entries"] == []


async def test_search_ranks_exact_then_prefix_then_inside_then_typo(client, port_teams):
    content = await search(client, "port", size=20)
    mine = [i for i in ids(content["teams"]) if i in port_teams.values()]
    assert mine == [port_teams["exact"], port_teams["prefix"], port_teams["inside"], port_teams["typo"]]


async def test_search_size_bounds_each_group(client, port_teams):
    content = await search(client, "port", size=2)
    assert ids(content["teams"]) == [port_teams["exact"], port_teams["prefix"]]


async def test_search_finds_leagues_by_title_short_title_and_typo(client, catalogue):
    assert ids((await search(client, "premier"))["leagues"]) == [catalogue["npd"]]
    assert ids((await search(client, "NPD"))["leagues"]) == [catalogue["npd"]]
    assert ids((await search(client, "premeir division"))["leagues"]) == [catalogue["npd"]]
    coastal = await search(client, "coastal")
    assert set(ids(coastal["leagues"])) == {catalogue["cup"], catalogue["cbl"]}
    league = next(i for i in coastal["leagues"] if i["_id"] == catalogue["cup"])
    assert league["title"] == "Coastal Cup" and league["sportType"] == "football"


async def test_search_leaves_archived_leagues_out(client, catalogue):
    assert (await search(client, "winter"))["leagues"] == []


async def test_search_finds_categories(client, catalogue):
    content = await search(client, "basketbal")
    assert ids(content["categories"]) == [catalogue["basketball"]]
    assert content["categories"][0]["title"] == "Basketball"


async def test_search_football_finds_the_sport_and_its_events(client, catalogue, monkeypatch):
    monkeypatch.setattr(search_service, "COUNTS_SECONDS", 0)  # counts as they are now, not as cached
    content = await search(client, "football", size=20)
    listed = (
        await client.post("/api/event/list", json={"filters": {"sportType": ["football"]}, "count": True, "size": 1})
    ).json()["content"]
    assert content["sports"] == [{"sportType": "football", "title": "Football", "count": listed["totalCount"]}]
    assert ids(content["categories"]) == [catalogue["football"]]
    found = set(ids(content["events"]["entries"]))
    assert {catalogue["live"], catalogue["upcoming"], catalogue["archived"], catalogue["training"]} <= found
    assert catalogue["hoops"] not in found


async def test_search_a_typo_of_a_sport_finds_it(client, catalogue):
    content = await search(client, "fotball")
    assert [s["sportType"] for s in content["sports"]] == ["football"]
    assert catalogue["live"] in ids(content["events"]["entries"])


async def test_search_a_part_inside_a_sport_name_does_not_find_its_events(client, catalogue):
    content = await search(client, "ball")
    assert content["events"]["entries"] == []


async def test_search_events_page_says_whether_more_follow(client, catalogue):
    events = (await search(client, "mariners", size=1))["events"]
    assert events["itemsPerPage"] == 1 and events["count"] == 1 and events["nextExists"] is True


async def test_search_events_as_typed_come_before_those_found_through_a_typo(client, database, ashford, catalogue):
    # "ashfort" is no name word: it finds Ashford Town's game by a typo, and the game whose own
    # title holds "ashfort" first, although it is older.
    async with database.session() as db:
        older = event(db, "Ashfort friendly", status="archived", when=catalogue.now - timedelta(days=400))
        await db.commit()
        older_id = older.id
    try:
        assert ids((await search(client, "ashfort"))["events"]["entries"]) == [older_id, ashford["event"]]
        pages = []
        for number in range(3):
            answer = await client.get("/api/event/search", params={"q": "ashfort", "page": number, "size": 1})
            content = answer.json()["content"]
            pages.append((ids(content["entries"]), content["nextExists"]))
        assert pages == [([older_id], True), ([ashford["event"]], False), ([], False)]
    finally:
        async with database.session() as db:
            await db.execute(delete(Event).where(Event.id == older_id))
            await db.commit()


async def test_search_follows_changes_to_an_event(client, database, ashford):
    async with database.session() as db:
        await db.execute(
            update(Event).where(Event.id == ashford["event"]).values(search_text="ashford town vs lakeside lions")
        )
        await db.commit()
    assert ids((await search(client, "lakeside"))["events"]["entries"]) == [ashford["event"]]
    assert (await search(client, "ashford marin"))["events"]["entries"] == []


async def test_search_forgets_a_deleted_team_and_event(client, database, ashford):
    async with database.session() as db:
        await db.execute(delete(EventIdentity).where(EventIdentity.event_id == ashford["event"]))
        await db.execute(delete(Event).where(Event.id == ashford["event"]))
        await db.execute(delete(TeamIdentity).where(TeamIdentity.team_id == ashford["team"]))
        await db.execute(delete(Team).where(Team.id == ashford["team"]))
        await db.commit()
    content = await search(client, "ashford")
    assert content["teams"] == [] and content["events"]["entries"] == []


async def test_search_for_a_signed_in_viewer_presents_events_for_them(client, catalogue):
    from server.tests.accounts import sign_up

    viewer = await sign_up(client)
    response = await client.get("/api/search", params={"q": "hawks"}, headers=viewer["headers"])
    assert response.status_code == 200, response.text
    entries = response.json()["content"]["events"]["entries"]
    assert {catalogue["upcoming"], catalogue["archived"]} == set(ids(entries))


@pytest.mark.parametrize(
    "params",
    [{}, {"q": ""}, {"q": " "}, {"q": "x" * 101}, {"q": "hawks", "size": 0}, {"q": "hawks", "size": 21}],
    ids=["missing", "empty", "blank", "too long", "size 0", "size 21"],
)
async def test_search_refuses_bad_input_with_the_error_envelope(client, params):
    body = assert_envelope(await client.get("/api/search", params=params), 400, "validation_error")
    assert body["message"]


async def test_search_treats_wildcards_and_quotes_literally(client, catalogue):
    for q in ("%", "___", '"hawks"', "NEAR(hawks)"):
        content = await search(client, q)
        assert content["events"]["entries"] == [] and content["teams"] == [], q
    # A stray quote is one letter more: a typo of "hawks".
    assert ids((await search(client, 'haw"ks'))["teams"]) == [catalogue["hawks"]]


# --- the events-only search keeps answering, and is typo-tolerant too ------------------------------


async def test_event_search_still_answers_with_an_event_page(client, catalogue):
    content = (await client.get("/api/event/search", params={"q": "hawks", "size": 1})).json()["content"]
    assert content["itemsPerPage"] == 1 and content["nextExists"] is True
    assert content["entries"][0]["_id"] == catalogue["upcoming"]


async def test_event_search_finds_an_event_through_a_typo(client, ashford):
    content = (await client.get("/api/event/search", params={"q": "asford"})).json()["content"]
    assert ids(content["entries"]) == [ashford["event"]]


async def test_event_search_filters_by_status(client, catalogue):
    content = (await client.get("/api/event/search", params={"q": "fotball", "status[]": ["live"]})).json()["content"]
    assert ids(content["entries"]) == [catalogue["live"]]


@pytest.mark.parametrize("few, common", [(200, 5000), (0, 5000), (0, 0)], ids=["by rowid", "by index", "by text"])
async def test_search_finds_the_same_events_however_many_match(client, ashford, catalogue, monkeypatch, few, common):
    # SQLite reads rare words' events by rowid, common ones by walking the date index (see FEW
    # and COMMON): the answers must not depend on the way.
    monkeypatch.setattr(search_service, "FEW", few)
    monkeypatch.setattr(search_service, "COMMON", common)
    assert ids((await search(client, "asford"))["events"]["entries"]) == [ashford["event"]]
    assert ids((await search(client, "ash mariners"))["events"]["entries"]) == [ashford["event"]]
    hawks = (await client.get("/api/event/search", params={"q": "hawks", "status[]": ["archived"]})).json()
    assert ids(hawks["content"]["entries"]) == [catalogue["archived"]]


@pytest.mark.parametrize("path", ["/api/search", "/api/event/search"])
async def test_search_refuses_a_nul_character_with_the_error_envelope(client, path):
    assert_envelope(await client.get(path, params={"q": "ash\x00ford"}), 400, "validation_error")
