"""`touchline outbox …`: the mail the server wrote (GET /api/admin/outbox), for support staff.

Without an SMTP server mail stays in the outbox (status `kept`); with one, it records `sent` or
`failed`. `list` shows a page, newest first; `show ID` prints one mail with its text as staff may
read it (the server redacts working secrets such as a reset link's token); `resend ID`
sends it again (POST /api/admin/outbox/{id}/resend: a new outbox entry, in the audit log). The
server and the staff account come from the group's options (staff_options.py), as does `--json`.
"""

from enum import StrEnum
from typing import Annotated, Any

import typer

from ..admin_client import fail
from . import staff_completion
from .staff_api import Page, Size, api_call, more_hint, new_console, object_id, print_json, print_rows, when
from .staff_options import options_of, staff_group

app = staff_group("Mail the server wrote: list, show, resend (support staff).")

# The outbox is searched page by page for `show` (newest first): at most this many pages.
SHOW_PAGES = 20
SHOW_PAGE_SIZE = 100
# What a resent mail's status means for the person who asked.
RESENT = {"kept": "kept in the outbox (no SMTP server is configured)", "queued": "queued for the SMTP server"}


class Kind(StrEnum):
    password_reset = "password_reset"
    password_changed = "password_changed"
    account_deleted = "account_deleted"
    purchase_receipt = "purchase_receipt"
    renewal_failed = "renewal_failed"


ToOption = Annotated[
    str | None,
    typer.Option("--to", help="Only mail to this address (any case).", autocompletion=staff_completion.emails),
]
KindOption = Annotated[Kind | None, typer.Option("--kind", help="Only mail of this kind.")]


def _params(to: str | None, kind: Kind | None) -> dict[str, Any]:
    params: dict[str, Any] = {}
    if to is not None:
        if len(to.strip()) < 3:
            raise fail(f"--to {to!r} is not an e-mail address")
        params["to"] = to.strip()
    if kind is not None:
        params["kind"] = kind.value
    return params


@app.command("list")
def list_mail(
    ctx: typer.Context, to: ToOption = None, kind: KindOption = None, page: Page = 0, size: Size = 10
) -> None:
    """Mail, newest first: to whom, what, and whether it was sent."""
    options = options_of(ctx)
    params = {**_params(to, kind), "page": page, "size": size}
    content = api_call(options, lambda api: api.get("/admin/outbox", params))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["entries"]:
        console.print("No mail matches" + (f" on page {page}." if page else "."))
        return
    headers = ["ID", "To", "Kind", "Subject", "Status", "Written (UTC)", "Sent (UTC)"]
    rows = [
        [m["_id"], m["to"], m["kind"], m["subject"], m["status"], when(m["added"]), when(m["sentAt"])]
        for m in content["entries"]
    ]
    print_rows(console, "Outbox", headers, rows)
    more_hint(console, content, page)


@app.command("show")
def show(
    ctx: typer.Context,
    mail_id: Annotated[str, typer.Argument(metavar="ID", help="The mail's ID (see `touchline outbox list`).")],
    to: ToOption = None,
    kind: KindOption = None,
) -> None:
    """One mail with its whole text. --to and --kind narrow the search in a long outbox."""
    options = options_of(ctx)
    mail_id = object_id(mail_id, "a mail id", "it is the ID column of `touchline outbox list`")
    params = _params(to, kind)

    async def find(api) -> dict | None:
        for page in range(SHOW_PAGES):
            content = await api.get("/admin/outbox", {**params, "page": page, "size": SHOW_PAGE_SIZE})
            for mail in content["entries"]:
                if mail["_id"] == mail_id:
                    return mail
            if content["entryCount"] < SHOW_PAGE_SIZE:
                return None
        return None

    mail = api_call(options, find)
    if mail is None:
        raise fail(f"No mail {mail_id} in the outbox (among the newest {SHOW_PAGES * SHOW_PAGE_SIZE} that match)")
    if options.as_json:
        print_json(mail)
        return
    console = new_console()
    for label, value in (
        ("ID", mail["_id"]),
        ("To", mail["to"]),
        ("Subject", mail["subject"]),
        ("Kind", mail["kind"]),
        ("Status", mail["status"]),
        ("Written", f"{when(mail['added'])} UTC"),
        ("Sent", f"{when(mail['sentAt'])} UTC" if mail["sentAt"] else "-"),
    ):
        console.print(f"{label + ':':<9} {value}", soft_wrap=True)
    console.print()
    console.print(mail["text"], soft_wrap=True)


@app.command("resend")
def resend(
    ctx: typer.Context,
    mail_id: Annotated[str, typer.Argument(metavar="ID", help="The mail's ID (see `touchline outbox list`).")],
) -> None:
    """Send a mail again: the server writes it to the outbox anew (and sends it, with SMTP)."""
    options = options_of(ctx)
    mail_id = object_id(mail_id, "a mail id", "it is the ID column of `touchline outbox list`")
    content = api_call(options, lambda api: api.post(f"/admin/outbox/{mail_id}/resend"))
    if options.as_json:
        print_json(content)
        return
    status = RESENT.get(content["status"], content["status"])
    new_console().print(
        f"Mail {mail_id} to {content['to']} ({content['kind']}) is written again as {content['_id']}: {status}.",
        soft_wrap=True,
    )
