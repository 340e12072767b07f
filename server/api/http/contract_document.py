"""The OpenAPI document, parsed once per process by libyaml (PyYAML's C loader).

Connexion reads the document with PyYAML's pure-Python loader and checks it against the OpenAPI
schema for every app it makes: about 3 s on a CI core, paid by every server process at start and
by every app a test makes. Parsed here ten times faster, once, and checked once per distinct
document (`connexion_speedups`), an app costs what building its operations costs.
"""

import copy
from functools import cache
from pathlib import Path

import yaml

from ...settings import PROJECT_ROOT

OPENAPI_PATH = PROJECT_ROOT / "openapi" / "openapi.yaml"


@cache
def document(path: Path = OPENAPI_PATH) -> dict:
    """The parsed document, shared: read it, never change it."""
    return yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)  # libyaml's safe loader


def fresh_document(path: Path = OPENAPI_PATH) -> dict:
    """A copy of its own for Connexion, which writes defaults into the mapping it is given."""
    return copy.deepcopy(document(path))
