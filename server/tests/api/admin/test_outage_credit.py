"""A pay-per-view event's outages and the credit of its buyers, as staff read and steer them
(`get_outage_credit`, `trigger_outage_credit`, `cancel_outage_credit`): support staff read, admin
staff trigger or cancel; every refusal is the contract's envelope. The credit itself is
server/tests/services/test_outage_credit.py."""

from datetime import datetime, timedelta

import pytest
import pytest_asyncio

from server import clock
from server.tests.mailbox import recording_socket
from server.tests.outage_credits import (
    a_round,
    buyers,
    credited_messages,
    interrupt,
    later,
    live_ppv_event,
    refunds_of,
)
from server.tests.staff_events import staff_event

from .test_roles_keys_audit import staff_account

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOBODY = "f" * 24


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def admin(client, database):
    return await staff_account(client, database, "admin")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def support(client, database):
    return await staff_account(client, database, "support")


async def call(client, who: dict | None, method: str, event_id: str, action: str = ""):
    path = f"/api/admin/events/{event_id}/outage_credit{action}"
    return await client.request(method, path, headers=who["headers"] if who else None)


async def content(client, who: dict, method: str, event_id: str, action: str = "") -> dict:
    answer = await call(client, who, method, event_id, action)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


def refused(answer, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert (body["error"], body["messageErrorCode"]) == (True, code)


def when(text: str) -> datetime:
    return datetime.fromisoformat(text)


READ, TRIGGER, CANCEL = ("GET", ""), ("POST", ""), ("POST", "/cancel")


async def test_an_event_without_outages_has_no_credit_and_the_threshold_of_the_settings(client, database, support):
    event, _ = await live_ppv_event(database)
    assert await content(client, support, "GET", event.id) == {
        "event": event.id,
        "outageSeconds": 0,
        "thresholdSeconds": 600,
        "outages": [],
        "credit": None,
    }


async def test_a_lasting_outage_is_counted_up_to_now(client, database, support, settings):
    event, _ = await live_ppv_event(database)
    await interrupt(database, event.id)
    await a_round(database, settings)
    later(minutes=2)

    read = await content(client, support, "GET", event.id)

    assert 120 <= read["outageSeconds"] < 130
    [outage] = read["outages"]
    assert (outage["cause"], outage["end"]) == ("ingest", None)
    assert read["credit"] is None


async def test_staff_trigger_schedules_the_credit_now_and_the_next_round_credits_the_buyers(
    client, database, admin, settings
):
    event, ppv = await live_ppv_event(database)
    [buyer] = await buyers(database, event, ppv, 1)
    before = clock.now()

    scheduled = await content(client, admin, "POST", event.id)

    credit = scheduled["credit"]
    assert (credit["status"], credit["kind"], credit["reason"]) == ("scheduled", "refund", "staff")
    assert (credit["buyers"], credit["credited"], credit["createdBy"], credit["cancelledBy"]) == (
        1,
        0,
        admin["email"],
        None,
    )
    assert before <= when(credit["due"]) <= clock.now() and credit["cutoff"] == credit["due"]
    with recording_socket() as socket:
        await a_round(database, settings)
    done = (await content(client, admin, "GET", event.id))["credit"]
    assert (done["status"], done["buyers"], done["credited"]) == ("done", 1, 1)
    assert len(await refunds_of(database, buyer.purchase_id)) == 1 and len(credited_messages(socket, buyer)) == 1

    refused(await call(client, admin, "POST", event.id), 409, "credit_started")
    refused(await call(client, admin, "POST", event.id, "/cancel"), 409, "credit_started")


async def test_staff_cancel_a_scheduled_credit_and_may_schedule_it_again(client, database, admin, settings):
    event, ppv = await live_ppv_event(database)
    [buyer] = await buyers(database, event, ppv, 1)
    refused(await call(client, admin, "POST", event.id, "/cancel"), 409, "no_scheduled_credit")
    await content(client, admin, "POST", event.id)

    cancelled = (await content(client, admin, "POST", event.id, "/cancel"))["credit"]

    assert (cancelled["status"], cancelled["cancelledBy"]) == ("cancelled", admin["email"])
    await a_round(database, settings)
    assert await refunds_of(database, buyer.purchase_id) == []
    refused(await call(client, admin, "POST", event.id, "/cancel"), 409, "no_scheduled_credit")
    again = (await content(client, admin, "POST", event.id))["credit"]
    assert (again["status"], again["createdBy"], again["cancelledBy"]) == ("scheduled", admin["email"], None)


async def test_a_scheduled_credit_triggered_by_staff_is_brought_forward_with_its_cutoff(
    client, database, admin, settings
):
    event, ppv = await live_ppv_event(database)
    await buyers(database, event, ppv, 1)
    await interrupt(database, event.id)
    await a_round(database, settings)
    later(minutes=10)
    await a_round(database, settings)  # the threshold is crossed: due in five minutes
    automatic = (await content(client, admin, "GET", event.id))["credit"]
    assert (automatic["status"], automatic["reason"]) == ("scheduled", "automatic")
    assert when(automatic["due"]) - when(automatic["cutoff"]) == timedelta(seconds=300)

    forward = (await content(client, admin, "POST", event.id))["credit"]

    assert (forward["reason"], forward["cutoff"]) == ("automatic", automatic["cutoff"])
    assert when(forward["due"]) <= clock.now() < when(automatic["due"])


async def test_an_event_without_a_pay_per_view_product_cannot_be_credited(client, database, admin):
    event = await staff_event(client, database, admin["headers"])
    refused(await call(client, admin, "POST", event["_id"]), 409, "not_pay_per_view")
    assert (await content(client, admin, "GET", event["_id"]))["credit"] is None


@pytest.mark.parametrize(("method", "action"), [READ, TRIGGER, CANCEL], ids=["read", "trigger", "cancel"])
async def test_an_unknown_event_is_a_404_and_a_malformed_id_a_400(client, admin, method, action):
    refused(await call(client, admin, method, NOBODY, action), 404, "event_not_found")
    answer = await call(client, admin, method, "not-an-id", action)
    assert answer.status_code == 400 and answer.json()["error"] is True


@pytest.mark.parametrize(("method", "action"), [TRIGGER, CANCEL], ids=["trigger", "cancel"])
async def test_support_staff_read_the_credit_but_only_admin_staff_steer_it(client, database, support, method, action):
    event, _ = await live_ppv_event(database)
    assert (await call(client, support, "GET", event.id)).status_code == 200
    refused(await call(client, support, method, event.id, action), 403, "forbidden_role")


@pytest.mark.parametrize(("method", "action"), [READ, TRIGGER, CANCEL], ids=["read", "trigger", "cancel"])
async def test_viewers_and_anonymous_callers_are_refused(client, database, method, action):
    from server.tests.accounts import sign_up

    event, _ = await live_ppv_event(database)
    viewer = await sign_up(client)
    refused(await call(client, viewer, method, event.id, action), 403, "forbidden_role")
    assert (await call(client, None, method, event.id, action)).status_code == 401


async def test_staff_read_who_triggered_and_each_buyers_credit_in_the_audit_log(client, database, admin, settings):
    event, ppv = await live_ppv_event(database)
    [buyer] = await buyers(database, event, ppv, 1)
    await content(client, admin, "POST", event.id)
    await a_round(database, settings)

    async def entries(**query) -> list[dict]:
        answer = await client.get("/api/admin/audit", params=query, headers=admin["headers"])
        assert answer.status_code == 200, answer.text  # the answer is checked against the contract
        return answer.json()["content"]["entries"]

    [triggered] = await entries(action="trigger_outage_credit", target=event.id)
    assert (triggered["actorType"], triggered["actor"], triggered["status"]) == ("user", admin["email"], 200)
    [credited] = await entries(action="outage_credit_granted", target=buyer.purchase_id)
    assert (credited["actorType"], credited["actorId"], credited["method"], credited["path"]) == (
        "system",
        None,
        "JOB",
        "outage-credit",
    )
    assert credited["detail"] == {"event": event.id, "kind": "refund", "amountMinor": ppv.price_minor}
    outbox = await client.get(
        "/api/admin/outbox", params={"to": buyer.email, "kind": "outage_credit"}, headers=admin["headers"]
    )
    assert outbox.status_code == 200, outbox.text
    [mail] = outbox.json()["content"]["entries"]
    assert mail["kind"] == "outage_credit" and "Refunded: 14.99 EUR" in mail["text"]
