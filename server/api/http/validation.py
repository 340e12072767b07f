"""Connexion's request validators, with field-level errors and schemas compiled once.

Stock Connexion reports a bad parameter as a dump of the jsonschema error (schema and all)
without naming the parameter, and builds a fresh jsonschema validator for every parameter
and body of every request. These subclasses name the field (the envelope's
`details[].field`), keep the message short, and compile each schema once per process.
"""

from __future__ import annotations

import json
import re

from connexion.datastructures import MediaTypeDict
from connexion.exceptions import BadRequestProblem, ExtraParameterProblem
from connexion.json_schema import Draft4RequestValidator
from connexion.utils import is_null, is_nullable
from connexion.validators import VALIDATOR_MAP as CONNEXION_VALIDATORS
from connexion.validators import JSONRequestBodyValidator, ParameterValidator
from jsonschema import Draft4Validator, ValidationError
from jsonschema._format import draft4_format_checker
from jsonschema.exceptions import best_match

_REQUIRED = re.compile(r"'(.+)' is a required property")


class FieldError(str):
    """A validation message that knows which field it is about (errors.py reads both)."""

    field: str
    reason: str

    def __new__(cls, message: str, field: str, reason: str) -> FieldError:
        error = super().__new__(cls, message)
        error.field = field
        error.reason = reason
        return error


class _Compiled:
    """Validators keyed by the schema object; the contract's dicts live as long as the app."""

    def __init__(self, factory):
        self._factory = factory
        self._by_id: dict[int, tuple[dict, object]] = {}

    def __call__(self, schema: dict):
        entry = self._by_id.get(id(schema))
        if entry is None or entry[0] is not schema:
            entry = (schema, self._factory(schema))
            self._by_id[id(schema)] = entry
        return entry[1]


_parameter_validator = _Compiled(lambda schema: Draft4Validator(schema, format_checker=draft4_format_checker))
_body_validator = _Compiled(
    lambda schema: Draft4RequestValidator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)
)


def _field_of(error: ValidationError, root: str) -> str:
    path = root
    for part in error.absolute_path:
        path = f"{path}[{part}]" if isinstance(part, int) else (f"{path}.{part}" if path else str(part))
    if error.validator == "required":
        missing = _REQUIRED.match(error.message)
        if missing:
            path = f"{path}.{missing.group(1)}" if path else missing.group(1)
    return path or "body"


class FieldParameterValidator(ParameterValidator):
    @staticmethod
    def validate_parameter(parameter_type, value, param, param_name=None):
        name = param.get("name", param_name)
        if is_nullable(param) and is_null(value):
            return None
        if value is not None:
            schema = param.get("schema", param)
            error = best_match(_parameter_validator(schema).iter_errors(value))
            if error is None:
                return None
            field = _field_of(error, name) if error.absolute_path else name
            return FieldError(f"Invalid {parameter_type} parameter '{name}': {error.message}", field, error.message)
        if param.get("required"):
            return FieldError(f"Missing {parameter_type} parameter '{name}'", name, "is required")
        return None

    def validate_request(self, request):
        try:
            super().validate_request(request)
        except ExtraParameterProblem:
            extra = sorted(self.validate_query_parameter_list(request, security_params=self.security_query_params))
            names = ", ".join(extra)
            raise BadRequestProblem(
                detail=FieldError(f"Unknown query parameter(s): {names}", names, "is not a parameter of this call")
            ) from None


_ABSENT = object()


class FieldJSONBodyValidator(JSONRequestBodyValidator):
    @property
    def _validator(self):
        return _body_validator(self._schema)

    async def _parse(self, stream, scope):
        raw = b"".join([chunk async for chunk in stream])
        if not raw.strip():
            return _ABSENT  # no body at all, which is not the JSON value null
        try:
            return json.loads(raw.decode(self._encoding))
        except (ValueError, UnicodeDecodeError):
            reason = "is not valid JSON"
            raise BadRequestProblem(detail=FieldError(f"The request body {reason}", "body", reason)) from None

    def _validate(self, body):
        if body is _ABSENT:
            if self._required:
                raise BadRequestProblem(detail=FieldError("The request body must not be empty", "body", "is required"))
            return  # an optional body (`required: false`) may be left out
        if not self._nullable and body is None:
            raise BadRequestProblem(detail=FieldError("The request body must not be null", "body", "is null"))
        error = best_match(self._validator.iter_errors(body))
        if error is None:
            return
        field = _field_of(error, "")
        raise BadRequestProblem(detail=FieldError(f"Invalid '{field}': {error.message}", field, error.message))


VALIDATOR_MAP = {
    "parameter": FieldParameterValidator,
    "body": MediaTypeDict({**CONNEXION_VALIDATORS["body"], "*/*json": FieldJSONBodyValidator}),
}
