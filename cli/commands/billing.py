"""`touchline billing …`: the renewal job, run now by a server (POST /api/admin/billing/renew).

The servers run the same job on their schedule (TOUCHLINE_RENEWAL_INTERVAL_SECONDS); asking for
a run meanwhile is safe: every contract's outcome is applied once and the provider never charges
one period twice (a server already running one answers that it is). The server tells the viewers
of the outcome (`user-purchase-status`) through its socket, every process's when they share
Redis. The server and the staff account come from the group's options (staff_options.py);
`touchline billing --json renew` prints the API's counts. A spinner (on stderr) shows the wait.
"""

from typing import Annotated

import typer

from ..admin_client import fail
from ..terminal_text import echo
from .progress import spinner
from .staff_api import api_call, print_json
from .staff_options import options_of, staff_group

app = staff_group("Subscription billing (staff).")

# The run handles every due contract before it answers: give it longer than a lookup.
RENEW_TIMEOUT_S = 300.0


@app.command("renew")
def renew(
    ctx: typer.Context,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Charge and change nothing; count what would.")] = False,
) -> None:
    """Renew the subscriptions due now: charge their stored cards (--dry-run: only count).

    A refused renewal makes the contract past due, and expired once its grace period ends.
    Canceled contracts expire.

    Exit code 1 when a contract could not be handled now (run again later) or the API refused."""
    options = options_of(ctx)
    with spinner("Dry run of the renewals…" if dry_run else "Running the renewals…"):
        content = api_call(
            options, lambda api: api.post("/admin/billing/renew", {"dry_run": dry_run}), timeout=RENEW_TIMEOUT_S
        )
    if options.as_json:
        print_json(content)
        if content["errors"]:
            raise fail(f"{content['errors']} contract(s) could not be handled now (see the server's log)")
        return
    echo(_summary(content))
    if content["errors"]:
        raise typer.Exit(1)


def _summary(content: dict) -> str:
    """The counts of a RenewalRunResponse, in a sentence (and what to do about the leftovers)."""
    prefix = "Dry run (nothing charged or changed): " if content["dryRun"] else ""
    lines = [
        f"{prefix}{content['due']} contract(s) due: {content['renewed']} renewed, {content['pastDue']} past due, "
        f"{content['expired']} expired, {content['processing']} processing."
    ]
    if content["processing"]:
        lines.append("Processing renewals are finished by a running server (settlement).")
    if content["errors"]:
        lines.append(
            f"{content['errors']} contract(s) could not be handled now (see the server's log); run again later."
        )
    return "\n".join(lines)
