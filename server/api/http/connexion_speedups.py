"""Work Connexion 3 repeats on every request although its result is fixed for the app's life.

Measured on the signed-in event list (server/bench/signed_in.py, a cProfile of it): per request
Connexion decorated the handler again (`AsyncOperation.fn` builds the parameter and response
decorators each time), read each security function's signature twice (`inspect.signature`),
and looked up the operation's body definition in a media-type dictionary (fnmatch per type)
up to three times: together about a third of a cached answer's time. `install()` keeps each of
these once computed. Each depends only on objects that live as long as the app (the handler,
the operation, the security function) and returns what Connexion computed itself. It also
checks the contract document against the OpenAPI schema once per process instead of once per app
(the tests and `touchline cluster` make many apps of one document).
"""

import functools
import hashlib
from collections.abc import Callable
from typing import Any

import orjson
from connexion import security, utils
from connexion.apps.asynchronous import AsyncOperation
from connexion.decorators import parameter
from connexion.operations.abstract import AbstractOperation
from connexion.spec import Specification

_installed = False


@functools.lru_cache(maxsize=4096)
def _function_arguments(function: Callable[..., Any]) -> tuple[tuple[str, ...], bool]:
    arguments, has_kwargs = utils.inspect_function_arguments(function)
    return tuple(arguments), has_kwargs


def _inspect_function_arguments(function: Callable[..., Any]) -> tuple[list[str], bool]:
    arguments, has_kwargs = _function_arguments(function)
    return list(arguments), has_kwargs  # a fresh list: callers may change theirs


def _decorated_once(getter: Callable[[AsyncOperation], Callable[..., Any]]) -> property:
    def fn(self: AsyncOperation) -> Callable[..., Any]:
        decorated = self.__dict__.get("_decorated_handler")
        if decorated is None:
            decorated = self.__dict__["_decorated_handler"] = getter(self)
        return decorated

    return property(fn)


def _body_definition_once(
    original: Callable[[AbstractOperation, str | None], dict],
) -> Callable[[AbstractOperation, str | None], dict]:
    @functools.wraps(original)
    def body_definition(self: AbstractOperation, content_type: str | None = None) -> dict:
        known = self.__dict__.setdefault("_body_definitions", {})
        if content_type not in known:
            known[content_type] = original(self, content_type)
        return known[content_type]

    return body_definition


def _validated_once(original: Callable[[dict], None]) -> classmethod:
    """Check each distinct document against the OpenAPI schema once per process, not once per app
    (about 1 s each; the document is the same for every app a process makes)."""
    valid: set[bytes] = set()

    def validate_spec(_cls: type, spec: dict) -> None:
        digest = hashlib.sha256(orjson.dumps(spec, option=orjson.OPT_SORT_KEYS)).digest()
        if digest not in valid:
            original(spec)  # raises InvalidSpecification
            valid.add(digest)

    return classmethod(validate_spec)


def install() -> None:
    """Patch Connexion's classes and modules once per process (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    # The parameter decorator, read when a handler is decorated; the security wrapper, per call.
    parameter.inspect_function_arguments = _inspect_function_arguments
    security.inspect_function_arguments = _inspect_function_arguments
    fn = AsyncOperation.fn
    assert isinstance(fn, property) and fn.fget is not None
    # The decorated handler reads the request's operation from Connexion's context at call time,
    # so one decoration serves every request of its operation.
    AsyncOperation.fn = _decorated_once(fn.fget)
    for spec_class in Specification.__subclasses__():
        spec_class._validate_spec = _validated_once(spec_class._validate_spec)
    for operation_class in AbstractOperation.__subclasses__():
        for cls in (operation_class, *operation_class.__subclasses__()):
            if "body_definition" in cls.__dict__:
                cls.body_definition = _body_definition_once(cls.__dict__["body_definition"])
