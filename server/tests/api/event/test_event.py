"""The `event` operations, as a viewer's client uses them."""

import pytest

from server.tests.media_dir import as_sample


async def list_events(client, **body):
    response = await client.post("/api/event/list", json=body)
    assert response.status_code == 200, response.text
    return response.json()["content"]


def titles(content) -> list[str]:
    return [e["title"] for e in content["entries"]]


async def test_list_defaults_to_page_zero_of_ten_events_newest_first(client, catalogue):
    content = await list_events(client)
    assert content["itemsPerPage"] == 10 and content["startIndex"] == 0
    assert all(e["media_type"] == "event" for e in content["entries"])
    dates = [e["event_date"] for e in content["entries"]]
    assert dates == sorted(dates, reverse=True)
    assert content["totalCount"] is None and content["nextExists"] is None


async def test_next_and_count_fill_the_page_envelope(client, catalogue):
    first = await list_events(client, size=2, next=True, count=True)
    assert first["entryCount"] == first["count"] == 2
    assert first["totalCount"] == 6
    assert first["nextExists"] is True
    last = await list_events(client, page=2, size=2, next=True)
    assert last["startIndex"] == 4 and last["nextExists"] is False


async def test_filter_by_status(client, catalogue):
    content = await list_events(client, filters={"status": ["live"]})
    assert [e["_id"] for e in content["entries"]] == [catalogue["live"]]


async def test_filter_by_league_identity(client, catalogue):
    content = await list_events(
        client, filters={"identities.id": [catalogue["npd"]], "identities.type": "identity_item"}
    )
    assert {e["_id"] for e in content["entries"]} == {catalogue["live"], catalogue["upcoming"]}


async def test_identity_type_narrows_the_identity_filter(client, catalogue):
    content = await list_events(
        client, filters={"identities.id": [catalogue["football"]], "identities.type": "identity_item"}
    )
    assert content["entries"] == []


async def test_filter_by_main_category_without_type(client, catalogue):
    content = await list_events(client, filters={"identities.id": [catalogue["basketball"]]})
    assert [e["_id"] for e in content["entries"]] == [catalogue["hoops"]]


async def test_filter_by_team_matches_home_or_away(client, catalogue):
    content = await list_events(client, filters={"search.teams.id": [catalogue["mariners"]]})
    assert {e["_id"] for e in content["entries"]} == {catalogue["live"], catalogue["archived"]}


async def test_filter_by_sport_type_and_media_type(client, catalogue):
    content = await list_events(client, filters={"sportType": ["basketball"], "media_type": ["highlight"]})
    assert [e["_id"] for e in content["entries"]] == [catalogue["dunk"]]


async def test_filter_by_external_event_id(client, catalogue):
    one = (await client.get(f"/api/event/get_by_id/id/{catalogue['upcoming']}")).json()["content"]
    content = await list_events(client, filters={"event_id": [one["event_id"]]})
    assert [e["_id"] for e in content["entries"]] == [catalogue["upcoming"]]


async def test_filter_by_date_range_in_milliseconds(client, catalogue):
    now_ms = int(catalogue.now.timestamp() * 1000)
    day = 86_400_000
    content = await list_events(client, filters={"event_date": f"{now_ms - 4 * day}~{now_ms}"})
    assert {e["_id"] for e in content["entries"]} == {catalogue["live"], catalogue["archived"]}
    open_ended = await list_events(client, filters={"event_date": f"{now_ms}~"})
    assert {e["_id"] for e in open_ended["entries"]} == {catalogue["upcoming"], catalogue["training"]}


async def test_sort_by_title_ascending(client, catalogue):
    content = await list_events(client, sort="title", order="asc")
    assert titles(content) == sorted(titles(content))


async def test_event_fields_follow_the_spec(client, catalogue):
    content = await list_events(client, filters={"status": ["live"]})
    event = content["entries"][0]
    assert event["eventTeams"]["homeTeam"]["shortName"] == "HCM"
    assert event["eventTeams"]["awayTeam"]["teamId"] == catalogue["rovers"]
    assert event["metaTitle"] == "Northern Premier Division•Football"
    # A free event's stream, signed for anyone (server/tests/media/delivery/test_signed_routes.py plays it).
    assert as_sample(event["content"]["HLSStream"]).startswith("/media/live/football/from-")
    assert "/index.m3u8?token=" in event["content"]["HLSStream"]
    assert event["commerce_type"] == "commerce_free_media" and event["availableForUser"] is True
    assert event["advertisements"] == {"link": {"vast": None}}


async def test_paid_event_is_not_available_to_an_anonymous_viewer(client, catalogue):
    event = (await client.get(f"/api/event/get_by_id/id/{catalogue['upcoming']}")).json()["content"]
    assert event["commerceType"] == ["ppv"] and event["availableForUser"] is False


async def test_event_without_teams_has_no_meta_title(client, catalogue):
    event = (await client.get(f"/api/event/get_by_id/id/{catalogue['training']}")).json()["content"]
    assert event["eventTeams"] is None and event["metaTitle"] is None and event["gameType"] == "other"


@pytest.mark.parametrize("id_type,field", [("event_id", "event_id"), ("reference_id", "reference_id")])
async def test_get_by_id_accepts_other_id_types(client, catalogue, id_type, field):
    event = (await client.get(f"/api/event/get_by_id/id/{catalogue['live']}")).json()["content"]
    again = await client.get(f"/api/event/get_by_id/id/{event[field]}", params={"idType": id_type})
    assert again.status_code == 200 and again.json()["content"]["_id"] == catalogue["live"]


