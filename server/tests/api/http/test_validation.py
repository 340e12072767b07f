"""Field names and compiled validators of server.api.http.validation."""

from jsonschema import Draft4Validator

from server.api.http import validation
from server.api.http.contract_document import document


def first_error(schema, value):
    return next(Draft4Validator(schema).iter_errors(value))


def test_missing_required_property_is_named_with_its_parent_path():
    schema = {"type": "object", "properties": {"filters": {"type": "object", "required": ["status"]}}}
    assert validation._field_of(first_error(schema, {"filters": {}}), "") == "filters.status"


def test_array_items_are_named_with_their_index():
    schema = {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "string"}}}}
    assert validation._field_of(first_error(schema, {"ids": ["a", 3]}), "") == "ids[1]"


def test_an_error_about_the_whole_body_is_named_body():
    assert validation._field_of(first_error({"type": "object"}, []), "") == "body"


def test_a_schema_is_compiled_once_and_kept_per_schema_object():
    schema, twin = {"type": "integer"}, {"type": "integer"}
    compiled = validation._parameter_validator(schema)
    assert validation._parameter_validator(schema) is compiled
    assert validation._parameter_validator(twin) is not compiled


def test_field_error_is_a_plain_message_that_remembers_its_field():
    error = validation.FieldError("Invalid query parameter 'size': too big", "size", "too big")
    assert error == "Invalid query parameter 'size': too big" and error.field == "size" and error.reason == "too big"


# --- the fast path for request bodies ---------------------------------------------------------

import copy  # noqa: E402

from connexion.json_schema import Draft4RequestValidator, resolve_refs  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

CONTRACT = resolve_refs(document())
BODY_MEDIA = [
    operation["requestBody"]["content"]["application/json"]
    for path in CONTRACT["paths"].values()
    for operation in path.values()
    if isinstance(operation, dict) and "application/json" in operation.get("requestBody", {}).get("content", {})
]
BODY_SCHEMAS = [media["schema"] for media in BODY_MEDIA]
# Each body schema with the contract's example bodies for it (valid ones, to mutate).
EXAMPLES = [
    (media["schema"], example)
    for media in BODY_MEDIA
    for example in [media.get("example"), *(e.get("value") for e in (media.get("examples") or {}).values())]
    if isinstance(example, dict)
]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


def test_every_request_body_of_the_contract_gets_a_fast_validator():
    assert len(BODY_SCHEMAS) > 20
    assert all(validation._fast_validator(copy.deepcopy(schema)) is not None for schema in BODY_SCHEMAS)


def test_a_null_in_a_nullable_field_is_refused_by_the_fast_path_and_left_to_jsonschema():
    schema = {"type": "object", "properties": {"note": {"type": "string", "nullable": True}}}
    fast = validation._fast_validator(schema)
    assert fast is not None and not fast.is_valid({"note": None})
    assert not list(Draft4RequestValidator(schema).iter_errors({"note": None}))


def test_an_integer_written_as_a_float_is_not_accepted_by_the_fast_path():
    schema = {"type": "object", "properties": {"page": {"type": "integer"}}}
    fast = validation._fast_validator(schema)
    assert fast is not None and not fast.is_valid({"page": 1.0})


@st.composite
def mutated_examples(draw):
    """A contract example with one value replaced by arbitrary JSON, or one key left out."""
    schema, example = draw(st.sampled_from(EXAMPLES))
    body = copy.deepcopy(example)
    node = body
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        if not isinstance(node[key], (dict, list)) or draw(st.booleans()):
            if isinstance(node, dict) and draw(st.booleans()):
                del node[key]
            else:
                node[key] = draw(JSON_VALUES)
            break
        node = node[key]
    return schema, body


def test_the_contract_has_example_bodies_to_mutate():
    assert len(EXAMPLES) > 20


@settings(max_examples=500, suppress_health_check=list(HealthCheck), deadline=None)
@given(case=mutated_examples())
def test_what_the_fast_path_accepts_the_request_validator_accepts_too(case):
    schema, body = case
    fast = validation._fast_body_validator(schema)
    if fast is not None and fast.is_valid(body):
        assert not list(validation._body_validator(schema).iter_errors(body))
