"""`touchline credit show|trigger|cancel EVENT_ID`: a pay-per-view event's outages and the credit of
its buyers (GET/POST /api/admin/events/{id}/outage_credit, POST …/outage_credit/cancel).

The server schedules a credit by itself once an event's outages (its live input interrupted, or
most plays failing to start) add up to its threshold, and runs it a few minutes later: a refund of
each purchase paid before the outage ended, or an access code. `show` says where that stands
(support staff may look); `trigger` credits the buyers now whatever the outages add up to, and
`cancel` stops a scheduled credit before it runs (both need the admin role). Every command prints
the event's outages and credit as they are afterwards; `--json` prints the API's answer.
"""

from typing import Annotated

import typer

from ..outage_credit_figures import credit_of, outage_of, total_of
from . import staff_completion
from .staff_api import api_call, new_console, object_id, print_json
from .staff_options import options_of, staff_group

app = staff_group("A pay-per-view event's outages and the credit of its buyers (trigger, cancel: admin).")

EventId = Annotated[
    str,
    typer.Argument(
        metavar="EVENT_ID",
        help="The pay-per-view event's id (see `touchline events list`).",
        autocompletion=staff_completion.event_ids,
    ),
]


def _path(event_id: str, action: str = "") -> str:
    event = object_id(event_id, "an event id", "find it with `touchline events list`")
    return f"/admin/events/{event}/outage_credit{action}"


def _call(ctx: typer.Context, method: str, path: str, done: str | None = None) -> None:
    options = options_of(ctx)
    report = api_call(options, lambda api: api.request(method, path))
    if options.as_json:
        print_json(report)
        return
    console = new_console()
    if done:
        console.print(done.format(event=report["event"]))
    console.print(f"Outages of event {report['event']}: {total_of(report)}")
    for outage in report["outages"]:
        console.print(f"  {outage_of(outage)}")
    console.print(f"Credit: {credit_of(report['credit'])}")


@app.command("show")
def show(ctx: typer.Context, event_id: EventId) -> None:
    """The event's outages and where the credit of its buyers stands."""
    _call(ctx, "GET", _path(event_id))


@app.command("trigger")
def trigger(ctx: typer.Context, event_id: EventId) -> None:
    """Credit the event's buyers now, whatever its outages add up to (admin)."""
    _call(ctx, "POST", _path(event_id), "Credit of event {event} scheduled to run now.")


@app.command("cancel")
def cancel(ctx: typer.Context, event_id: EventId) -> None:
    """Cancel the event's scheduled credit before it runs: nobody is credited (admin)."""
    _call(ctx, "POST", _path(event_id, "/cancel"), "Credit of event {event} cancelled.")
