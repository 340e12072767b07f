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
    assert_envelope(await client.get("/api/event/grouped_sport_count", params={"colour": "red"}), 400, "validation_error")


async def test_bad_path_parameter_type_is_a_validation_error(client):
    response = await client.get("/api/event/stats", params={"id": "x"})
    assert_envelope(response, 400, "validation_error")
