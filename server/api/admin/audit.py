"""The audit log of admin writes, read back with filters (it is recorded by
server/api/http/audit.py, never here)."""

from datetime import datetime

from ...errors import ApiError
from ...instants import in_utc
from ...models import AuditEntry
from ...services import audit
from ...services.paging import PageQuery
from ...text_rules import control_message, has_control_characters
from ..http.context import staff
from ..http.database import db_session
from ..http.envelope import iso, page_of


def present(entry: AuditEntry) -> dict:
    return {
        "_id": entry.id,
        "at": iso(entry.at),
        "actorType": entry.actor_type,
        "actorId": entry.actor_id,
        "actor": entry.actor_label,
        "action": entry.action,
        "method": entry.method,
        "path": entry.path,
        "target": entry.target,
        "clientAddress": entry.client_address,
        "status": entry.status,
        "count": entry.count,
        "detail": entry.detail,
    }


def _invalid(field: str, message: str) -> ApiError:
    return ApiError(message, code="validation_error", details=[{"field": field, "message": message}])


def _when(field: str, value: datetime | str | None) -> datetime | None:
    if value is None or isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(value.strip().upper())
        except ValueError:
            raise _invalid(field, f"{field} must be a date and time like 2026-11-24T18:00:00Z") from None
    if moment is None:
        return None
    try:
        return in_utc(moment, naive_is_utc=False)
    except ValueError:
        raise _invalid(field, f"{field} must say its offset (Z for UTC) and lie within the years 1 to 9999") from None


def _text(field: str, value: str | None) -> str | None:
    if value is not None and has_control_characters(value):
        raise _invalid(field, control_message(field))
    return value


async def list_audit_entries(
    actor: str | None = None,
    action: str | None = None,
    target: str | None = None,
    since: str | None = None,
    until: str | None = None,
    page: int = 0,
    size: int = 10,
):
    await staff()
    filters = audit.Filters(
        actor=_text("actor", actor),
        action=action,
        target=_text("target", target),
        since=_when("since", since),
        until=_when("until", until),
    )
    async with db_session() as db:
        result = await audit.list_entries(db, filters, PageQuery(page, size))
    return page_of(result, present)
