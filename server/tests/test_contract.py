"""The contract and the code cannot drift apart: every operation has exactly one handler in its
tag's package, and every handler of a tag package serves an operation of that tag."""

import importlib
import pkgutil
import types

import pytest

from server.api.http import routing


def by_tag() -> dict[str, set[str]]:
    tags: dict[str, set[str]] = {}
    for operation in routing.operations():
        tags.setdefault(operation.tag, set()).add(operation.operation_id)
    return tags


def test_every_operation_has_a_handler():
    for operation in routing.operations():
        assert callable(routing.bind(operation)), operation


def test_every_handler_serves_an_operation_of_its_tag():
    for tag, operation_ids in by_tag().items():
        unused = set(routing.handlers(tag)) - operation_ids
        assert not unused, f"server.api.{tag} has handlers no operation uses: {sorted(unused)}"


def test_handlers_in_every_module_of_a_tag_package_are_checked():
    # The admin tag's handlers live in several modules (users.py, events.py, ...): all count.
    modules = {function.__module__ for function in routing.handlers("admin").values()}
    assert {"server.api.admin.users", "server.api.admin.events", "server.api.admin.access_codes"} <= modules


def test_a_stray_public_coroutine_in_a_tag_package_is_reported(monkeypatch):
    module = importlib.import_module("server.api.vod.related")

    async def not_an_operation():
        return None

    not_an_operation.__module__ = module.__name__
    monkeypatch.setattr(module, "not_an_operation", not_an_operation, raising=False)
    routing.handlers.cache_clear()
    try:
        assert "not_an_operation" in set(routing.handlers("vod")) - by_tag()["vod"]
    finally:
        monkeypatch.undo()
        routing.handlers.cache_clear()


def test_an_operation_without_a_handler_stops_the_app():
    stray = routing.Operation("GET", "/nowhere", "vod", "no_such_handler")
    with pytest.raises(LookupError, match="no_such_handler"):
        routing.bind(stray)


def test_a_tag_without_a_package_stops_the_app():
    with pytest.raises(LookupError, match="no handler package"):
        routing.handlers("no_such_tag")


def test_every_tag_is_a_package_without_a_facade():
    # No module re-exports another's handlers: each handler is defined where it is found.
    for tag in by_tag():
        package = importlib.import_module(f"{routing.HANDLER_PACKAGE}.{tag}")
        public = [
            name for name, obj in vars(package).items() if type(obj) is types.FunctionType and not name.startswith("_")
        ]
        assert not public, f"server.api.{tag}/__init__.py defines or re-exports {public}"
        assert list(pkgutil.iter_modules(package.__path__)), f"server.api.{tag} has no modules"


def test_operation_ids_are_unique():
    ids = [operation.operation_id for operation in routing.operations()]
    assert len(ids) == len(set(ids))
