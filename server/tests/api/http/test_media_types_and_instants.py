"""Every JSON operation reads its body whatever the spelling of its media type, and date-times at
the ends of the range are a 400, never a 500 (issue: Content-Type in another case; OverflowError)."""

import copy

import pytest
from connexion.json_schema import resolve_refs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.api.http.contract_document import document
from server.api.http.media_types import canonical_content_type
from server.instants import parse_instant
from server.tests.mailbox import staff_headers

from .test_errors import assert_envelope
from .test_hostile_bodies import json_operations

CONTRACT = resolve_refs(document())
SOME_ID = "5f1c0a8e2b3d4c5e6f7a8b9c"


@pytest.fixture(scope="module")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


@st.composite
def json_media_type_spellings(draw):
    """application/json in any case, with or without a charset parameter spelled in any case."""

    def any_case(text: str) -> str:
        flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
        return "".join(c.upper() if flip else c.lower() for c, flip in zip(text, flips, strict=True))

    spelling = any_case("application") + "/" + any_case("json")
    if draw(st.booleans()):
        spelling += draw(st.sampled_from([";", "; ", " ;", " ; "])) + any_case("charset") + "=" + any_case("utf-8")
    return spelling


def test_a_media_type_is_spelled_canonically():
    assert canonical_content_type(b"APPLICATION/JSON") == b"application/json"
    assert canonical_content_type(b"Application/Json ; CharSet=UTF-8") == b"application/json; charset=utf-8"
    assert canonical_content_type(b"multipart/form-data; Boundary=AbC") == b"multipart/form-data; boundary=AbC"


@pytest.mark.parametrize(("method", "path"), json_operations())
@settings(max_examples=6, suppress_health_check=list(HealthCheck), deadline=None)
@given(spelling=json_media_type_spellings())
async def test_every_json_operation_validates_its_body_whatever_the_media_types_case(
    client, staff, method, path, spelling
):
    headers = {**staff, "Content-Type": spelling, "Idempotency-Key": "media-type-case-0001"}
    response = await client.request(method, path, content=b"[1]", headers=headers)
    assert assert_envelope(response, 400, "validation_error")["details"][0]["field"] == "body", spelling


async def test_a_login_in_upper_case_json_is_read_like_any_other(client):
    body = b'{"username": "nobody@example.com", "password": "wrong password", "device_id": "d", "device_name": "d"}'
    response = await client.post("/api/user/login", content=body, headers={"Content-Type": "APPLICATION/JSON"})
    assert response.status_code in (400, 401), response.text
    assert response.json()["error"] is True


# --- date-times at the ends of the range --------------------------------------------------------

OFFSETS = st.tuples(st.sampled_from("+-"), st.integers(0, 23), st.integers(0, 59)).map(
    lambda o: "Z" if o[1:] == (0, 0) else f"{o[0]}{o[1]:02d}:{o[2]:02d}"
)
EXTREME_INSTANTS = st.one_of(
    st.builds(lambda offset: f"9999-12-31T23:59:59{offset}", OFFSETS),
    st.builds(lambda offset: f"0001-01-01T00:00:00{offset}", OFFSETS),
    st.builds(lambda offset: f"9999-12-31T23:59:59.999999{offset}", OFFSETS),
)


def test_an_instant_pushed_out_of_range_by_its_offset_is_a_value_error():
    with pytest.raises(ValueError):
        parse_instant("9999-12-31T23:59:59-00:01")
    with pytest.raises(ValueError):
        parse_instant("0001-01-01T00:00:00+00:01")
    assert parse_instant("9999-12-31T23:59:59+00:01").year == 9999


def _date_time_fields(schema: dict, path: tuple = ()) -> list[tuple]:
    if not isinstance(schema, dict):
        return []
    if schema.get("format") == "date-time":
        return [path]
    found = []
    for name, sub in (schema.get("properties") or {}).items():
        found += _date_time_fields(sub, (*path, name))
    if "items" in schema:
        found += _date_time_fields(schema["items"], (*path, 0))
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(key, []):
            found += _date_time_fields(sub, path)
    return found


def _with_value(body, path: tuple, value: str):
    node = body
    for part in path[:-1]:
        if isinstance(part, int):
            if not isinstance(node, list) or not node:
                return None
        elif not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    if isinstance(path[-1], str) and not isinstance(node, dict):
        return None
    node[path[-1]] = value
    return body


def operations_with_date_times() -> list:
    found = []
    for template, item in CONTRACT["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            path = "/api" + "/".join(SOME_ID if part.startswith("{") else part for part in template.split("/"))
            media = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if media:
                examples = [media.get("example"), *(e.get("value") for e in (media.get("examples") or {}).values())]
                for field in _date_time_fields(media["schema"]):
                    for example in filter(None, examples):
                        found.append(pytest.param(method.upper(), path, field, example, None, id=f"{path}{field}"))
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "query" and parameter.get("schema", {}).get("format") == "date-time":
                    name = parameter["name"]
                    found.append(pytest.param(method.upper(), path, None, None, name, id=f"{path}?{name}"))
    return found


DATE_TIME_OPERATIONS = operations_with_date_times()


def test_the_contract_has_date_times_in_bodies_and_queries():
    assert sum(p.values[4] is None for p in DATE_TIME_OPERATIONS) >= 6
    assert sum(p.values[4] is not None for p in DATE_TIME_OPERATIONS) >= 2


@pytest.mark.parametrize(("method", "path", "field", "example", "query"), DATE_TIME_OPERATIONS)
@settings(max_examples=8, suppress_health_check=list(HealthCheck), deadline=None)
@given(instant=EXTREME_INSTANTS)
async def test_a_date_time_at_the_ends_of_the_range_is_never_a_server_error(
    client, staff, method, path, field, example, query, instant
):
    headers = {**staff, "Idempotency-Key": "extreme-instant-0001"}
    if query:
        response = await client.request(method, path, params={query: instant}, headers=headers)
    else:
        body = _with_value(copy.deepcopy(example), field, instant)
        assert body is not None, (path, field)
        response = await client.request(method, path, json=body, headers=headers)
    assert response.status_code < 500, (instant, response.text)
    if response.status_code >= 400:
        assert response.json()["error"] is True
