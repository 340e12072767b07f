"""The contract and the code cannot drift apart."""

from server import contract


def test_every_operation_has_a_handler_or_is_declared_pending():
    # bind() raises for an operationId with neither a handler nor a PENDING entry.
    assert contract.bindings()


def test_every_handler_serves_an_operation_of_its_tag():
    by_tag: dict[str, set[str]] = {}
    for _method, _path, tag, operation_id in contract.operations():
        by_tag.setdefault(tag, set()).add(operation_id)
    for tag, operation_ids in by_tag.items():
        unused = contract.handler_functions(tag) - operation_ids
        assert not unused, f"server.api.{tag} has handlers no operation uses: {sorted(unused)}"


def test_pending_names_only_real_operations():
    from importlib import import_module

    declared = {op_id for *_rest, op_id in contract.operations()}
    for tag in {tag for _m, _p, tag, _o in contract.operations()}:
        stale = set(getattr(import_module(f"server.api.{tag}"), "PENDING", ())) - declared
        assert not stale, f"server.api.{tag}.PENDING names operations the contract lacks: {sorted(stale)}"


def test_operation_ids_are_unique():
    ids = [op_id for *_rest, op_id in contract.operations()]
    assert len(ids) == len(set(ids))


def test_report_lists_pending_operations_as_501():
    text = contract.report()
    pending = [b for b in contract.bindings() if b.pending]
    assert text.count("  501  ") == len(pending)


def test_only_pending_operations_document_a_501():
    import yaml

    spec = yaml.safe_load(contract.OPENAPI_PATH.read_text())
    pending = {b.operation_id for b in contract.bindings() if b.pending}
    for method, path, _tag, operation_id in contract.operations():
        documents_501 = "501" in spec["paths"][path][method.lower()]["responses"]
        assert documents_501 == (operation_id in pending), f"{operation_id}: 501 documented={documents_501}"
