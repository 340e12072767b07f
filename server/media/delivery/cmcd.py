"""What players tell the server of each media request (CTA-5004, CMCD, in query mode: the
`CMCD` parameter, which the edge's cache key leaves out).

Every media answer of this server logs the request's CMCD data on the `touchline.cmcd` logger,
one line of JSON a request, which a running server writes to `var/log/cmcd-<pid>.log` (one file a
process, rotated at LOG_BYTES, LOG_FILES kept): the view's session id (`sid`, the QoE beacons' `view`), the content
(`cid`, the event), the buffer length (`bl`, ms), the measured throughput (`mtp`, kbps), the
requested bitrate (`br`, kbps) and the object type (`ot`). The nginx edge writes the same data to
its `cmcd.log` (server.media.delivery.edge_nginx), so a deployment keeps it either way.

CTA-5004 §3.2: comma-separated `key=value` pairs, a key alone for a true boolean, strings in
double quotes, integers as they are. Anything else is ignored: it is the player's to send."""

import contextlib
import json
import logging
import os
import re
from collections.abc import Iterator
from logging.handlers import RotatingFileHandler
from pathlib import Path
from urllib.parse import parse_qs

from starlette.types import Scope

log = logging.getLogger("touchline.cmcd")

PARAMETER = "CMCD"
# The keys kept: their values are short (a token's worth); the rest of the data is dropped.
KEPT = ("sid", "cid", "bl", "mtp", "br", "ot", "d", "su", "bs", "sf", "st")
_PAIR = re.compile(r'^([a-z]{1,4})(?:=("(?:[^"\\]|\\.){0,64}"|[A-Za-z0-9.-]{1,20}))?$')
MAX_LENGTH = 1024
LOG_BYTES = 16 * 1024 * 1024
LOG_FILES = 3


def parse(value: str) -> dict[str, str | int | float | bool]:
    """The CMCD data of a query value; pairs that do not follow CTA-5004 are left out."""
    data: dict[str, str | int | float | bool] = {}
    for pair in value[:MAX_LENGTH].split(","):
        match = _PAIR.match(pair.strip())
        if match is None or match[1] not in KEPT:
            continue
        key, raw = match[1], match[2]
        if raw is None:
            data[key] = True
        elif raw.startswith('"'):
            data[key] = raw[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        else:
            try:
                data[key] = int(raw)
            except ValueError:
                try:
                    data[key] = float(raw)
                except ValueError:
                    data[key] = raw  # a token (ot=v, sf=h, st=l)
    return data


def of_request(scope: Scope) -> dict[str, str | int | float | bool]:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(PARAMETER)
    return parse(values[0]) if values else {}


def record(scope: Scope, path: str) -> None:
    """Log the request's CMCD data, if it carries any."""
    data = of_request(scope)
    if data and log.isEnabledFor(logging.INFO):
        log.info(json.dumps({"path": path, **data}, separators=(",", ":")))


@contextlib.contextmanager
def writing(directory: Path) -> Iterator[Path]:
    """While the block runs, this process's CMCD lines go to their file in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"cmcd-{os.getpid()}.log"
    handler = RotatingFileHandler(path, maxBytes=LOG_BYTES, backupCount=LOG_FILES, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False  # its own file, not the server's output
    try:
        yield path
    finally:
        log.removeHandler(handler)
        handler.close()
