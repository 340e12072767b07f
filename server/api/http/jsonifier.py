"""orjson for Connexion's JSON answers: several times faster than the stdlib on event pages."""

from datetime import date, datetime

import orjson
from connexion.jsonifier import Jsonifier


def _default(value):
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


class OrjsonJsonifier(Jsonifier):
    def __init__(self):
        super().__init__()

    def dumps(self, data, **_kwargs) -> str:
        return orjson.dumps(data, default=_default).decode()

    def loads(self, data):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            return data  # Connexion's own Jsonifier hands back what is not JSON
