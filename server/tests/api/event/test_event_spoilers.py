"""Spoiler-free answers of the `event` operations: asked with `spoilers=hide`, no answer carries
the seeded match's score in any form, its stats or its length; asked with `show`, or without the
flag, they carry everything (server/services/spoilers.py)."""

import pytest

from server.tests.seeded_match import HIDE, MODES, answer


async def test_the_event_list_leaves_the_score_out_only_when_asked(client, seeded_match):
    body = {
        "size": 100,
        "filters": {
            "event_id": [seeded_match.game["external_id"], seeded_match.highlight["external_id"]],
            "media_type": ["event", "highlight"],
        },
    }
    for params in MODES.values():
        shown = await answer(client, "POST", "/event/list", params, json=body)
        assert len(shown["content"]["entries"]) == 2 and seeded_match.shows_score(shown), params
    hidden = await answer(client, "POST", "/event/list", HIDE, json=body)
    titles = {e["_id"]: e["title"] for e in hidden["content"]["entries"]}
    assert not seeded_match.shows_score(hidden)
    assert titles[seeded_match.highlight["id"]] == f"Highlights: {seeded_match.home_name} vs {seeded_match.away_name}"


async def test_one_event_leaves_the_score_and_a_matchs_length_out_only_when_asked(client, seeded_match):
    game, highlight = seeded_match.game, seeded_match.highlight
    for params in MODES.values():
        shown = (await answer(client, "GET", f"/event/get_by_id/id/{game['id']}", params))["content"]
        assert seeded_match.shows_score(shown) and shown["duration"] == game["duration_s"]
    hidden = (await answer(client, "GET", f"/event/get_by_id/id/{game['id']}", HIDE))["content"]
    assert not seeded_match.shows_score(hidden)
    assert hidden["duration"] is None and hidden["status"] == "archived"
    # A highlight's own length gives nothing away: it keeps it.
    clip = (await answer(client, "GET", f"/event/get_by_id/id/{highlight['id']}", HIDE))["content"]
    assert not seeded_match.shows_score(clip) and clip["duration"] == highlight["duration_s"]


async def test_a_live_or_upcoming_event_has_no_length_to_hide(client, catalogue):
    for name in ("live", "upcoming"):
        hidden = (await answer(client, "GET", f"/event/get_by_id/id/{catalogue[name]}", HIDE))["content"]
        shown = (await answer(client, "GET", f"/event/get_by_id/id/{catalogue[name]}", {}))["content"]
        assert hidden["duration"] is shown["duration"] is None
        assert hidden["title"] == shown["title"]


async def test_search_leaves_the_score_and_the_matchs_length_out_only_when_asked(client, seeded_match):
    game_id, home = seeded_match.game["id"], seeded_match.home_name
    for path, params in (("/event/search", {"q": home, "size": 100}), ("/search", {"q": home})):
        for mode in MODES.values():
            shown = await answer(client, "GET", path, {**params, **mode})
            assert seeded_match.shows_score(shown), (path, mode)
        hidden = await answer(client, "GET", path, {**params, **HIDE})
        entries = hidden["content"]["entries"] if path == "/event/search" else hidden["content"]["events"]["entries"]
        found = next(e for e in entries if e["_id"] == game_id)
        assert not seeded_match.shows_score(hidden), path
        assert found["duration"] is None


async def test_stats_answer_neither_scores_nor_overview_when_hidden(client, seeded_match):
    game = seeded_match.game["id"]
    for params in MODES.values():
        shown = (await answer(client, "GET", "/event/stats", {"id": game, **params}))["content"]["vidswap"]
        scores = shown["game-scores"]
        assert (scores["homeTeam"]["score"], scores["awayTeam"]["score"]) == (
            seeded_match.home_score,
            seeded_match.away_score,
        )
        assert shown["game-overview"]["groups"]
    for asked in ({}, {"score": "true", "overview": "true"}):
        hidden = await answer(client, "GET", "/event/stats", {"id": game, **asked, **HIDE})
        assert hidden["content"] == {"vidswap": {}}


async def test_the_programme_guide_leaves_the_score_out_only_when_asked(client, catalogue, seeded_match):
    path = f"/event/epg/{catalogue['channel']}"
    for params in MODES.values():
        shown = await answer(client, "GET", path, params)
        assert seeded_match.shows_score(shown)
    hidden = await answer(client, "GET", path, HIDE)
    slot = next(e for e in hidden["content"]["entries"] if e["_id"] == seeded_match.slot_id)
    assert not seeded_match.shows_score(hidden)
    assert slot["title"].startswith("Replay: Highlights: ") and " vs " in slot["title"]


@pytest.mark.parametrize(
    ("method", "path", "request_"),
    [
        ("POST", "/event/list", {"json": {}}),
        ("GET", "/event/search", {"params": {"q": "rovers"}}),
        ("GET", "/search", {"params": {"q": "rovers"}}),
        ("GET", "/event/get_by_id/id/{archived}", {}),
        ("GET", "/event/stats", {"params": {"id": "{archived}"}}),
        ("GET", "/event/epg/{channel}", {}),
    ],
)
async def test_an_unknown_spoilers_value_is_a_validation_error(client, catalogue, method, path, request_):
    params = {name: value.format(**catalogue.ids) for name, value in request_.get("params", {}).items()}
    response = await client.request(
        method, "/api" + path.format(**catalogue.ids), params={**params, "spoilers": "maybe"}, json=request_.get("json")
    )
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"] is True and body["messageErrorCode"] == "validation_error"
    assert [d["field"] for d in body["details"]] == ["spoilers"]
