"""Connexion's request validators, with field-level errors and schemas compiled once.

Stock Connexion reports a bad parameter as a dump of the jsonschema error (schema and all)
without naming the parameter, and builds a fresh jsonschema validator for every parameter
and body of every request. These subclasses name the field (the envelope's
`details[].field`), keep the message short, and compile each schema once per process.

Hostile bodies get a 400 like any other bad body: JSON nested deeper than `MAX_JSON_DEPTH`
levels is refused before validation (jsonschema and the stdlib parser recurse once per level
and would run out of stack), and a bad value is echoed in messages only up to
`ECHO_CHARACTERS` characters (a 1 MB bad value must not come back twice in the answer).
Whatever a schema says, a string, object key or parameter with a control character other than
tab and line breaks is a 400 (server/text_rules.py): NUL never reaches PostgreSQL.
"""

from __future__ import annotations

import re
from typing import NoReturn

import jsonschema_rs
import orjson
from connexion.datastructures import MediaTypeDict
from connexion.exceptions import BadRequestProblem, ExtraParameterProblem
from connexion.json_schema import Draft4RequestValidator
from connexion.utils import is_null, is_nullable
from connexion.validators import VALIDATOR_MAP as CONNEXION_VALIDATORS
from connexion.validators import JSONRequestBodyValidator, ParameterValidator
from jsonschema import Draft4Validator, ValidationError
from jsonschema._format import draft4_format_checker
from jsonschema.exceptions import best_match

from ...text_rules import CONTROL_REASON, control_message, has_control_characters, visible

_REQUIRED = re.compile(r"'(.+)' is a required property")
# The deepest body of the contract nests 4 levels (update_profile); socket payloads relayed by
# emit_socket_message a few more. Well below where recursion in the parser or validator fails.
MAX_JSON_DEPTH = 32
# How much of a rejected value a message repeats, and how long a message or field name may be.
ECHO_CHARACTERS = 80
MESSAGE_CHARACTERS = 400
FIELD_CHARACTERS = 200


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


def _fast_validator(schema: dict) -> jsonschema_rs.Draft4Validator | None:
    """A compiled (Rust) validator that accepts a valid body in microseconds, where jsonschema
    takes hundreds of them for the larger bodies. It knows no OpenAPI `nullable`, so it is
    stricter than the request validator, never looser: what it accepts is valid; what it refuses
    goes to jsonschema, which decides and names the field. None when it cannot compile `schema`."""
    try:
        return jsonschema_rs.Draft4Validator(schema, validate_formats=True)
    except Exception:  # a schema it reads differently: jsonschema alone decides
        return None


_fast_body_validator = _Compiled(_fast_validator)


def _field_of(error: ValidationError, root: str) -> str:
    path = root
    for part in error.absolute_path:
        path = f"{path}[{part}]" if isinstance(part, int) else (f"{path}.{part}" if path else str(part))
    if error.validator == "required":
        missing = _REQUIRED.match(error.message)
        if missing:
            path = f"{path}.{missing.group(1)}" if path else missing.group(1)
    return _clip(path, FIELD_CHARACTERS) or "body"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _reason(error: ValidationError) -> str:
    """jsonschema's message with the rejected value cut short (messages start with its repr)."""
    message = error.message
    if len(message) <= ECHO_CHARACTERS:
        return message
    echoed = repr(error.instance)
    if len(echoed) > ECHO_CHARACTERS and echoed in message:
        message = message.replace(echoed, _clip(echoed, ECHO_CHARACTERS), 1)
    return _clip(message, MESSAGE_CHARACTERS)


def control_character_field(value: object, root: str) -> str | None:
    """The first string or object key under `value` that breaks the character rule
    (server/text_rules.py, as free text), by its field path; None when all keep it. Applied to
    every body and parameter whatever its schema says: NUL must never reach PostgreSQL."""
    stack: list[tuple[object, str]] = [(value, root)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if has_control_characters(node, free_text=True):
                return path or "body"
        elif isinstance(node, dict):
            for key, child in node.items():
                where = f"{path}.{key}" if path else str(key)
                if has_control_characters(str(key), free_text=True):
                    return f"{path}.{visible(str(key))}" if path else visible(str(key))
                stack.append((child, where))
        elif isinstance(node, list):
            stack.extend((child, f"{path}[{index}]") for index, child in enumerate(node))
    return None


def _control_characters(field: str) -> NoReturn:
    field = _clip(field, FIELD_CHARACTERS)
    raise BadRequestProblem(detail=FieldError(control_message(field), field, CONTROL_REASON)) from None


def nesting_exceeds(value: object, limit: int) -> bool:
    """Whether `value` nests objects and arrays more than `limit` levels deep (iteratively)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


class FieldParameterValidator(ParameterValidator):
    @staticmethod
    def validate_parameter(parameter_type, value, param, param_name=None):
        name = param.get("name", param_name)
        if is_nullable(param) and is_null(value):
            return None
        if value is not None:
            if (field := control_character_field(value, name)) is not None:
                return FieldError(control_message(f"{parameter_type} parameter '{name}'"), field, CONTROL_REASON)
            schema = param.get("schema", param)
            error = best_match(_parameter_validator(schema).iter_errors(value))
            if error is None:
                return None
            field = _field_of(error, name) if error.absolute_path else name
            reason = _reason(error)
            return FieldError(f"Invalid {parameter_type} parameter '{name}': {reason}", field, reason)
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
        # orjson stops at 1,024 levels by itself (a ValueError, never a RecursionError) and
        # refuses what the handler's own parse would read differently (NaN, lone surrogates).
        try:
            body = orjson.loads(
                raw if self._encoding.lower().replace("-", "") == "utf8" else raw.decode(self._encoding)
            )
        except (ValueError, UnicodeDecodeError, LookupError) as exc:
            if "depth" in str(exc):
                _too_deep()
            reason = "is not valid JSON"
            raise BadRequestProblem(detail=FieldError(f"The request body {reason}", "body", reason)) from None
        if nesting_exceeds(body, MAX_JSON_DEPTH):
            _too_deep()
        return body

    def _validate(self, body):
        if body is _ABSENT:
            if self._required:
                raise BadRequestProblem(detail=FieldError("The request body must not be empty", "body", "is required"))
            return  # an optional body (`required: false`) may be left out
        if not self._nullable and body is None:
            raise BadRequestProblem(detail=FieldError("The request body must not be null", "body", "is null"))
        if (field := control_character_field(body, "")) is not None:
            _control_characters(field)
        fast = _fast_body_validator(self._schema)
        if fast is not None and fast.is_valid(body):
            return
        error = best_match(self._validator.iter_errors(body))
        if error is None:
            return
        field = _field_of(error, "")
        reason = _reason(error)
        raise BadRequestProblem(detail=FieldError(f"Invalid '{field}': {reason}", field, reason))


def _too_deep() -> NoReturn:
    reason = f"nests objects and arrays more than {MAX_JSON_DEPTH} levels deep"
    raise BadRequestProblem(detail=FieldError(f"The request body {reason}", "body", reason)) from None


VALIDATOR_MAP = {
    "parameter": FieldParameterValidator,
    "body": MediaTypeDict({**CONNEXION_VALIDATORS["body"], "*/*json": FieldJSONBodyValidator}),
}