async def test_unknown_event_gives_event_not_found(client, catalogue):
    response = await client.get("/api/event/get_by_id/id/ffffffffffffffffffffffff")
    assert response.status_code == 404
    assert response.json() == {"error": True, "message": "Event not found", "messageErrorCode": "event_not_found"}


@pytest.mark.parametrize(
    "body",
    [
        {"size": 101},
        {"page": -1},
        {"order": "sideways"},
        {"sort": "popularity"},
        {"filters": {"colour": ["red"]}},
        {"filters": {"event_date": "yesterday"}},
        {"filters": {"status": ["finished"]}},
        {"filters": {"identities.id": ["not-an-id"]}},
    ],
)
async def test_bad_list_requests_get_a_validation_error_envelope(client, catalogue, body):
    response = await client.post("/api/event/list", json=body)
    assert response.status_code == 400
    payload = response.json()
    assert payload["error"] is True and payload["messageErrorCode"] == "validation_error" and payload["message"]


async def test_reversed_date_range_is_a_validation_error(client, catalogue):
    response = await client.post("/api/event/list", json={"filters": {"event_date": "2000~1000"}})
    assert response.status_code == 400 and response.json()["messageErrorCode"] == "validation_error"


async def test_body_that_is_not_json_is_a_validation_error(client, catalogue):
    response = await client.post("/api/event/list", content=b"\xff\xfe{", headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["error"] is True


async def test_grouped_sport_count_counts_live_events_by_default(client, catalogue):
    content = (await client.get("/api/event/grouped_sport_count")).json()["content"]
    assert content["entries"] == [{"sportType": "football", "title": "Football", "count": 1}]
    archived = (await client.get("/api/event/grouped_sport_count", params={"status[]": ["archived"]})).json()["content"]
    assert {e["sportType"]: e["count"] for e in archived["entries"]} == {"football": 1, "basketball": 1}


async def test_stats_return_scores_and_overview(client, catalogue):
    content = (await client.get("/api/event/stats", params={"id": catalogue["archived"]})).json()["content"]
    assert content["vidswap"]["game-scores"]["homeTeam"]["score"] == 1
    assert content["vidswap"]["game-overview"]["groups"][0]["metrics"][0]["homeTeamValue"]["text"] == "54%"
    only_score = (
        await client.get("/api/event/stats", params={"id": catalogue["archived"], "overview": "false"})
    ).json()
    assert list(only_score["content"]["vidswap"]) == ["game-scores"]


async def test_stats_of_a_game_without_them_is_not_found(client, catalogue):
    response = await client.get("/api/event/stats", params={"id": catalogue["hoops"]})
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "stats_not_found"


async def test_channel_links_its_programme_and_programme_lists_the_window(client, catalogue):
    channel = (await client.get(f"/api/event/get_by_id/id/{catalogue['channel']}")).json()["content"]
    assert channel["content"]["EPG"] == f"/api/event/epg/{catalogue['channel']}"
    now_ms = int(catalogue.now.timestamp() * 1000)
    guide = (await client.get(channel["content"]["EPG"], params={"from": now_ms, "to": now_ms + 3_600_000})).json()
    slots = guide["content"]["entries"]
    assert guide["content"]["channel"]["title"] == "Touchline Sports 24"
    assert 1 <= len(slots) <= 2 and all(s["endTime"] > now_ms for s in slots)
    assert [s["startTime"] for s in slots] == sorted(s["startTime"] for s in slots)


async def test_programme_with_only_to_keeps_a_30_hour_window_before_it(client, catalogue):
    to_ms = int(catalogue.now.timestamp() * 1000) + 3_600_000
    guide = (await client.get(f"/api/event/epg/{catalogue['channel']}", params={"to": to_ms})).json()
    slots = guide["content"]["entries"]
    assert slots and all(s["startTime"] < to_ms and s["endTime"] > to_ms - 30 * 3_600_000 for s in slots)


async def test_programme_with_from_after_to_is_a_validation_error(client, catalogue):
    response = await client.get(f"/api/event/epg/{catalogue['channel']}", params={"from": 2_000, "to": 1_000})
    assert response.status_code == 400 and response.json()["messageErrorCode"] == "validation_error"


async def test_programme_of_a_non_channel_is_not_found(client, catalogue):
    response = await client.get(f"/api/event/epg/{catalogue['live']}")
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "channel_not_found"


async def test_search_matches_every_word_in_titles_and_team_names(client, catalogue):
    content = (await client.get("/api/event/search", params={"q": "MARINERS rovers"})).json()["content"]
    assert [e["_id"] for e in content["entries"]] == [catalogue["live"]]
    by_team = (await client.get("/api/event/search", params={"q": "hawks"})).json()["content"]
    assert {e["_id"] for e in by_team["entries"]} == {catalogue["upcoming"], catalogue["archived"]}


async def test_search_treats_wildcards_literally(client, catalogue):
    content = (await client.get("/api/event/search", params={"q": "%"})).json()["content"]
    assert content["entries"] == []


async def test_search_needs_a_query(client, catalogue):
    response = await client.get("/api/event/search")
    assert response.status_code == 400 and response.json()["messageErrorCode"] == "validation_error"


async def test_an_invalid_or_ended_token_on_a_public_operation_gets_401_so_the_client_refreshes(client, catalogue):
    from server.tests.accounts import sign_up

    forged = await client.post("/api/event/list", json={}, headers={"Authorization": "Bearer abc.def.ghi"})
    viewer = await sign_up(client)
    await client.post("/api/user/logout", headers=viewer["headers"])
    ended = await client.post("/api/event/list", json={}, headers=viewer["headers"])
    anonymous = await client.post("/api/event/list", json={})

    assert forged.status_code == 401 and forged.json()["messageErrorCode"] == "unauthorized"
    assert ended.status_code == 401
    assert anonymous.status_code == 200
