"""POST /qoe/beacons: the player's beacons, stored with the viewer's session (never the account),
bounded like any anonymous write."""

import pytest
from sqlalchemy import select

from server.models import QoeBeacon
from server.tests.accounts import bearer, sign_up
from server.tests.api.admin.test_roles_keys_audit import admin  # noqa: F401 (fixture)
from server.tests.qoe_beacons import beacon, new_view
from server.tests.staff_events import staff_event

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
async def event_id(client, database, admin):  # noqa: F811 (the fixture above)
    return (await staff_event(client, database, admin["headers"], title="Beacons FC vs QoE United"))["_id"]


async def post(client, beacons: list[dict], headers: dict | None = None, anonymous: str = "anon-beacons-1"):
    return await client.post("/api/qoe/beacons", json={"anonymousId": anonymous, "beacons": beacons}, headers=headers)


async def stored(database, view: str) -> list[QoeBeacon]:
    async with database.session() as db:
        return list(await db.scalars(select(QoeBeacon).where(QoeBeacon.view == view).order_by(QoeBeacon.kind)))


async def test_an_anonymous_views_beacons_are_stored_under_its_browser_id(client, database, event_id):
    view = new_view()
    answer = await post(
        client, [beacon(view, "start", event_id), beacon(view, "startup", event_id, ms=1180, bitrateKbps=2800)]
    )
    assert answer.status_code == 202, answer.text
    assert answer.json() == {"content": {"accepted": 2}, "error": False, "message": ""}
    start, startup = await stored(database, view)
    assert (start.kind, startup.kind, startup.ms, startup.bitrate_kbps) == ("start", "startup", 1180, 2800)
    assert start.viewer_session == "anon-beacons-1" and start.event_id == event_id and start.received_ms > 0


async def test_a_signed_in_viewers_beacons_carry_their_session_not_their_account(client, database, event_id):
    viewer = await sign_up(client)
    view = new_view()
    assert (await post(client, [beacon(view, "start", event_id)], viewer["headers"])).status_code == 202
    [row] = await stored(database, view)
    assert row.viewer_session not in ("anon-beacons-1", viewer["profile"]["userId"])
    assert len(row.viewer_session) >= 8


async def test_a_token_that_does_not_verify_is_refused_not_anonymous(client, database, event_id):
    view = new_view()
    answer = await post(client, [beacon(view, "start", event_id)], bearer("not-a-token"))
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"
    assert await stored(database, view) == []


async def test_an_unknown_event_is_refused_and_nothing_is_stored(client, database, event_id):
    view = new_view()
    answer = await post(client, [beacon(view, "start", event_id), beacon(new_view(), "start", "f" * 24)])
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"
    assert "ffffffff" in answer.json()["message"]
    assert await stored(database, view) == []


async def test_a_view_of_two_events_and_a_batch_of_five_views_are_refused(client, event_id, database, admin):  # noqa: F811
    other = (await staff_event(client, database, admin["headers"], title="Other FC vs QoE United"))["_id"]
    view = new_view()
    answer = await post(client, [beacon(view, "start", event_id), beacon(view, "exit", other)])
    assert answer.status_code == 400 and "same event" in answer.json()["message"]
    answer = await post(client, [beacon(new_view(), "start", event_id) for _ in range(5)])
    assert answer.status_code == 400 and "at most 4 views" in answer.json()["message"]


async def test_bounds_of_the_contract_refuse_out_of_range_values(client, event_id):
    view = new_view()
    for bad in ({"ms": -1}, {"ms": 86_400_001}, {"type": "buffering"}, {"rendition": "720p<script>"}):
        answer = await post(client, [beacon(view, "startup", event_id, **bad)])
        assert answer.status_code == 400, (bad, answer.text)
        assert answer.json()["error"] is True


async def test_one_view_past_its_budget_gets_429_with_retry_after(client, event_id, settings):
    view = new_view("budget")
    for _ in range(settings.qoe_batches_per_view):
        assert (await post(client, [beacon(view, "watched", event_id, ms=10_000)])).status_code == 202
    refused = await post(client, [beacon(view, "watched", event_id, ms=10_000)])
    assert refused.status_code == 429 and refused.json()["messageErrorCode"] == "too_many_requests"
    assert 1 <= int(refused.headers["Retry-After"]) <= settings.qoe_batch_window
    # Another view of the same browser still reports.
    assert (await post(client, [beacon(new_view(), "start", event_id)])).status_code == 202
