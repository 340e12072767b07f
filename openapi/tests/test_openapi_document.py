"""Checks of the OpenAPI document itself: valid, loadable by Connexion, complete and self-consistent.

These tests need no server code: a stub resolver answers every operation with the example of its
first success response, and requests are built from the document's own examples, so the
examples are checked both by a JSON Schema validator and by Connexion's request and response
validation (what the real server will run with).
"""

from __future__ import annotations

import copy
import keyword
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml
from openapi_schema_validator import OAS30Validator, oas30_format_checker
from openapi_spec_validator import validate as validate_spec
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

DOCUMENT_PATH = Path(__file__).resolve().parents[1] / "openapi.yaml"
DOCUMENT_TEXT = DOCUMENT_PATH.read_text(encoding="utf-8")
# libyaml's loader: the pure-Python one takes seconds over this document, in every test process.
DOCUMENT: dict[str, Any] = yaml.load(DOCUMENT_TEXT, Loader=yaml.CSafeLoader)
BASE_URI = "urn:touchline:openapi"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
# Paths whose first segment is not their tag.
# Paths whose first segment names no tag: the meta routes, and the search across everything (its
# answer leads with events, and the event handlers serve it).
# The one media type answered besides JSON: iCalendar documents (the calendar feeds; the server
# adds `charset=utf-8`, which Connexion's response validation leaves aside).
CALENDAR = "text/calendar"
TAG_EXCEPTIONS = {"/health": "meta", "/config": "meta", "/search": "event"}

REGISTRY = Registry().with_resource(BASE_URI, Resource.from_contents(DOCUMENT, default_specification=DRAFT4))


