"""`touchline audit list`: the audit log of admin writes, filtered, through the admin API."""

from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from ..admin_client import fail
from . import staff_completion
from .staff_api import NONE, Page, Size, api_call, more_hint, new_console, print_json, print_rows, when
from .staff_options import options_of, staff_group

app = staff_group("The audit log of admin writes.")


def _moment(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value.strip().upper())
    except ValueError:
        raise fail(f"{option} {value!r} is not a date (2026-11-24) or a date and time (2026-11-24T18:00:00Z)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _status(entry: dict) -> str:
    """The status, and how many calls a counted entry (refused anonymous calls) stands for."""
    count = entry.get("count") or 1
    return f"{entry['status']} ×{count}" if count > 1 else str(entry["status"])


def _detail(detail: dict | None) -> str:
    """`oldRole=viewer newRole=support`; a list is shown by its length (`mailIds=10`)."""
    if not detail:
        return NONE
    return " ".join(f"{k}={len(v) if isinstance(v, list) else v}" for k, v in detail.items())


@app.command("list")
def list_entries(
    ctx: typer.Context,
    actor: Annotated[
        str | None,
        typer.Option(
            "--actor",
            help="An account's or key's id, or part of an e-mail address or key name.",
            autocompletion=staff_completion.emails,
        ),
    ] = None,
    action: Annotated[str | None, typer.Option("--action", help="An operation id, e.g. issue_access_codes.")] = None,
    target: Annotated[str | None, typer.Option("--target", help="Part of the target (an id).")] = None,
    since: Annotated[str | None, typer.Option("--since", help="From this date or moment (UTC unless it says).")] = None,
    until: Annotated[str | None, typer.Option("--until", help="Before this date or moment.")] = None,
    page: Page = 0,
    size: Size = 10,
) -> None:
    """Who did what, newest first."""
    options = options_of(ctx)
    params: dict[str, Any] = {"page": page, "size": size}
    for name, value in (
        ("actor", actor),
        ("action", action),
        ("target", target),
        ("since", _moment(since, "--since")),
        ("until", _moment(until, "--until")),
    ):
        if value:
            params[name] = value
    content = api_call(options, lambda api: api.get("/admin/audit", params))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["entries"]:
        console.print("No audit entries match." if not page else f"No audit entries on page {page}.")
        return
    headers = ["When (UTC)", "Actor", "Action", "Target", "Status", "From", "Detail"]
    rows = [
        [
            when(e["at"]),
            e["actor"] or e["actorId"] or e["actorType"],
            e["action"],
            e["target"] or NONE,
            _status(e),
            e["clientAddress"] or NONE,
            _detail(e.get("detail")),
        ]
        for e in content["entries"]
    ]
    print_rows(console, "Audit log", headers, rows)
    more_hint(console, content, page)
