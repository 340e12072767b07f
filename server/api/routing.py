"""Binds contract operations to handlers: module = first tag, function = operationId.

An operation a later piece of work will implement is named in its module's `PENDING` set and
answers 501 in the error envelope. Anything else that does not resolve stops the app from
starting, so the contract and the code cannot drift apart silently.
"""

import importlib
from dataclasses import dataclass

from connexion.resolver import Resolution, Resolver

from ..errors import NotAvailableYet

HANDLER_PACKAGE = "server.api"


@dataclass(frozen=True)
class Binding:
    operation_id: str
    module: str
    pending: bool


def _pending_handler(operation_id: str):
    async def pending(*_args, **_kwargs):
        raise NotAvailableYet(f"{operation_id} is not available yet")

    pending.__name__ = f"pending_{operation_id}"
    return pending


def bind(operation_id: str, tag: str) -> tuple[Binding, object]:
    module_name = f"{HANDLER_PACKAGE}.{tag}"
    module = importlib.import_module(module_name)
    pending_ids = getattr(module, "PENDING", frozenset())
    function = getattr(module, operation_id, None)
    if function is not None and operation_id in pending_ids:
        raise LookupError(f"{module_name}.{operation_id} is implemented but still listed in PENDING")
    if function is not None:
        return Binding(operation_id, module_name, False), function
    if operation_id in pending_ids:
        return Binding(operation_id, module_name, True), _pending_handler(operation_id)
    raise LookupError(f"operation {operation_id} has no handler in {module_name} and is not PENDING")


class TagResolver(Resolver):
    def __init__(self):
        super().__init__()
        self.bindings: dict[str, Binding] = {}

    def resolve(self, operation) -> Resolution:
        operation_id = operation.operation_id
        tags = operation._operation.get("tags") or []
        if not operation_id or not tags:
            raise LookupError(f"{operation.method.upper()} {operation.path} needs an operationId and a tag")
        binding, function = bind(operation_id, tags[0])
        self.bindings[operation_id] = binding
        return Resolution(function, operation_id)