def _pointer(*parts: str | int) -> str:
    return "#/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _resolve(node: Any) -> Any:
    """Follow local `$ref`s (responses, parameters, request bodies) to the object they name."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), f"only local references are used: {ref}"
        target: Any = DOCUMENT
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in DOCUMENT["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


OPERATIONS = list(_operations())
OPERATION_IDS = [f"{method.upper()} {path}" for path, method, _ in OPERATIONS]


def _parameters(path: str, operation: dict[str, Any]) -> list[dict[str, Any]]:
    shared = DOCUMENT["paths"][path].get("parameters", [])
    return [_resolve(p) for p in [*shared, *operation.get("parameters", [])]]


def _json_example(media: dict[str, Any]) -> Any:
    if "example" in media:
        return media["example"]
    examples = media.get("examples") or {}
    assert examples, "no example"
    return _resolve(next(iter(examples.values())))["value"]


def _validator(pointer: str) -> OAS30Validator:
    return OAS30Validator({"$ref": BASE_URI + pointer}, registry=REGISTRY, format_checker=oas30_format_checker)


def _schema_pointer_of_response(path: str, method: str, status: str) -> str:
    response = DOCUMENT["paths"][path][method]["responses"][status]
    if "$ref" in response:
        name = response["$ref"].rsplit("/", 1)[1]
        return _pointer("components", "responses", name, "content", "application/json", "schema")
    return _pointer("paths", path, method, "responses", status, "content", "application/json", "schema")


def _errors(validator: OAS30Validator, instance: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in validator.iter_errors(instance)]


# --- the document as a whole ---------------------------------------------------------------


def test_document_is_valid_openapi_30() -> None:
    assert DOCUMENT["openapi"].startswith("3.0.")
    validate_spec(DOCUMENT)


def test_connexion_jinja_pass_leaves_the_document_unchanged() -> None:
    # Connexion renders the file with Jinja2 before parsing it: "{{", "{%" or "{#" would change it.
    assert yaml.load(jinja2.Template(DOCUMENT_TEXT).render(), Loader=yaml.CSafeLoader) == DOCUMENT


def _schemas() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object of the document (components and inline), with where it is."""

    def walk(schema: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
        if not isinstance(schema, dict) or "$ref" in schema:
            return
        yield where, schema
        for name, sub in schema.get("properties", {}).items():
            yield from walk(sub, f"{where}.{name}")
        for key in ("items", "additionalProperties", "not"):
            yield from walk(schema.get(key), f"{where}[{key}]")
        for key in ("allOf", "anyOf", "oneOf"):
            for index, sub in enumerate(schema.get(key, [])):
                yield from walk(sub, f"{where}.{key}[{index}]")

    def find(node: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "schema":
                    yield from walk(value, f"{where}/schema")
                elif key not in ("example", "examples"):
                    yield from find(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from find(value, f"{where}/{index}")

    for name, schema in DOCUMENT["components"]["schemas"].items():
        yield from walk(schema, name)
    yield from find(DOCUMENT["paths"], "paths")
    yield from find(DOCUMENT["components"]["parameters"], "parameters")
    yield from find(DOCUMENT["components"]["responses"], "responses")


def test_schemas_use_openapi_30_types_only() -> None:
    allowed = {"string", "number", "integer", "boolean", "array", "object"}
    bad = [where for where, schema in _schemas() if "type" in schema and schema["type"] not in allowed]
    assert not bad, f"no 'null' type in OpenAPI 3.0 (use nullable: true): {bad}"
    for where, schema in _schemas():
        if None in schema.get("enum", []):
            assert schema.get("nullable") is True, f"{where}: null in enum needs nullable: true"


def test_servers_base_path() -> None:
    assert DOCUMENT["servers"] == [{"url": "/api"}]
    assert not any(path.startswith("/api/") for path in DOCUMENT["paths"])


# --- operations ------------------------------------------------------------------------------


def test_operation_ids_are_unique_snake_case_python_names() -> None:
    ids = [op.get("operationId", "") for _, _, op in OPERATIONS]
    assert all(ids), "every operation has an operationId"
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    bad = [i for i in ids if not SNAKE_CASE.match(i) or keyword.iskeyword(i)]
    assert not bad, bad


@pytest.mark.parametrize(("path", "method", "operation"), OPERATIONS, ids=OPERATION_IDS)
def test_operation_has_one_declared_tag_matching_its_path(path: str, method: str, operation: dict[str, Any]) -> None:
    declared = {tag["name"] for tag in DOCUMENT["tags"]}
    tags = operation.get("tags", [])
    assert len(tags) == 1 and tags[0] in declared, tags
    assert tags[0] == TAG_EXCEPTIONS.get(path, path.split("/")[1])
    assert operation.get("summary"), "every operation has a summary"


@pytest.mark.parametrize(("path", "method", "operation"), OPERATIONS, ids=OPERATION_IDS)
def test_operation_documents_the_statuses_it_can_answer(path: str, method: str, operation: dict[str, Any]) -> None:
    responses = operation["responses"]
    assert any(code.startswith("2") for code in responses), "a success response"
    takes_input = bool(_parameters(path, operation)) or "requestBody" in operation
    if takes_input:
        assert "400" in responses, "operations that take input document 400"
    security = operation.get("security", DOCUMENT.get("security", []))
    if any("bearerAuth" in requirement for requirement in security):
        assert "401" in responses, "operations that take a token document 401"
    if path.startswith("/admin/"):
        assert security == [{"bearerAuth": []}, {"apiKeyAuth": []}], "admin operations need a staff token or an API key"
        assert operation.get("x-touchline-role") in ("support", "admin"), "admin operations state their role"
        assert "403" in responses, "admin operations document 403 (forbidden_role) for other roles"


@pytest.mark.parametrize(("path", "method", "operation"), OPERATIONS, ids=OPERATION_IDS)
def test_every_response_is_json_with_an_example(path: str, method: str, operation: dict[str, Any]) -> None:
    for status, response in operation["responses"].items():
        if _bodiless(method, status):
            assert "content" not in _resolve(response), f"{status}: no body"
            continue
        content = _resolve(response).get("content", {})
        media = content.get("application/json", content.get(CALENDAR))  # iCalendar: the one text answer
        assert media is not None, f"{status}: application/json content"
        assert "schema" in media, f"{status}: schema"
        _json_example(media)  # raises when there is none


@pytest.mark.parametrize(("path", "method", "operation"), OPERATIONS, ids=OPERATION_IDS)
def test_parameters_and_bodies_have_examples(path: str, method: str, operation: dict[str, Any]) -> None:
    for parameter in _parameters(path, operation):
        if parameter["in"] in ("path", "header") or parameter.get("required"):
            assert "example" in parameter, f"{parameter['name']}: example (Dredd needs it)"
    if "requestBody" in operation and (media := _json_body(operation)) is not None:
        _json_example(media)


# --- examples against schemas ----------------------------------------------------------------


def _bodiless(method: str, status: str) -> bool:
    """Answers HTTP gives no body: 204, and any answer to a HEAD (the tus offset)."""
    return status == "204" or method == "head"


def _json_body(operation: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON request body's media object; None for the one body of bytes (a tus upload's
    `application/offset+octet-stream`, checked in test_the_only_body_of_bytes_is_a_tus_upload)."""
    return operation["requestBody"]["content"].get("application/json")


def test_the_only_text_answers_are_calendars() -> None:
    """Every answer is JSON but the iCalendar documents, whose example is a VCALENDAR."""
    for _path, _method, operation in OPERATIONS:
        for response in map(_resolve, operation["responses"].values()):
            content = response.get("content", {})
            if content and "application/json" not in content:
                assert list(content) == [CALENDAR], operation["operationId"]
                assert content[CALENDAR]["example"].startswith("BEGIN:VCALENDAR\n"), operation["operationId"]


def test_the_only_body_of_bytes_is_a_tus_upload() -> None:
    for _path, _method, operation in OPERATIONS:
        content = (operation.get("requestBody") or {}).get("content", {})
        if content and "application/json" not in content:
            assert operation["operationId"] == "append_upload"
            assert content == {BYTES: {"schema": {"type": "string", "format": "binary"}}}


BYTES = "application/offset+octet-stream"
RESPONSE_CASES = [
    (path, method, status)
    for path, method, operation in OPERATIONS
    for status in operation["responses"]
    if not _bodiless(method, status)
]


@pytest.mark.parametrize(
    ("path", "method", "status"),
    RESPONSE_CASES,
    ids=[f"{m.upper()} {p} {s}" for p, m, s in RESPONSE_CASES],
)
def test_response_example_validates_against_its_schema(path: str, method: str, status: str) -> None:
    response = _resolve(DOCUMENT["paths"][path][method]["responses"][status])
    if CALENDAR in response["content"]:  # text, checked in test_the_only_text_answers_are_calendars
        return
    example = _json_example(response["content"]["application/json"])
    validator = _validator(_schema_pointer_of_response(path, method, status))
    assert _errors(validator, example) == []


@pytest.mark.parametrize(("path", "method", "operation"), OPERATIONS, ids=OPERATION_IDS)
def test_request_examples_validate_against_their_schemas(path: str, method: str, operation: dict[str, Any]) -> None:
    for index, parameter in enumerate(operation.get("parameters", [])):
        resolved = _resolve(parameter)
        if "example" not in resolved:
            continue
        if "$ref" in parameter:
            name = parameter["$ref"].rsplit("/", 1)[1]
            pointer = _pointer("components", "parameters", name, "schema")
        else:
            pointer = _pointer("paths", path, method, "parameters", index, "schema")
        assert _errors(_validator(pointer), resolved["example"]) == [], resolved["name"]
    if "requestBody" in operation and _json_body(operation) is not None:
        assert "$ref" not in operation["requestBody"], "request bodies are written inline"
        media = operation["requestBody"]["content"]["application/json"]
        pointer = _pointer("paths", path, method, "requestBody", "content", "application/json", "schema")
        assert _errors(_validator(pointer), _json_example(media)) == []


def test_component_schema_examples_validate() -> None:
    for name, schema in DOCUMENT["components"]["schemas"].items():
        if "example" in schema:
            pointer = _pointer("components", "schemas", name)
            assert _errors(_validator(pointer), schema["example"]) == [], name


def test_strict_bodies_reject_unknown_fields() -> None:
    """New request bodies are closed: an unexpected field is a 400, not silently ignored."""
    open_bodies = {"list_events", "list_clips", "list_identities"}  # catalogue, allOf-composed
    for _path, _method, operation in OPERATIONS:
        if "requestBody" not in operation or operation["operationId"] in open_bodies or _json_body(operation) is None:
            continue
        schema = _resolve(operation["requestBody"]["content"]["application/json"]["schema"])
        parts = [schema, *[_resolve(s) for s in schema.get("allOf", [])]]
        assert any(p.get("additionalProperties") is False for p in parts), operation["operationId"]


def test_emittable_socket_messages_match_the_asyncapi_document() -> None:
    asyncapi_path = DOCUMENT_PATH.parents[1] / "asyncapi" / "asyncapi.yaml"
    if not asyncapi_path.exists():
        pytest.skip("no AsyncAPI document")
    asyncapi = yaml.safe_load(asyncapi_path.read_text(encoding="utf-8"))
    messages = asyncapi["components"]["messages"]
    sent = asyncapi["channels"]["/"]["subscribe"]["message"]["oneOf"]
    names = {messages[m["$ref"].rsplit("/", 1)[1]]["name"] for m in sent}
    emit = DOCUMENT["components"]["schemas"]["EmitSocketRequest"]["properties"]["event"]["enum"]
    assert set(emit) == names


# --- Connexion -------------------------------------------------------------------------------


def _first_success(operation: dict[str, Any]) -> tuple[int, Any]:
    """The first success status and its example (None for an answer without a body)."""
    status = min(code for code in operation["responses"] if code.startswith("2"))
    response = _resolve(operation["responses"][status])
    if "content" not in response:
        return int(status), None
    if CALENDAR in response["content"]:
        return int(status), response["content"][CALENDAR]["example"]
    return int(status), _json_example(response["content"]["application/json"])


@pytest.fixture(scope="module")
def connexion_client():
    connexion = pytest.importorskip("connexion")
    from connexion.resolver import Resolver
    from connexion.security import BearerSecurityHandler

    by_id = {op["operationId"]: op for _, _, op in OPERATIONS}

    class AcceptAnyBearer(BearerSecurityHandler):
        def _resolve_func(self, security_scheme):
            return lambda token: {"sub": "test", "token": token}

    def resolve(operation_id: str):
        status, example = _first_success(by_id[operation_id])

        async def handler(*args, **kwargs):
            if example is None:
                return None, status
            if isinstance(example, str):  # an iCalendar document
                return example, status, {"Content-Type": CALENDAR}
            return copy.deepcopy(example), status, {"Content-Type": "application/json"}

        return handler

    app = connexion.AsyncApp(__name__, security_map={"bearer": AcceptAnyBearer})
    app.add_api(
        DOCUMENT_PATH,
        resolver=Resolver(resolve),
        strict_validation=True,
        validate_responses=True,
    )
    with app.test_client() as client:
        yield client


@pytest.mark.parametrize(("path", "method", "operation"), OPERATIONS, ids=OPERATION_IDS)
def test_connexion_accepts_the_examples(connexion_client, path: str, method: str, operation: dict[str, Any]) -> None:
    """The request built from the examples passes Connexion's request validation, and the
    success example passes its response validation."""
    url = "/api" + path
    query: dict[str, Any] = {}
    headers = {"Authorization": "Bearer test-token"}
    for parameter in _parameters(path, operation):
        if "example" not in parameter:
            continue
        value = parameter["example"]
        if parameter["in"] == "path":
            url = url.replace("{" + parameter["name"] + "}", str(value))
        elif parameter["in"] == "query":
            if isinstance(value, bool):
                value = str(value).lower()
            query[parameter["name"]] = value
        elif parameter["in"] == "header":
            headers[parameter["name"]] = str(value)
    kwargs: dict[str, Any] = {"params": query, "headers": headers}
    if "requestBody" in operation and (media := _json_body(operation)) is not None:
        kwargs["json"] = _json_example(media)
    elif "requestBody" in operation:
        kwargs["content"], headers["Content-Type"] = b"bytes of a video", BYTES
    response = connexion_client.request(method.upper(), url, **kwargs)
    status, example = _first_success(operation)
    assert response.status_code == status, response.text
    if isinstance(example, str):
        assert response.text == example
    elif example is not None:
        assert response.json() == example


def test_connexion_rejects_unknown_fields_and_missing_tokens(connexion_client) -> None:
    body = {
        "username": "ada@example.com",
        "password": "x",
        "device_id": "d",
        "device_name": "d",
        "surprise": 1,
    }
    assert connexion_client.post("/api/user/login", json=body).status_code == 400
    assert connexion_client.get("/api/user/get_profile").status_code == 401
    # Optional sign-in: works without a token.
    assert (
        connexion_client.get(
            "/api/event/get_commerce_options", params={"eventId": "5f1c0a8e2b3d4c5e6f7a8b9c"}
        ).status_code
        == 200
    )
    # Money-moving calls need an Idempotency-Key.
    purchase = {
        "event_id": "5f1c0a8e2b3d4c5e6f7a8b9c",
        "product_id": "4a1c0a8e2b3d4c5e6f7a8bb0",
        "card": {"token": "tok_sandbox_9fK2mX7qL4vB8nR1"},
    }
    response = connexion_client.post("/api/commerce/ppv/purchase", json=purchase, headers={"Authorization": "Bearer t"})
    assert response.status_code == 400
