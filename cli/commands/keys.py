"""`touchline keys …`: API keys for scripts (admin staff), through the admin API.

`create` prints the secret once (the server keeps only its hash); `list` shows the keys without
it; `revoke` stops a key at once. Scripts then use the key with TOUCHLINE_API_KEY (or
`--api-key`) instead of a staff account.
"""

from datetime import UTC, datetime, time
from enum import StrEnum
from typing import Annotated

import typer

from ..admin_client import fail
from ..terminal_text import echo
from .staff_api import NONE, Page, Size, api_call, more_hint, new_console, object_id, print_json, print_rows, when
from .staff_options import options_of, staff_group

app = staff_group("API keys for scripts (admin staff).")


class KeyRole(StrEnum):
    support = "support"
    admin = "admin"


def expires_option(value: str | None) -> str | None:
    """`--expires`: a date (the key works until the end of that day, UTC) or a date and time; the
    instant in UTC for the API."""
    if value is None:
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            day = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
            moment = datetime.combine(day.date(), time(23, 59, 59), tzinfo=UTC)
        else:
            moment = datetime.fromisoformat(text.upper())
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
    except ValueError:
        raise fail(
            f"--expires {value!r} is not a date (2026-12-31) or a date and time (2026-12-31T18:00:00Z)"
        ) from None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _rows(entries: list[dict]) -> list[list[str]]:
    return [
        [
            e["_id"],
            e["name"],
            e["role"],
            e["prefix"] + "…",
            e["status"],
            e["createdByEmail"] or e["createdBy"] or NONE,
            when(e["added"]),
            when(e["expires_at"]) if e["expires_at"] else "never",
            when(e["lastUsed"]),
        ]
        for e in entries
    ]


HEADERS = ["ID", "Name", "Role", "Prefix", "Status", "Made by", "Made (UTC)", "Expires (UTC)", "Last used (UTC)"]


@app.command("create")
def create(
    ctx: typer.Context,
    role: Annotated[KeyRole, typer.Option("--role", help="What the key may do.")],
    name: Annotated[str, typer.Option("--name", help="What the key is for (shown in lists and the audit log).")],
    expires: Annotated[
        str | None, typer.Option("--expires", help="Last day (UTC) or moment the key works; default: until revoked.")
    ] = None,
) -> None:
    """Make a key; its secret is printed this once."""
    options = options_of(ctx)
    if not name.strip():
        raise fail("--name is empty: say what the key is for")
    body: dict = {"name": name.strip(), "role": role.value}
    if (expires_at := expires_option(expires)) is not None:
        body["expires_at"] = expires_at
    content = api_call(options, lambda api: api.post("/admin/keys", body))
    if options.as_json:
        print_json(content)
        return
    key = content["key"]
    echo(f"Made API key {key['_id']} ({key['name']}, role {key['role']}).")
    typer.echo("Its secret, shown only this once (keep it in a secret store; use it as TOUCHLINE_API_KEY):")
    typer.echo(content["secret"])


@app.command("list")
def list_keys(
    ctx: typer.Context,
    revoked: Annotated[bool, typer.Option("--revoked", help="Include revoked keys.")] = False,
    page: Page = 0,
    size: Size = 10,
) -> None:
    """The keys, newest first (never their secret)."""
    options = options_of(ctx)
    params = {"revoked": str(revoked).lower(), "page": page, "size": size}
    content = api_call(options, lambda api: api.get("/admin/keys", params))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["entries"]:
        console.print("No API keys." if not page else f"No API keys on page {page}.")
        return
    print_rows(console, "API keys", HEADERS, _rows(content["entries"]))
    more_hint(console, content, page)


@app.command("revoke")
def revoke(
    ctx: typer.Context,
    key_id: Annotated[str, typer.Argument(metavar="ID", help="The key's id (see `touchline keys list`).")],
) -> None:
    """Revoke a key: it is refused from its next request on."""
    options = options_of(ctx)
    key_id = object_id(key_id, "a key id", "find it with `touchline keys list`")
    content = api_call(options, lambda api: api.post(f"/admin/keys/{key_id}/revoke"))
    if options.as_json:
        print_json(content)
        return
    echo(f"Revoked API key {content['_id']} ({content['name']}).")
