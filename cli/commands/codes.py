"""`touchline codes …`: access codes, through the admin API.

Issue a batch granting a product (or an event's pay-per-view), printed as CSV (a header row, then
one code a row: code, batch id, product id, uses, expiry) or JSON, ready to hand out; list codes
with their status; revoke one. The server and the staff account come from the group's options
(staff_options.py), as does `--json` (`touchline codes --json …`).
"""

import csv
import io
from datetime import UTC, date, datetime, time
from enum import StrEnum
from typing import Annotated, Any

import typer

from ..admin_client import fail
from .staff_api import Page, Size, api_call, more_hint, new_console, object_id, print_json, print_rows, when
from .staff_options import StaffOptions, options_of, staff_options

app = typer.Typer(help="Access codes granting a product (staff).", no_args_is_help=True, callback=staff_options)

CSV_HEADER = ["code", "batch_id", "product_id", "uses", "expires_at"]
MAX_BATCH = 10_000


class Format(StrEnum):
    csv = "csv"
    json = "json"


class Status(StrEnum):
    active = "active"
    used = "used"
    expired = "expired"
    revoked = "revoked"


ProductOption = Annotated[str | None, typer.Option("--product", metavar="ID", help="The product the codes grant.")]
EventOption = Annotated[
    str | None, typer.Option("--event", metavar="ID", help="An event: the codes grant its pay-per-view product.")
]


def _expiry(value: str | None) -> str | None:
    """An ISO date (the codes work until the end of that day, UTC) or date and time (UTC unless
    it says otherwise), as the API wants it."""
    if value is None:
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            moment = datetime.combine(date.fromisoformat(text), time(23, 59, 59), tzinfo=UTC)
        else:
            moment = datetime.fromisoformat(text.upper())
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
    except ValueError:
        raise fail(
            f"--expires {value!r} is not a date (2026-12-31) or a date and time (2026-12-31T18:00:00Z)"
        ) from None
    if moment <= datetime.now(UTC):
        raise fail(f"--expires {value!r} is in the past")
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _target(product: str | None, event: str | None) -> dict[str, str]:
    if product is not None and event is None:
        return {"product_id": object_id(product, "a product id", "it is the product's _id (GET /api/admin/products)")}
    if event is not None and product is None:
        return {"event_id": object_id(event, "an event id", "it is the event's _id")}
    raise fail("Give either --product or --event (exactly one of them)")


def _format(chosen: Format | None, options: StaffOptions) -> Format:
    """--format wins when given; otherwise the group's --json means json, else csv."""
    if chosen is None:
        return Format.json if options.as_json else Format.csv
    if chosen is Format.csv and options.as_json:
        raise fail("--format csv contradicts `touchline codes --json`: give one of them")
    return chosen


def _print_csv(batch: dict) -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for code in batch["codes"]:
        writer.writerow([code, batch["batchId"], batch["product_id"], batch["uses"], batch["expires_at"] or ""])
    typer.echo(out.getvalue(), nl=False)


@app.command("issue")
def issue(
    ctx: typer.Context,
    count: Annotated[int, typer.Option("--count", min=1, max=MAX_BATCH, help="How many codes.")],
    product: ProductOption = None,
    event: EventOption = None,
    uses: Annotated[int, typer.Option("--uses", min=1, help="How many accounts may redeem each code.")] = 1,
    expires: Annotated[
        str | None,
        typer.Option("--expires", metavar="DATE", help="Last day (UTC) the codes work, or an ISO date and time."),
    ] = None,
    prefix: Annotated[
        str | None, typer.Option("--prefix", help="Up to 12 letters and digits in front of each code, e.g. DERBY.")
    ] = None,
    output: Annotated[
        Format | None,
        typer.Option(
            "--format",
            help="csv: a header row, then one code a row; json: the batch as the API answered it. "
            "Default csv; json under `touchline codes --json` (which refuses --format csv).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Issue a batch of codes and print them (random, unguessable; single-use unless --uses)."""
    options = options_of(ctx)
    chosen = _format(output, options)
    body: dict[str, Any] = {**_target(product, event), "count": count, "uses": uses}
    if expires is not None:
        body["expires_at"] = _expiry(expires)
    if prefix:
        body["prefix"] = prefix.strip().upper()
        if not body["prefix"].isalnum() or not body["prefix"].isascii() or len(body["prefix"]) > 12:
            raise fail(f"--prefix {prefix!r} must be at most 12 letters and digits")
    batch = api_call(options, lambda api: api.post("/admin/access_codes", body))
    if chosen is Format.json:
        print_json(batch)
    else:
        _print_csv(batch)


def _state(code: dict) -> str:
    return f"{code['status']} ({code['redeemedCount']}/{code['uses']} used)"


@app.command("list")
def list_codes(
    ctx: typer.Context,
    product: ProductOption = None,
    event: EventOption = None,
    batch: Annotated[str | None, typer.Option("--batch", metavar="ID", help="Codes of one batch.")] = None,
    status: Annotated[Status | None, typer.Option("--status", help="Only codes in this state.")] = None,
    code: Annotated[str | None, typer.Option("--code", help="The code or its beginning (any case).")] = None,
    page: Page = 0,
    size: Size = 10,
) -> None:
    """Access codes, newest first, with their state and who redeemed them."""
    options = options_of(ctx)
    params: dict[str, Any] = {"page": page, "size": size}
    if product is not None:
        params["product_id"] = object_id(product, "a product id", "it is the product's _id")
    if event is not None:
        params["event_id"] = object_id(event, "an event id", "it is the event's _id")
    if batch is not None:
        params["batch_id"] = object_id(batch, "a batch id", "it is printed by `touchline codes issue`")
    if status is not None:
        params["status"] = status.value
    if code is not None and code.strip():
        params["code"] = code.strip()
    content = api_call(options, lambda api: api.get("/admin/access_codes", params))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["entries"]:
        console.print("No access code matches" + (f" on page {page}." if page else "."))
        return
    headers = ["ID", "Code", "State", "Product", "Batch", "Expires (UTC)", "Added (UTC)"]
    print_rows(
        console,
        "Access codes",
        headers,
        [
            [c["_id"], c["code"], _state(c), c["product_id"], c["batchId"], when(c["expires_at"]), when(c["added"])]
            for c in content["entries"]
        ],
    )
    more_hint(console, content, page)


@app.command("revoke")
def revoke(
    ctx: typer.Context,
    code_id: Annotated[str, typer.Argument(metavar="ID", help="The code's ID (see `touchline codes list`).")],
) -> None:
    """Revoke a code: it cannot be redeemed any more; what it granted stays granted."""
    options = options_of(ctx)
    code_id = object_id(code_id, "an access code id", "it is the ID column of `touchline codes list`")
    content = api_call(options, lambda api: api.post(f"/admin/access_codes/{code_id}/revoke"))
    if options.as_json:
        print_json(content)
        return
    redeemed = len(content["redemptions"])
    who = "1 account redeemed it and keeps" if redeemed == 1 else f"{redeemed} accounts redeemed it and keep"
    new_console().print(
        f"Access code {content['code']} ({content['_id']}) is revoked: it cannot be redeemed any more. "
        f"{who} what it granted."
    )
