"""The anonymous catalogue cache: one answer shared for a moment, never a personal one."""

import httpx
import pytest

from server.api.http.cache import ResponseCache
from server.services.access import Viewer
from server.tests.conftest import with_state

LIST = {"page": 0, "size": 5, "sort": "event_date", "order": "desc", "filters": {"status": ["archived"]}}


@pytest.fixture
def cache():
    return ResponseCache(ttl_seconds=60)


def client_with(api, database, settings, **state):
    app = with_state(api, {"database": database, "settings": settings, **state})
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test")


async def test_the_same_anonymous_question_is_answered_once_then_from_the_cache(
    api, database, settings, catalogue, cache
):
    async with client_with(api, database, settings, cache=cache) as client:
        first = await client.post("/api/event/list", json=LIST)
        second = await client.post("/api/event/list", json=LIST)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert (cache.misses, cache.hits, len(cache)) == (1, 1, 1)


async def test_different_questions_are_kept_apart(api, database, settings, catalogue, cache):
    async with client_with(api, database, settings, cache=cache) as client:
        archived = (await client.post("/api/event/list", json=LIST)).json()
        live = (await client.post("/api/event/list", json={**LIST, "filters": {"status": ["live"]}})).json()
    assert {e["status"] for e in archived["content"]["entries"]} == {"archived"}
    assert {e["status"] for e in live["content"]["entries"]} == {"live"}
    assert len(cache) == 2


async def test_key_order_of_the_body_does_not_matter(api, database, settings, catalogue, cache):
    async with client_with(api, database, settings, cache=cache) as client:
        await client.post("/api/event/list", json=LIST)
        await client.post("/api/event/list", json=dict(reversed(list(LIST.items()))))
    assert cache.hits == 1


async def test_signed_in_viewers_are_never_served_from_the_cache(api, database, settings, catalogue, cache):
    async with client_with(api, database, settings, cache=cache, viewer=Viewer(user_id="a" * 24)) as client:
        await client.post("/api/event/list", json=LIST)
        await client.post("/api/event/list", json=LIST)
    assert len(cache) == 0 and cache.hits == 0


async def test_errors_are_not_cached(api, database, settings, catalogue, cache):
    async with client_with(api, database, settings, cache=cache) as client:
        for _ in range(2):
            response = await client.get(f"/api/event/get_by_id/id/{'f' * 24}")
            assert response.status_code == 404
    assert len(cache) == 0


async def test_a_zero_ttl_turns_the_cache_off(api, database, settings, catalogue):
    cache = ResponseCache(ttl_seconds=0)
    async with client_with(api, database, settings, cache=cache) as client:
        await client.post("/api/event/list", json=LIST)
        await client.post("/api/event/list", json=LIST)
    assert len(cache) == 0 and cache.hits == 0


def test_clear_forgets_every_answer(cache):
    cache.put(b"k", {"content": 1})
    cache.clear()
    assert cache.get(b"k") is None


async def test_concurrent_misses_of_one_question_query_the_database_once(api, database, settings, catalogue, cache):
    import asyncio

    async with client_with(api, database, settings, cache=cache) as client:
        answers = await asyncio.gather(*[client.post("/api/event/list", json=LIST) for _ in range(8)])
    assert {a.status_code for a in answers} == {200}
    assert len({a.text for a in answers}) == 1
    assert (cache.misses, cache.coalesced + cache.hits) == (1, 7) and cache.coalesced >= 1
    assert len(cache) == 1 and not cache.inflight


async def test_concurrent_askers_all_get_the_error_of_a_failed_miss(api, database, settings, catalogue, cache):
    import asyncio

    async with client_with(api, database, settings, cache=cache) as client:
        answers = await asyncio.gather(*[client.get(f"/api/event/get_by_id/id/{'e' * 24}") for _ in range(4)])
    assert {a.status_code for a in answers} == {404}
    assert cache.misses + cache.coalesced == 4
    assert len(cache) == 0 and not cache.inflight


async def test_signed_in_viewers_share_the_rows_but_each_gets_their_own_answer(
    api, database, settings, catalogue, cache
):
    async with client_with(api, database, settings, cache=cache, viewer=Viewer(user_id="a" * 24)) as client:
        first = await client.post("/api/event/list", json=LIST)
        again = await client.post("/api/event/list", json=LIST)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert (cache.rows.misses, cache.rows.hits, len(cache.rows)) == (1, 1, 1)
    assert len(cache) == 0  # no signed-in answer is kept whole


async def test_an_anonymous_miss_fills_the_rows_signed_in_viewers_then_use(api, database, settings, catalogue, cache):
    async with client_with(api, database, settings, cache=cache) as client:
        anonymous = await client.post("/api/event/list", json=LIST)
    async with client_with(api, database, settings, cache=cache, viewer=Viewer(user_id="b" * 24)) as client:
        signed_in = await client.post("/api/event/list", json=LIST)
    assert [e["_id"] for e in anonymous.json()["content"]["entries"]] == [
        e["_id"] for e in signed_in.json()["content"]["entries"]
    ]
    assert (cache.rows.misses, cache.rows.hits) == (1, 1)


async def test_each_spoilers_mode_has_its_own_answer_from_the_same_rows(api, database, settings, seeded_match, cache):
    game = seeded_match.game
    body = {"page": 0, "size": 5, "filters": {"event_id": [game["external_id"]]}}
    async with client_with(api, database, settings, cache=cache) as client:
        shown = (await client.post("/api/event/list", json=body)).json()
        hidden = (await client.post("/api/event/list", params={"spoilers": "hide"}, json=body)).json()
        again = (await client.post("/api/event/list", params={"spoilers": "hide"}, json=body)).json()
        stats = [
            (await client.get("/api/event/stats", params={"id": game["id"], **mode})).json()
            for mode in ({}, {"spoilers": "hide"})
        ]
    assert [e["duration"] for e in shown["content"]["entries"]] == [game["duration_s"]]
    assert seeded_match.shows_score(shown)
    assert [e["duration"] for e in hidden["content"]["entries"]] == [None] and again == hidden
    assert not seeded_match.shows_score(hidden)
    assert (cache.rows.misses, cache.rows.hits) == (1, 1)  # both modes present the same rows
    assert cache.hits == 1 and len(cache) == 4  # two list answers, two stats answers
    assert "game-scores" in stats[0]["content"]["vidswap"] and stats[1]["content"]["vidswap"] == {}


def test_clearing_the_answers_clears_the_shared_rows_too(cache):
    cache.rows.put(b"k", ["row"])
    cache.clear()
    assert cache.rows.get(b"k") is None
