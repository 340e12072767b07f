"""Issue 26 §9: the contract states the character rule (server/text_rules.py) on every string a
request may carry, so clients and Schemathesis know it and the validator applies it."""

import re

import pytest

from server.api.http.contract_document import document
from server.text_rules import FREE_TEXT_PATTERN, SINGLE_LINE_PATTERN

SPEC = document()
# Strings whose formats already admit no control character.
# binary: a tus upload's bytes (any byte may be in a video).
STRICT_FORMATS = {"date", "date-time", "binary"}
# The long free text that may keep tabs and line breaks, and passwords (never stored as text,
# and an old one may hold a tab).
FREE_TEXT = {
    "create_event body.description",
    "update_event body.description",
    "login_user body.password",
    "change_password body.current_password",
    "record_analytics_events body.events[].properties.*",
}


def resolve(schema):
    while isinstance(schema, dict) and "$ref" in schema:
        node = SPEC
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def strings(schema, where: str, found: dict) -> None:
    schema = resolve(schema)
    if not isinstance(schema, dict):
        return
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(key, []):
            strings(sub, where, found)
    if schema.get("type") == "string" and "enum" not in schema and schema.get("format") not in STRICT_FORMATS:
        found[where] = schema
    for name, sub in (schema.get("properties") or {}).items():
        strings(sub, f"{where}.{name}", found)
    if "items" in schema:
        strings(schema["items"], f"{where}[]", found)
    if isinstance(schema.get("additionalProperties"), dict):
        strings(schema["additionalProperties"], f"{where}.*", found)


def request_strings() -> dict:
    found: dict = {}
    for item in SPEC["paths"].values():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            name = operation["operationId"]
            for parameter in [*item.get("parameters", []), *operation.get("parameters", [])]:
                parameter = resolve(parameter)
                strings(parameter.get("schema", {}), f"{name} {parameter['in']}:{parameter['name']}", found)
            body = resolve(operation.get("requestBody", {}))
            for content in (body.get("content") or {}).values():
                strings(content.get("schema", {}), f"{name} body", found)
    return found


REQUEST_STRINGS = request_strings()


def test_the_contract_has_request_strings_to_check():
    assert len(REQUEST_STRINGS) > 150 and "register_user body.displayName" in REQUEST_STRINGS


@pytest.mark.parametrize("where", sorted(REQUEST_STRINGS))
def test_every_request_string_refuses_control_characters(where):
    pattern = REQUEST_STRINGS[where].get("pattern")
    assert pattern, f"{where} has no pattern: give it the character rule ({SINGLE_LINE_PATTERN})"
    hostile = ["a\x00b", "a\x1b[2Jb", "a\x7fb", "a\x9bb", "a\x01b", "a\x85b"]
    if where not in FREE_TEXT:
        hostile += ["a\nb", "a\tb", "a\rb"]
    for text in hostile:
        assert not re.search(pattern, text), f"{where}: {pattern} lets {text!r} through"


@pytest.mark.parametrize("where", sorted(FREE_TEXT))
def test_free_text_keeps_tabs_and_line_breaks(where):
    assert REQUEST_STRINGS[where]["pattern"] == FREE_TEXT_PATTERN
    assert re.search(FREE_TEXT_PATTERN, "First half:\n\tgoal\r\n")


def test_the_rule_itself_is_the_contracts_wording():
    patterns = {schema.get("pattern") for schema in REQUEST_STRINGS.values()}
    assert SINGLE_LINE_PATTERN in patterns and FREE_TEXT_PATTERN in patterns
    assert re.search(SINGLE_LINE_PATTERN, "Zoë 日本 ⚽ O'Brien-Smith")
