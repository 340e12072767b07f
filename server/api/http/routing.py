"""Binds contract operations to handlers: the package = the operation's first tag, the function
= its operationId.

Each tag has a package under server/api/ (`server/api/commerce/`, `server/api/admin/`...); its
handlers live in the package's modules, named for what they do (`purchases.py`, `cards.py`).
Every public coroutine function of those modules serves exactly one operation of its tag, and
every operation has exactly one such function: the app refuses to start otherwise, and
server/tests/test_contract.py says which one drifted.
"""

import importlib
import inspect
import pkgutil
import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from connexion.resolver import Resolution, Resolver

from .contract_document import OPENAPI_PATH, document

HANDLER_PACKAGE = "server.api"
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


@dataclass(frozen=True)
class Operation:
    method: str  # upper case
    path: str  # as in the contract, without the /api base path
    tag: str
    operation_id: str


@cache
def operations(path: Path = OPENAPI_PATH) -> tuple[Operation, ...]:
    """Every operation of the contract document."""
    spec = document(path)
    return tuple(
        Operation(method.upper(), route, (op.get("tags") or ["?"])[0], op.get("operationId", ""))
        for route, item in spec["paths"].items()
        for method, op in item.items()
        if method in HTTP_METHODS
    )


def _is_handler(obj: object, module: types.ModuleType) -> bool:
    # type(), not isinstance(): context proxies (connexion.request) raise on any attribute.
    return (
        type(obj) is types.FunctionType
        and inspect.iscoroutinefunction(obj)
        and obj.__module__ == module.__name__
        and not obj.__name__.startswith("_")
    )


@cache
def handlers(tag: str) -> dict[str, Callable[..., Any]]:
    """name -> public coroutine function, over every module of the tag's package.

    Raises LookupError when the tag has no package or two modules define the same name."""
    package_name = f"{HANDLER_PACKAGE}.{tag}"
    try:
        package = importlib.import_module(package_name)
    except ModuleNotFoundError as missing:
        raise LookupError(f"the contract's tag {tag!r} has no handler package {package_name}") from missing
    if not hasattr(package, "__path__"):
        raise LookupError(f"{package_name} must be a package (one module per area of the tag)")
    found: dict[str, Callable[..., Any]] = {}
    for info in pkgutil.iter_modules(package.__path__, prefix=f"{package_name}."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if not _is_handler(obj, module):
                continue
            if name in found:
                raise LookupError(f"{name} is defined twice in {package_name}: {found[name].__module__}, {info.name}")
            found[name] = obj
    return found


def bind(operation: Operation) -> Callable[..., Any]:
    function = handlers(operation.tag).get(operation.operation_id)
    if function is None:
        raise LookupError(
            f"operation {operation.operation_id} ({operation.method} {operation.path}) has no handler "
            f"in {HANDLER_PACKAGE}.{operation.tag}"
        )
    return function


class TagResolver(Resolver):
    """`guard(function, tag, operation)`, when given, may wrap each handler from what its contract
    entry says (the app passes server.api.http.staff_access.guard: the admin operations' roles)."""

    def __init__(self, guard: Callable[[Callable[..., Any], str, dict], Callable[..., Any]] | None = None) -> None:
        super().__init__()
        self.guard = guard

    def resolve(self, operation: Any) -> Resolution:
        operation_id = operation.operation_id
        tags = operation._operation.get("tags") or []
        if not operation_id or not tags:
            raise LookupError(f"{operation.method.upper()} {operation.path} needs an operationId and a tag")
        function = bind(Operation(operation.method.upper(), operation.path, tags[0], operation_id))
        if self.guard is not None:
            function = self.guard(function, tags[0], operation._operation)
        return Resolution(function, operation_id)
