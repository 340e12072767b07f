"""What the code does with each operation of the contract: implemented, or pending (501).

Computed from the handler modules, so `make contract` and the drift test never rely on a
hand-kept list.
"""

import importlib
import inspect
import types
from pathlib import Path

import yaml

from .api.routing import HANDLER_PACKAGE, Binding, bind
from .settings import PROJECT_ROOT

OPENAPI_PATH = PROJECT_ROOT / "openapi" / "openapi.yaml"
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def operations(path: Path = OPENAPI_PATH) -> list[tuple[str, str, str, str]]:
    """(method, path, tag, operationId) for every operation in the document."""
    spec = yaml.safe_load(path.read_text())
    found = []
    for route, item in spec["paths"].items():
        for method, op in item.items():
            if method in HTTP_METHODS:
                found.append((method.upper(), route, (op.get("tags") or ["?"])[0], op.get("operationId", "")))
    return found


def bindings(path: Path = OPENAPI_PATH) -> list[Binding]:
    return [bind(operation_id, tag)[0] for _m, _p, tag, operation_id in operations(path)]


def handler_functions(tag: str) -> set[str]:
    """Public coroutine functions defined in a tag's module: each must serve an operation."""
    module = importlib.import_module(f"{HANDLER_PACKAGE}.{tag}")
    return {
        name
        for name, obj in vars(module).items()
        # type(), not isinstance(): context proxies (connexion.request) raise on any attribute.
        if not name.startswith("_")
        and type(obj) is types.FunctionType
        and inspect.iscoroutinefunction(obj)
        and obj.__module__ == module.__name__
    }


def report(path: Path = OPENAPI_PATH) -> str:
    resolved = bindings(path)
    pending = [b for b in resolved if b.pending]
    lines = [f"{len(resolved)} operations: {len(resolved) - len(pending)} implemented, {len(pending)} answer 501"]
    for b in sorted(pending, key=lambda b: (b.module, b.operation_id)):
        lines.append(f"  501  {b.module.rsplit('.', 1)[1]:<10} {b.operation_id}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
