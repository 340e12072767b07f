"""Every failure, including the framework's own, answers in the error envelope."""


def assert_envelope(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["error"] is True and body["messageErrorCode"] == code and isinstance(body["message"], str)
    return body


async def test_unknown_api_path_is_not_found(client):
    assert_envelope(await client.get("/api/nothing/here"), 404, "not_found")


async def test_wrong_method_is_method_not_allowed(client):
    assert_envelope(await client.get("/api/event/list"), 405, "method_not_allowed")


async def test_wrong_content_type_is_rejected(client):
    response = await client.post("/api/event/list", content=b"page=1", headers={"content-type": "text/plain"})
    assert response.status_code in (400, 415) and response.json()["error"] is True


async def test_unknown_query_parameter_is_rejected_by_strict_validation(client):
    assert_envelope(
        await client.get("/api/event/grouped_sport_count", params={"colour": "red"}), 400, "validation_error"
    )


async def test_bad_path_parameter_type_is_a_validation_error(client):
    response = await client.get("/api/event/stats", params={"id": "x"})
    assert_envelope(response, 400, "validation_error")


async def test_bad_query_parameter_names_the_field_in_details(client):
    body = assert_envelope(
        await client.get("/api/vod/get_related_videos", params={"id": "a" * 24, "size": 0}), 400, "validation_error"
    )
    assert body["details"] == [{"field": "size", "message": "0 is less than the minimum of 1"}]
    assert body["message"] == "Invalid query parameter 'size': 0 is less than the minimum of 1"


async def test_missing_query_parameter_names_the_field(client):
    body = assert_envelope(await client.get("/api/event/stats"), 400, "validation_error")
    assert body["details"][0]["field"] == "id"


async def test_unknown_query_parameters_are_named(client):
    body = assert_envelope(
        await client.get("/api/event/grouped_sport_count", params={"colour": "red"}), 400, "validation_error"
    )
    assert body["details"][0]["field"] == "colour"


async def test_bad_body_field_is_named_with_its_path(client):
    response = await client.post("/api/event/list", json={"page": 0, "size": 10, "filters": {"status": ["soon"]}})
    body = assert_envelope(response, 400, "validation_error")
    assert body["details"][0]["field"] == "filters.status[0]"
    assert "soon" in body["details"][0]["message"]


async def test_body_that_is_not_json_is_a_validation_error_about_the_body(client):
    response = await client.post("/api/event/list", content=b"{page:", headers={"content-type": "application/json"})
    body = assert_envelope(response, 400, "validation_error")
    assert body["details"] == [{"field": "body", "message": "is not valid JSON"}]


async def test_body_that_is_not_utf8_is_a_validation_error(client):
    response = await client.post(
        "/api/event/list", content=b'{"page": "\xff"}', headers={"content-type": "application/json"}
    )
    assert_envelope(response, 400, "validation_error")


async def test_secured_operation_without_a_token_is_unauthorized(client):
    response = await client.get("/api/user/get_profile")
    assert_envelope(response, 401, "unauthorized")


async def test_forged_token_is_refused(client):
    response = await client.get("/api/user/get_profile", headers={"Authorization": "Bearer abc.def.ghi"})
    assert assert_envelope(response, 401, "unauthorized")["message"] == "Provided token is not valid"
