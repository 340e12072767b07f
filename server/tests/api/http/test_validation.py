"""Field names and compiled validators of server.api.http.validation."""

from jsonschema import Draft4Validator

from server.api.http import validation


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
