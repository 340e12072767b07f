"""The success and page envelopes every answer uses (see the contract's conventions)."""

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from ...services.paging import Page, PageQuery


def ok(content: Any) -> dict:
    return {"content": content, "error": False, "message": ""}


def page_of(result: Page, present: Callable[[Any], dict], entries: Iterable | None = None) -> dict:
    items = [present(e) for e in (entries if entries is not None else result.entries)]
    return ok(
        {
            "entryCount": len(items),
            "totalCount": result.total,
            "itemsPerPage": result.query.size,
            "startIndex": result.query.offset,
            "count": len(items),
            "nextExists": result.next_exists,
            "entries": items,
        }
    )


def iso(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


def epoch_ms(value: datetime) -> int:
    return int(value.timestamp() * 1000)


def page_query(body: dict) -> PageQuery:
    """Paging fields of a list request body (defaults come from the contract)."""
    return PageQuery(body.get("page", 0), body.get("size", 10), bool(body.get("next")), bool(body.get("count")))
