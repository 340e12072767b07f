"""The `identity` operations: categories, sub-categories and teams."""


async def list_identities(client, **body):
    response = await client.post("/api/identity/list", json=body)
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def test_main_categories_in_their_order(client, catalogue):
    content = await list_identities(client, filters={"media_type": "identity"})
    assert [i["title"] for i in content["entries"]] == ["Football", "Basketball"]


async def test_sub_categories_sorted_by_media_parent_order(client, catalogue):
    parent = catalogue["football"]
    content = await list_identities(
        client,
        page=0,
        size=100,
        sort=f"media_parent_order.{parent}",
        filters={"media_type": "identity_item", "identityId": parent},
    )
    assert [i["title"] for i in content["entries"]] == ["Coastal Cup", "Northern Premier Division", "Old Winter League"]
    assert content["entries"][1]["media_parent_order"] == {parent: 2}
    assert content["entries"][1]["mainCategories"] == [parent]


async def test_archived_filter(client, catalogue):
    content = await list_identities(client, filters={"media_type": "identity_item", "archived": True})
    assert [i["_id"] for i in content["entries"]] == [catalogue["old"]]


async def test_teams_of_a_league(client, catalogue):
    content = await list_identities(
        client, sort="title", filters={"media_type": "team", "identityId": catalogue["cbl"]}
    )
    assert [(t["title"], t["shortName"]) for t in content["entries"]] == [
        ("Bayview Tigers", "BAY"),
        ("Summit Bears", "SUM"),
    ]


async def test_page_size_alias(client, catalogue):
    content = await list_identities(client, pageSize=1, filters={"media_type": "identity"})
    assert content["itemsPerPage"] == 1 and content["entryCount"] == 1


async def test_get_identity_and_team_by_id(client, catalogue):
    league = (await client.get(f"/api/identity/get_by_id/id/{catalogue['npd']}")).json()["content"]
    assert league["media_type"] == "identity_item" and league["mediaParentIdentities"][0]["title"] == "Football"
    team = (await client.get(f"/api/identity/get_by_id/id/{catalogue['hawks']}")).json()["content"]
    assert team["media_type"] == "team" and team["color"] == "#2e7d32"
    assert set(team["identityId"]) == {catalogue["npd"], catalogue["cup"], catalogue["football"]}


async def test_unknown_identity_is_not_found(client, catalogue):
    response = await client.get("/api/identity/get_by_id/id/" + "a" * 24)
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "identity_not_found"


async def test_bad_sort_key_is_rejected(client, catalogue):
    response = await client.post("/api/identity/list", json={"sort": "media_parent_order.nope"})
    assert response.status_code == 400
