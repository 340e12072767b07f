"""The contract document is parsed once per process and checked once per distinct document."""

import pytest
import yaml
from connexion.exceptions import InvalidSpecification
from connexion.spec import OpenAPISpecification, Specification

from server.api.http import connexion_speedups
from server.api.http.contract_document import OPENAPI_PATH, document, fresh_document


def test_the_parsed_document_is_what_the_pure_python_loader_reads():
    assert document() == yaml.safe_load(OPENAPI_PATH.read_text())


def test_a_fresh_document_is_a_copy_connexion_may_change():
    fresh = fresh_document()
    fresh["paths"].clear()
    assert document()["paths"]


def test_a_document_is_checked_against_the_openapi_schema_once(monkeypatch):
    connexion_speedups.install()
    checked: list[dict] = []
    monkeypatch.setattr(
        OpenAPISpecification,
        "_validate_spec",
        connexion_speedups._validated_once(lambda spec: checked.append(spec)),
    )
    Specification.from_dict(fresh_document())
    Specification.from_dict(fresh_document())
    assert len(checked) == 1
    changed = fresh_document()
    changed["info"]["title"] = "another document"
    Specification.from_dict(changed)
    assert len(checked) == 2


def test_an_invalid_document_is_still_refused_after_a_valid_one():
    connexion_speedups.install()
    Specification.from_dict(fresh_document())
    broken = fresh_document()
    broken["paths"]["/event/list"]["post"]["responses"] = "not a mapping"
    with pytest.raises(InvalidSpecification):
        Specification.from_dict(broken)
