"""Spoiler-free answers of the highlights and clips, and of the videos related to one: asked with
`spoilers=hide`, no answer carries the seeded match's score in any form; with `show`, or without
the flag, they carry it (server/services/spoilers.py)."""

from server.tests.seeded_match import HIDE, MODES, answer


async def test_the_clip_list_leaves_the_score_out_only_when_asked(client, seeded_match):
    body = {"size": 100, "event_id": [seeded_match.game["id"]]}
    cut = {e["id"] for e in seeded_match.cut_from_it}
    for params in MODES.values():
        shown = await answer(client, "POST", "/clip/list", params, json=body)
        assert {e["_id"] for e in shown["content"]["entries"]} == cut
        assert seeded_match.shows_score(shown), params
    hidden = await answer(client, "POST", "/clip/list", HIDE, json=body)
    assert {e["_id"] for e in hidden["content"]["entries"]} == cut
    assert not seeded_match.shows_score(hidden)
    # Highlights and clips keep their own length: it says nothing about the match's.
    lengths = {e["_id"]: e["duration"] for e in hidden["content"]["entries"]}
    assert lengths == {e["id"]: e["duration_s"] for e in seeded_match.cut_from_it}


async def test_one_highlight_leaves_the_score_out_only_when_asked(client, seeded_match):
    highlight = seeded_match.highlight
    path = f"/clip/get_by_id/id/{highlight['id']}"
    for params in MODES.values():
        shown = (await answer(client, "GET", path, {"media_type": "highlight", **params}))["content"]
        assert shown["title"] == highlight["title"] and seeded_match.shows_score(shown)
    hidden = (await answer(client, "GET", path, {"media_type": "highlight", **HIDE}))["content"]
    assert hidden["title"] == f"Highlights: {seeded_match.home_name} vs {seeded_match.away_name}"
    assert not seeded_match.shows_score(hidden) and hidden["duration"] == highlight["duration_s"]


async def test_related_videos_leave_the_score_and_the_matchs_length_out_only_when_asked(client, seeded_match):
    params = {"id": seeded_match.highlight["id"], "size": 100}
    for mode in MODES.values():
        shown = await answer(client, "GET", "/vod/get_related_videos", {**params, **mode})
        assert seeded_match.shows_score(shown), mode
    hidden = await answer(client, "GET", "/vod/get_related_videos", {**params, **HIDE})
    entries = {e["_id"]: e for e in hidden["content"]["entries"]}
    assert not seeded_match.shows_score(hidden)
    assert entries[seeded_match.game["id"]]["duration"] is None  # the match itself


async def test_an_unknown_spoilers_value_is_a_validation_error(client, catalogue):
    for method, path, request in (
        ("POST", "/clip/list", {"json": {}}),
        ("GET", f"/clip/get_by_id/id/{catalogue['recap']}", {}),
        ("GET", "/vod/get_related_videos", {"params": {"id": catalogue["recap"]}}),
    ):
        params = {**request.pop("params", {}), "spoilers": "HIDE"}
        response = await client.request(method, "/api" + path, params=params, **request)
        assert response.status_code == 400, response.text
        assert response.json()["messageErrorCode"] == "validation_error", path
