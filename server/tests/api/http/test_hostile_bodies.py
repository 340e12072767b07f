"""Hostile request bodies get a 400 or a 413 in the error envelope, never a 500 or the server's
memory: nesting is bounded, sizes are bounded before a body is read, and bad values are echoed
only in part."""

import json

import httpx
import pytest

from server.api.http.contract_document import document
from server.api.http.routing import operations
from server.api.http.validation import ECHO_CHARACTERS, MAX_JSON_DEPTH
from server.app import create_api
from server.tests.accounts import sign_up
from server.tests.conftest import with_state
from server.tests.mailbox import staff_headers

from .test_errors import assert_envelope

JSON = {"content-type": "application/json"}
SOME_ID = "5f1c0a8e2b3d4c5e6f7a8b9c"


def nested_objects(depth: int) -> str:
    """`{"q": {"q": ... "x" ...}}`, `depth` objects deep."""
    return '{"q":' * depth + '"x"' + "}" * depth


def nested_arrays_in_filters(depth: int) -> str:
    return '{"filters":{"status":' + "[" * depth + '"live"' + "]" * depth + "}}"


def json_operations() -> list:
    """Every operation of the contract that takes a JSON body: (method, path with made-up ids)."""
    spec = document()
    found = []
    for op in operations():
        content = (spec["paths"][op.path][op.method.lower()].get("requestBody") or {}).get("content", {})
        if "application/json" in content:
            path = "/api" + "/".join(SOME_ID if part.startswith("{") else part for part in op.path.split("/"))
            found.append(pytest.param(op.method, path, id=op.operation_id))
    return found


@pytest.fixture(scope="module")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


@pytest.mark.parametrize("depth", [40, 300, 1100, 100_000])
async def test_deeply_nested_objects_are_a_validation_error_about_the_body(client, depth):
    response = await client.post("/api/event/list", content=nested_objects(depth), headers=JSON)
    body = assert_envelope(response, 400, "validation_error")
    assert body["details"] == [
        {"field": "body", "message": f"nests objects and arrays more than {MAX_JSON_DEPTH} levels deep"}
    ]


@pytest.mark.parametrize("depth", [40, 950, 5000])
async def test_deeply_nested_arrays_inside_a_filter_are_a_validation_error(client, depth):
    response = await client.post("/api/event/list", content=nested_arrays_in_filters(depth), headers=JSON)
    assert assert_envelope(response, 400, "validation_error")["details"][0]["field"] == "body"


async def test_nesting_up_to_the_limit_is_validated_as_usual(client):
    response = await client.post("/api/event/list", content=nested_arrays_in_filters(MAX_JSON_DEPTH - 2), headers=JSON)
    assert assert_envelope(response, 400, "validation_error")["details"][0]["field"] == "filters.status[0]"


@pytest.mark.parametrize(("method", "path"), json_operations())
async def test_every_operation_refuses_a_deeply_nested_body(client, staff, method, path):
    headers = {**JSON, **staff, "Idempotency-Key": "hostile-nesting-0001"}
    response = await client.request(method, path, content=nested_objects(300), headers=headers)
    body = assert_envelope(response, 400, "validation_error")
    assert body["details"][0]["field"] == "body"


async def test_numbers_and_strings_json_does_not_allow_are_not_valid_json(client):
    for raw in (b'{"page": NaN}', b'{"page": Infinity}', b'{"page": 1e999}', b'{"q": "\\ud800"}'):
        response = await client.post("/api/event/list", content=raw, headers=JSON)
        assert assert_envelope(response, 400, "validation_error")["details"][0]["field"] == "body", raw


async def test_a_json_body_without_a_content_type_is_read_as_json(client):
    response = await client.post("/api/event/list", content=b'{"page": 0, "size": 1}')
    assert response.status_code == 200, response.text
    assert response.json()["content"]["itemsPerPage"] == 1


async def test_an_empty_body_labelled_with_any_type_is_no_body(client):
    # aiohttp labels an empty POST application/octet-stream: a required body is missing, not of a wrong type.
    response = await client.post("/api/event/list", content=b"", headers={"content-type": "application/octet-stream"})
    assert "RequestBody is required" in assert_envelope(response, 400, "validation_error")["message"]


async def test_a_rejected_value_is_echoed_only_in_part(client):
    response = await client.post("/api/event/list", json={"page": 0, "size": 10, "order": "x" * 1_000_000})
    body = assert_envelope(response, 400, "validation_error")
    assert len(response.content) < 2_000
    [detail] = body["details"]
    assert detail["field"] == "order"
    assert detail["message"].startswith("'" + "x" * (ECHO_CHARACTERS - 1) + "… (1000002 characters)")
    assert detail["message"].endswith("is not one of ['asc', 'desc']")


async def test_a_long_query_parameter_is_echoed_only_in_part(client):
    response = await client.get("/api/event/search", params={"q": "y" * 20_000})
    assert_envelope(response, 400, "validation_error")
    assert len(response.content) < 2_000


@pytest.fixture
def counting_client(settings, database):
    """A client of the API that records the size of every body message the server receives."""
    received: list[int] = []
    api = with_state(create_api(settings), {"database": database, "settings": settings})

    async def counting(scope, receive, send):
        async def counted():
            message = await receive()
            received.append(len(message.get("body", b"")))
            return message

        await api(scope, counted, send)

    transport = httpx.ASGITransport(app=counting)
    return httpx.AsyncClient(transport=transport, base_url="http://touchline.test"), received


async def test_a_body_over_the_limit_is_refused_from_its_length_without_reading_it(counting_client, settings):
    http, received = counting_client
    assert settings.max_body_bytes == 1024 * 1024
    async with http:
        response = await http.post(
            "/api/event/list", content=b'{"q": "' + b"x" * settings.max_body_bytes + b'"}', headers=JSON
        )
    body = assert_envelope(response, 413, "payload_too_large")
    assert body["message"] == "The request body is larger than 1048576 bytes"
    assert response.headers["connection"] == "close"
    assert received == []


async def test_a_chunked_body_is_cut_off_once_it_passes_the_limit(counting_client, settings):
    http, received = counting_client

    async def hundred_megabytes():
        for _ in range(100):
            yield b"x" * (1024 * 1024)

    async with http:
        response = await http.post("/api/event/list", content=hundred_megabytes(), headers=JSON)
    assert_envelope(response, 413, "payload_too_large")
    assert sum(received) <= settings.max_body_bytes + 1024 * 1024  # stopped in the chunk that passed it


async def test_a_body_within_the_limit_reaches_validation(client, settings):
    padding = "x" * (settings.max_body_bytes - 100)
    response = await client.post("/api/event/list", content=json.dumps({"q": padding}), headers=JSON)
    assert response.status_code != 413


async def test_the_limit_is_a_setting(settings, database):
    small = settings.model_copy(update={"max_body_bytes": 2048})
    api = create_api(small)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": small}))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as http:
        account = await sign_up(http)
        assert account["headers"]
        refused = await http.post("/api/event/list", content=json.dumps({"q": "x" * 3000}), headers=JSON)
    assert_envelope(refused, 413, "payload_too_large")
