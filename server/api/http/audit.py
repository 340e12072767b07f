"""The audit log's recorder: every write operation of the admin API, whatever its outcome, and
every read the contract marks `x-touchline-audit: read` (sensitive data: the outbox's mail, an
account's sessions).

One ASGI layer inside Connexion's routing (it knows the operation) and outside security and
validation (it sees their refusals): for an audited operation of the `admin` tag it records, after
the answer, who asked (set by the role check, server/api/http/staff_access.py; `anonymous` when
the request was refused before anyone was recognised), the operation id, the target (the path's
ids, or what the handler names with `note_target`), what it changed or read (`note_detail`), the
client address and the status. Handlers cannot forget it: nothing in them records anything.
Refused anonymous calls are counted per client address, minute, operation and status in one
entry (server/services/audit.py), so a flood of them adds a row a minute, not a row a request.
"""

import logging
from functools import cache
from typing import Any
from urllib.parse import quote

from connexion import request

from ...services import audit
from .contract_document import document
from .routing import operations

log = logging.getLogger(__name__)

NOTE = "touchline_audit"
READS = {"GET", "HEAD", "OPTIONS"}
AUDITED_TAG = "admin"
AUDIT_EXTENSION = "x-touchline-audit"
# What a path keeps as it is in an entry; anything else (control characters, `%`, spaces) is
# percent-encoded, so an entry never carries ESC or NUL to a staff terminal and reads unambiguously.
PATH_SAFE = "/:@!$&'()*+,;=-._~"


@cache
def audited_reads() -> frozenset[str]:
    """The operation ids of the reads the contract marks `x-touchline-audit: read`."""
    return frozenset(
        op["operationId"]
        for item in document()["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and op.get(AUDIT_EXTENSION) == "read"
    )


@cache
def audited_operations() -> frozenset[str]:
    """The operation ids of the admin API's writes and its audited reads, from the contract."""
    return frozenset(
        op.operation_id
        for op in operations()
        if op.tag == AUDITED_TAG and (op.method not in READS or op.operation_id in audited_reads())
    )


class _Note:
    def __init__(self) -> None:
        self.actor: audit.Actor = audit.ANONYMOUS
        self.target: str | None = None
        self.detail: dict[str, Any] | None = None


def _note() -> _Note | None:
    extensions = request.scope.get("extensions") or {}
    return extensions.get(NOTE)


def note_actor(actor: audit.Actor) -> None:
    note = _note()
    if note is not None:
        note.actor = actor


def note_target(target: str) -> None:
    """Name what a write made (a new key, a new event, a batch of codes) as its audit target."""
    note = _note()
    if note is not None:
        note.target = target


def note_detail(detail: dict[str, Any]) -> None:
    """Say what an audited operation changed or read beyond its target (JSON-serialisable)."""
    note = _note()
    if note is not None:
        note.detail = {**(note.detail or {}), **detail}


def _status_of(exc: BaseException) -> int:
    for name in ("status", "status_code"):
        value = getattr(exc, name, None)
        if isinstance(value, int):
            return value
    return 500


class AuditMiddleware:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        operation_id = ((scope.get("extensions") or {}).get("connexion_routing") or {}).get("operation_id")
        if operation_id not in audited_operations():
            await self.app(scope, receive, send)
            return
        note = _Note()
        scope.setdefault("extensions", {})[NOTE] = note
        recorded = False

        async def record_then_send(message: dict) -> None:
            # Recorded before the answer leaves: a client that reads the log next finds it.
            nonlocal recorded
            if message["type"] == "http.response.start" and not recorded:
                recorded = True
                await _record(scope, note, operation_id, message["status"])
            await send(message)

        try:
            await self.app(scope, receive, record_then_send)
        except BaseException as exc:
            # Raised errors become answers further out (server/api/http/errors.py).
            if not recorded:
                recorded = True
                await _record(scope, note, operation_id, _status_of(exc))
            raise


async def _record(scope: dict, note: _Note, operation_id: str, status: int) -> None:
    database = (scope.get("state") or {}).get("database")
    if database is None:
        log.error("audit: no database in the request's state; %s (%s) not recorded", operation_id, status)
        return
    params = scope.get("path_params") or {}
    target = note.target or ("/".join(str(v) for v in params.values()) or None)
    client = scope.get("client")
    try:
        await audit.record(
            database,
            actor=note.actor,
            action=operation_id,
            method=scope["method"],
            path=quote(scope.get("path", ""), safe=PATH_SAFE),
            target=target,
            client_address=client[0] if client else None,
            status=status,
            detail=note.detail,
        )
    except Exception:
        log.exception("audit: could not record %s by %s (%s)", operation_id, note.actor, status)
