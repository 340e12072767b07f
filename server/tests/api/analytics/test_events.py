"""POST /analytics/events: identify and track batches, anonymous or a signed-in viewer's."""

from sqlalchemy import select

from server.models import AnalyticsEvent
from server.tests.accounts import bearer, sign_up


def event(name: str = "login_failed", **extra) -> dict:
    return {
        "type": "track",
        "name": name,
        "tenant": "touchline",
        "anonymousId": "anon-1234567890",
        "timestamp": "2026-11-24T18:00:00Z",
        "properties": {"code": "invalid_credentials", "message": "Wrong e-mail address or password"},
        **extra,
    }


async def stored(database, name: str) -> list[AnalyticsEvent]:
    async with database.session() as db:
        return list(await db.scalars(select(AnalyticsEvent).where(AnalyticsEvent.name == name)))


async def test_an_anonymous_batch_is_stored_with_its_tenant(client, database):
    batch = [event("anon_track_a"), event("identify", type="identify", properties={"locale": "he"})]
    response = await client.post("/api/analytics/events", json={"events": batch})
    assert response.status_code == 202, response.text
    assert response.json() == {"content": {"accepted": 2}, "error": False, "message": ""}
    [row] = await stored(database, "anon_track_a")
    assert row.kind == "track" and row.tenant == "touchline" and row.user_id is None
    assert row.properties == {"code": "invalid_credentials", "message": "Wrong e-mail address or password"}
    assert row.occurred.isoformat() == "2026-11-24T18:00:00+00:00" and row.received is not None


async def test_a_signed_in_viewers_events_are_theirs(client, database):
    user = await sign_up(client)
    response = await client.post(
        "/api/analytics/events", json={"events": [event("viewer_track")]}, headers=user["headers"]
    )
    assert response.status_code == 202, response.text
    [row] = await stored(database, "viewer_track")
    assert row.user_id == user["profile"]["userId"]


async def test_a_token_that_does_not_verify_is_refused_not_anonymous(client, database):
    response = await client.post(
        "/api/analytics/events", json={"events": [event("forged_track")]}, headers=bearer("not-a-token")
    )
    assert response.status_code == 401 and response.json()["messageErrorCode"] == "unauthorized"
    user = await sign_up(client)
    assert (await client.post("/api/user/logout", headers=user["headers"])).status_code == 200
    response = await client.post(
        "/api/analytics/events", json={"events": [event("forged_track")]}, headers=user["headers"]
    )
    assert response.status_code == 401
    assert await stored(database, "forged_track") == []


async def test_batches_are_bounded_and_validated(client, database):
    async def refused(body) -> None:
        response = await client.post("/api/analytics/events", json=body)
        assert response.status_code == 400, response.text
        assert response.json()["messageErrorCode"] == "validation_error"

    await refused({"events": []})
    await refused({"events": [event("too_many")] * 51})
    await refused({"events": [event(type="page")]})
    await refused({"events": [event(tenant="Not A Tenant")]})
    await refused({"events": [event(anonymousId="x")]})
    await refused({"events": [event(properties={f"p{n}": n for n in range(21)})]})
    await refused({"events": [event(properties={"nested": {"a": 1}})]})
    await refused({"events": [event(properties={"bad name!": 1})]})
    await refused({"events": [event(timestamp="yesterday")]})
    await refused({"events": [{**event(), "userId": "someone-else"}]})
    # All or nothing: one bad event refuses the batch.
    await refused({"events": [event("half_batch"), event("half_batch", properties={"bad name!": 1})]})
    assert await stored(database, "half_batch") == []
    ok = await client.post("/api/analytics/events", json={"events": [event("fifty")] * 50})
    assert ok.status_code == 202 and ok.json()["content"]["accepted"] == 50
