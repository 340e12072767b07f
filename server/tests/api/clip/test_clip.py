"""The `clip` and `vod` operations."""


async def test_clip_list_filters_by_event_and_kind(client, catalogue):
    body = {"event_id": [catalogue["archived"]], "type": ["recap"], "next": True, "count": True}
    content = (await client.post("/api/clip/list", json=body)).json()["content"]
    assert [c["_id"] for c in content["entries"]] == [catalogue["recap"]]
    assert content["entries"][0]["event_id"] == catalogue["archived"]
    assert content["entries"][0]["type"] == "recap" and content["totalCount"] == 1


async def test_clip_list_without_filters_lists_highlights_and_clips_only(client, catalogue):
    content = (await client.post("/api/clip/list", json={})).json()["content"]
    assert {c["_id"] for c in content["entries"]} == {catalogue["recap"], catalogue["goal"], catalogue["dunk"]}


async def test_get_clip_by_id_and_events_are_not_clips(client, catalogue):
    ok = await client.get(f"/api/clip/get_by_id/id/{catalogue['goal']}")
    assert ok.status_code == 200 and ok.json()["content"]["startTime"] == 2_400_000
    missing = await client.get(f"/api/clip/get_by_id/id/{catalogue['live']}")
    assert missing.status_code == 404


async def test_related_videos_share_a_team_and_exclude_the_item(client, catalogue):
    content = (await client.get("/api/vod/get_related_videos", params={"id": catalogue["recap"]})).json()["content"]
    ids = {e["_id"] for e in content["entries"]}
    assert catalogue["recap"] not in ids
    assert catalogue["archived"] in ids and catalogue["goal"] in ids
    assert catalogue["hoops"] not in ids and content["nextExists"] is False


async def test_related_videos_of_unknown_item_is_not_found(client, catalogue):
    response = await client.get("/api/vod/get_related_videos", params={"id": "0" * 24})
    assert response.status_code == 404
