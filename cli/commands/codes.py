"""`touchline codes …`: access codes, through the admin API.

Issue a batch granting a product (or an event's pay-per-view), printed as CSV (a header row, then
one code a row: code, batch id, product id, uses, expiry) or JSON, ready to hand out; list codes
with their status; show one with its redemptions; revoke one. A large count is issued in several
requests of `--batch-size` codes (each its own batch id), with a progress bar on stderr; its JSON
is then one object with every code and `batchIds` in place of `batchId`. The server and the staff
account come from the group's options (staff_options.py), as does `--json` (`touchline codes
--json …`).

The staff console's Access codes screen (cli/tui/codes.py) shares the checks of the expiry and
the prefix, the issue in batches and the CSV and JSON it writes: the functions without a leading
underscore below.
"""

import csv
import io
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, date, datetime, time
from enum import StrEnum
from typing import Annotated, Any

import typer

from ..admin_client import AdminClient, fail
from . import staff_completion
from .progress import progress_bar
from .staff_api import (
    NONE,
    Page,
    Size,
    api_call,
    more_hint,
    new_console,
    object_id,
    print_json,
    print_rows,
    text_or_none,
    when,
)
from .staff_options import StaffOptions, options_of, staff_group

app = staff_group("Access codes granting a product (staff).")

CSV_HEADER = ["code", "batch_id", "product_id", "uses", "expires_at"]
MAX_COUNT = 100_000
MAX_BATCH = 10_000  # the API's limit per request
BATCH_SIZE = 500
MAX_USES = 100_000  # the API's limit on `uses`
PREFIX = re.compile(r"[A-Z0-9]{0,12}")  # IssueAccessCodesRequest.prefix: pattern ^[A-Z0-9]*$, maxLength 12


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
    str | None,
    typer.Option(
        "--event",
        metavar="ID",
        help="An event: the codes grant its pay-per-view product.",
        autocompletion=staff_completion.event_ids,
    ),
]


def parse_expiry(value: str) -> str:
    """An ISO date (the codes work until the end of that day, UTC) or date and time (UTC unless
    it says otherwise), as the API wants it; ValueError says what is wrong (after the value)."""
    text = value.strip()
    try:
        if len(text) == 10:
            moment = datetime.combine(date.fromisoformat(text), time(23, 59, 59), tzinfo=UTC)
        else:
            moment = datetime.fromisoformat(text.upper())
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
    except ValueError:
        raise ValueError("is not a date (2026-12-31) or a date and time (2026-12-31T18:00:00Z)") from None
    if moment <= datetime.now(UTC):
        raise ValueError("is in the past")
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def normal_prefix(value: str) -> str:
    """The prefix as the API wants it (upper case); ValueError says what is wrong (after the value)."""
    prefix = value.strip().upper()
    if not PREFIX.fullmatch(prefix):
        raise ValueError("must be at most 12 letters and digits")
    return prefix


def _expiry(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return parse_expiry(value)
    except ValueError as error:
        raise fail(f"--expires {value!r} {error}") from None


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
        raise fail("--format csv contradicts --json: give one of them")
    return chosen


def csv_text(batches: list[dict]) -> str:
    """A header row (CSV_HEADER), then one code a row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for batch in batches:
        for code in batch["codes"]:
            writer.writerow([code, batch["batchId"], batch["product_id"], batch["uses"], batch["expires_at"] or ""])
    return out.getvalue()


def json_text(batches: list[dict]) -> str:
    """merged(batches) as indented JSON, one line feed at the end."""
    return json.dumps(merged(batches), indent=2, ensure_ascii=False) + "\n"


def merged(batches: list[dict]) -> dict:
    """One batch as the API answered it; several as one object with every code and `batchIds`."""
    if len(batches) == 1:
        return batches[0]
    first = batches[0]
    return {
        "batchIds": [b["batchId"] for b in batches],
        "product_id": first["product_id"],
        "count": sum(b["count"] for b in batches),
        "uses": first["uses"],
        "expires_at": first["expires_at"],
        "codes": [code for b in batches for code in b["codes"]],
    }


async def issue_in_batches(
    issue: Callable[[dict[str, Any]], Awaitable[dict]], body: dict[str, Any], count: int, batch_size: int
) -> AsyncIterator[dict]:
    """`count` codes as requests (`issue(body)`) of at most `batch_size` codes (the API caps a
    request at MAX_BATCH); yields each batch as the API answered it."""
    for start in range(0, count, batch_size):
        yield await issue({**body, "count": min(batch_size, count - start)})


async def _issue_all(api: AdminClient, body: dict[str, Any], count: int, batch_size: int) -> list[dict]:
    batches: list[dict] = []
    with progress_bar("Issuing codes", total=count, show=count > batch_size) as advance:
        async for batch in issue_in_batches(lambda b: api.post("/admin/access_codes", b), body, count, batch_size):
            batches.append(batch)
            advance(batch["count"])
    return batches


@app.command("issue")
def issue(
    ctx: typer.Context,
    count: Annotated[int, typer.Option("--count", min=1, max=MAX_COUNT, help="How many codes.")],
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
            "Default csv; json with --json (which refuses --format csv).",
            show_default=False,
        ),
    ] = None,
    batch_size: Annotated[
        int,
        typer.Option(
            "--batch-size", min=1, max=MAX_BATCH, help="Codes per request; more are issued with a progress bar."
        ),
    ] = BATCH_SIZE,
) -> None:
    """Issue a batch of codes and print them (random, unguessable; single-use unless --uses)."""
    options = options_of(ctx)
    chosen = _format(output, options)
    body: dict[str, Any] = {**_target(product, event), "uses": uses}
    if expires is not None:
        body["expires_at"] = _expiry(expires)
    if prefix:
        try:
            body["prefix"] = normal_prefix(prefix)
        except ValueError as error:
            raise fail(f"--prefix {prefix!r} {error}") from None
    batches = api_call(options, lambda api: _issue_all(api, body, count, batch_size))
    typer.echo(json_text(batches) if chosen is Format.json else csv_text(batches), nl=False)


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


@app.command("show")
def show(
    ctx: typer.Context,
    code_id: Annotated[str, typer.Argument(metavar="ID", help="The code's ID (see `touchline codes list`).")],
) -> None:
    """One code: its state, what it grants, and who redeemed it when."""
    options = options_of(ctx)
    code_id = object_id(code_id, "an access code id", "it is the ID column of `touchline codes list`")
    content = api_call(options, lambda api: api.get(f"/admin/access_codes/{code_id}"))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    for label, value in (
        ("ID", content["_id"]),
        ("Code", content["code"]),
        ("State", _state(content)),
        ("Product", content["product_id"]),
        ("Event", text_or_none(content.get("event_id"))),
        ("Batch", content["batchId"]),
        ("Expires", f"{when(content['expires_at'])} UTC" if content["expires_at"] else NONE),
        ("Added", f"{when(content['added'])} UTC"),
    ):
        console.print(f"{label + ':':<9} {value}", soft_wrap=True)
    redemptions = content["redemptions"]
    if not redemptions:
        console.print("Nobody has redeemed it.")
        return
    rows = [[text_or_none(r["userId"]), when(r["redeemedAt"])] for r in redemptions]
    print_rows(console, "Redemptions", ["Account", "Redeemed (UTC)"], rows)


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
