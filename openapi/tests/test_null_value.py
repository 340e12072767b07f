"""`NullValue`, the document's JSON null, admits null and nothing else under every validator the
project runs: Connexion's request and response validators (the server) and openapi-schema-validator
(the document tests). OpenAPI 3.0 has no null type, so the schema is a nullable string whose enum
holds null alone."""

from pathlib import Path

import pytest
import yaml
from connexion.json_schema import Draft4RequestValidator, Draft4ResponseValidator
from openapi_schema_validator import OAS30Validator

DOCUMENT = yaml.load((Path(__file__).resolve().parents[1] / "openapi.yaml").read_bytes(), Loader=yaml.CSafeLoader)
NULL_VALUE = DOCUMENT["components"]["schemas"]["NullValue"]
VALIDATORS = [Draft4RequestValidator, Draft4ResponseValidator, OAS30Validator]


@pytest.mark.parametrize("validator", VALIDATORS, ids=lambda v: v.__name__)
def test_null_value_admits_null(validator) -> None:
    assert validator(NULL_VALUE).is_valid(None)


@pytest.mark.parametrize("validator", VALIDATORS, ids=lambda v: v.__name__)
@pytest.mark.parametrize("value", ["", "null", 0, False, [], {}], ids=repr)
def test_null_value_refuses_every_other_value(validator, value) -> None:
    assert not validator(NULL_VALUE).is_valid(value)
