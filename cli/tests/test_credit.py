"""`touchline credit show|trigger|cancel EVENT_ID` against a live server: a pay-per-view event's
outages and the credit of its buyers in sentences or the API's JSON; admin staff trigger a credit
(which the server's job then runs) or cancel a scheduled one; the server's refusals (403 for
support staff, 409 for a credit that cannot be) are its message in one line, with exit code 1.

Events, buyers and outages are made with the server's test helpers on the module's database
(server/tests/outage_credits.py), as the outage credit's own tests make them."""

import asyncio
import json
import time
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD
from server import clock
from server.models import EventOutage, OutageCredit, new_id
from server.tests.accounts import create_user
from server.tests.outage_credits import buyers, live_ppv_event

from .test_events import CLEAN_ENV, create

runner = CliRunner()
CREDIT_FIELDS = {"event", "outageSeconds", "thresholdSeconds", "outages", "credit"}
# The server's `outage-credit` job runs a triggered credit within its interval (15 s by default).
JOB_WAIT_S = 60


def credit(server, *args: str, staff: str | None = None):
    env = {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": staff or server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }
    return runner.invoke(app, ["credit", *args], env={**CLEAN_ENV, **env})


def as_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


async def ppv_event(accounts_db) -> str:
    event, _ = await live_ppv_event(accounts_db.database)
    return event.id


async def outage_and_scheduled_credit(accounts_db, event_id: str) -> None:
    """Eleven minutes of interrupted ingest, ended five minutes ago, and the automatic credit it
    scheduled, due in an hour (far from the server's job, which runs only what is due)."""
    now = clock.now()
    ended = now - timedelta(minutes=5)
    async with accounts_db.database.session() as db:
        db.add(
            EventOutage(
                id=new_id(), event_id=event_id, cause="ingest", started=ended - timedelta(minutes=11), ended=ended
            )
        )
        db.add(
            OutageCredit(
                event_id=event_id,
                status="scheduled",
                kind="refund",
                reason="automatic",
                due=now + timedelta(hours=1),
                cutoff=ended,
                created=now,
                updated=now,
            )
        )
        await db.commit()


async def test_show_says_an_event_without_outages_has_no_credit(live_server, accounts_db):
    event = await ppv_event(accounts_db)
    result = await asyncio.to_thread(credit, live_server, "show", event)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"Outages of event {event}: 0 s of outages; credited from 10 min",
        "Credit: none scheduled",
    ]


@pytest.mark.parametrize("position", ["first", "last"])
async def test_json_before_or_after_the_command_prints_the_apis_content(live_server, accounts_db, position):
    event = await ppv_event(accounts_db)
    args = ["--json", "show", event] if position == "first" else ["show", event, "--json"]
    report = as_json(await asyncio.to_thread(credit, live_server, *args))
    assert set(report) == CREDIT_FIELDS
    assert (report["event"], report["outages"], report["credit"]) == (event, [], None)


async def test_show_lists_the_outages_and_the_automatic_credit_they_scheduled(live_server, accounts_db):
    event = await ppv_event(accounts_db)
    await outage_and_scheduled_credit(accounts_db, event)
    result = await asyncio.to_thread(credit, live_server, "show", event)
    assert result.exit_code == 0, result.output
    [total, outage, said] = result.stdout.splitlines()
    assert total == f"Outages of event {event}: 11 min of outages; credited from 10 min"
    assert outage.startswith("  ") and outage.endswith(" UTC: live input interrupted")
    assert said.startswith("Credit: scheduled (automatic): a refund for 0 buyers, due ")


async def test_cancel_stops_a_scheduled_credit_and_says_who_did(live_server, accounts_db):
    event = await ppv_event(accounts_db)
    await outage_and_scheduled_credit(accounts_db, event)
    result = await asyncio.to_thread(credit, live_server, "cancel", event)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"Credit of event {event} cancelled."
    assert lines[-1].startswith(f"Credit: cancelled by {live_server.staff}: 0 of 0 buyers credited")
    after = as_json(await asyncio.to_thread(credit, live_server, "show", event, "--json"))
    assert (after["credit"]["status"], after["credit"]["cancelledBy"]) == ("cancelled", live_server.staff)


async def test_trigger_credits_the_buyers_now_and_the_servers_job_runs_it(live_server, accounts_db):
    event, ppv = await live_ppv_event(accounts_db.database)
    await buyers(accounts_db.database, event, ppv, 2)
    result = await asyncio.to_thread(credit, live_server, "trigger", event.id)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"Credit of event {event.id} scheduled to run now."
    assert lines[-1].startswith(f"Credit: scheduled (by {live_server.staff}): a refund for 2 buyers, due ")
    deadline = time.monotonic() + JOB_WAIT_S
    while True:
        report = as_json(await asyncio.to_thread(credit, live_server, "--json", "show", event.id))
        if report["credit"]["status"] == "done" or time.monotonic() > deadline:
            break
        await asyncio.sleep(1)
    assert (report["credit"]["status"], report["credit"]["credited"]) == ("done", 2)
    said = await asyncio.to_thread(credit, live_server, "show", event.id)
    assert said.stdout.splitlines()[-1].startswith(
        f"Credit: done (by {live_server.staff}): a refund each, 2 of 2 buyers"
    )


def test_trigger_for_an_event_without_pay_per_view_is_the_servers_refusal_in_one_line(live_server):
    free = create(live_server, "--status", "live", title="A free live event")["_id"]
    result = credit(live_server, "trigger", free)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines() == ["Error: This event has no pay-per-view product (not_pay_per_view)"]


async def test_cancel_without_a_scheduled_credit_is_the_servers_refusal_in_one_line(live_server, accounts_db):
    event = await ppv_event(accounts_db)
    result = await asyncio.to_thread(credit, live_server, "cancel", event)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["Error: This event has no scheduled credit (no_scheduled_credit)"]


async def test_support_staff_may_look_but_neither_trigger_nor_cancel(live_server, accounts_db):
    support = await create_user(accounts_db.database, role="support")
    event = await ppv_event(accounts_db)
    await outage_and_scheduled_credit(accounts_db, event)
    shown = await asyncio.to_thread(credit, live_server, "show", event, staff=support)
    assert shown.exit_code == 0, shown.output
    for command in ("trigger", "cancel"):
        refused = await asyncio.to_thread(credit, live_server, command, event, staff=support)
        assert refused.exit_code == 1, refused.output
        [line] = refused.stderr.splitlines()
        assert line.startswith("Error: ") and line.endswith("(forbidden_role)")
    still = as_json(await asyncio.to_thread(credit, live_server, "show", event, "--json"))
    assert still["credit"]["status"] == "scheduled"


def test_a_malformed_event_id_stops_before_any_request():
    result = runner.invoke(app, ["credit", "show", "not-an-id", "--api-url", "http://127.0.0.1:9"], env=CLEAN_ENV)
    assert result.exit_code == 1 and "is not an event id" in result.output
