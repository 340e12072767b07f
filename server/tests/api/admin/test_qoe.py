"""GET /admin/events/{id}/qoe: staff read an event's QoE over a period, with its ingest beside
it; beacons posted by players are what it counts."""

from datetime import timedelta

import pytest

from server import clock
from server.tests.accounts import sign_up
from server.tests.qoe_beacons import beacon, new_view
from server.tests.staff_events import staff_event

from .test_roles_keys_audit import admin, support  # noqa: F401 (fixtures)

pytestmark = pytest.mark.asyncio(loop_scope="session")


def wire(instant) -> str:
    return instant.isoformat().replace("+00:00", "Z")


async def qoe(client, headers, event_id: str, **params):
    return await client.get(f"/api/admin/events/{event_id}/qoe", params=params, headers=headers)


async def test_support_reads_the_figures_of_the_beacons_players_sent(client, database, admin, support):  # noqa: F811
    event_id = (await staff_event(client, database, admin["headers"], title="Figures FC vs Beacon Rovers"))["_id"]
    view, failed = new_view(), new_view()
    batch = [
        beacon(view, "start", event_id),
        beacon(view, "startup", event_id, ms=1_500, bitrateKbps=2_800),
        beacon(view, "rebuffer", event_id, ms=500),
        beacon(view, "watched", event_id, ms=9_500, bitrateKbps=2_800),
        beacon(failed, "start", event_id),
        beacon(failed, "error", event_id, code="forbidden", fatal=True, business=True),
    ]
    sent = await client.post("/api/qoe/beacons", json={"anonymousId": "figures-browser", "beacons": batch})
    assert sent.status_code == 202, sent.text
    answer = await qoe(client, support["headers"], event_id)
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    assert content["event"] == event_id and content["status"] == "upcoming" and content["ingest"] == "idle"
    assert (content["plays"], content["uniqueViewers"]) == (2, 1)
    assert content["startFailures"] == {"technical": 0, "business": 1}
    assert content["startupMs"] == {"p50": 1_500, "p95": 1_500}
    assert content["rebufferingRatio"] == pytest.approx(0.05)
    assert (content["watchedSeconds"], content["rebufferSeconds"]) == (9.5, 0.5)
    assert content["averageBitrateKbps"] == 2_800 and content["concurrentViewers"] == 1
    assert content["alerts"] == {"rebuffering": False, "startFailures": False}  # too few plays
    assert content["series"]["stepSeconds"] == 60 and len(content["series"]["points"]) == 120
    assert sum(p["viewers"] for p in content["series"]["points"]) == 2


async def test_a_period_is_asked_for_with_since_and_until(client, database, admin):  # noqa: F811
    event_id = (await staff_event(client, database, admin["headers"]))["_id"]
    now = clock.now().replace(microsecond=0)
    answer = await qoe(client, admin["headers"], event_id, since=wire(now - timedelta(minutes=10)), until=wire(now))
    content = answer.json()["content"]
    assert (content["since"], content["plays"], content["series"]["stepSeconds"]) == (
        wire(now - timedelta(minutes=10)),
        0,
        10,
    )
    for params, words in (
        ({"since": wire(now), "until": wire(now - timedelta(minutes=1))}, "before until"),
        ({"since": wire(now - timedelta(days=8)), "until": wire(now)}, "seven days"),
        ({"since": "yesterday"}, "since"),
    ):
        refused = await qoe(client, admin["headers"], event_id, **params)
        assert refused.status_code == 400 and refused.json()["messageErrorCode"] == "validation_error", refused.text
        assert words in refused.json()["message"]


async def test_viewers_may_not_read_it_and_an_unknown_event_is_404(client, support):  # noqa: F811
    viewer = await sign_up(client)
    refused = await qoe(client, viewer["headers"], "f" * 24)
    assert refused.status_code == 403 and refused.json()["messageErrorCode"] == "forbidden_role"
    missing = await qoe(client, support["headers"], "f" * 24)
    assert missing.status_code == 404 and missing.json()["messageErrorCode"] == "event_not_found"


async def test_the_first_instant_there_is_gives_a_clear_error_not_a_crash(client, database, admin):  # noqa: F811
    event_id = (await staff_event(client, database, admin["headers"]))["_id"]
    refused = await qoe(client, admin["headers"], event_id, until="0001-01-01T00:00:00Z")
    assert refused.status_code == 400 and "since" in refused.json()["message"]
