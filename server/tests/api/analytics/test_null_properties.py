"""An analytics property may be null, as the webapp's collector sends it (openapi.yaml
AnalyticsEvent: a property is a string, a number, a boolean or null, nothing else)."""

from sqlalchemy import select

from server.models import AnalyticsEvent


def track(name: str, properties: dict) -> dict:
    return {
        "type": "track",
        "name": name,
        "tenant": "touchline",
        "anonymousId": "anon-nullable-1234",
        "timestamp": "2026-11-24T18:00:00Z",
        "properties": properties,
    }


async def test_a_null_property_is_accepted_and_stored_as_null(client, database):
    properties = {"plan": None, "step": 2, "skipped": True, "source": "banner"}
    response = await client.post("/api/analytics/events", json={"events": [track("null_property", properties)]})
    assert response.status_code == 202, response.text
    async with database.session() as db:
        [row] = await db.scalars(select(AnalyticsEvent).where(AnalyticsEvent.name == "null_property"))
    assert row.properties == properties


async def test_a_list_or_object_property_is_still_refused(client):
    for value in ([1, 2], {"nested": None}):
        body = {"events": [track("nested_property", {"items": value})]}
        response = await client.post("/api/analytics/events", json=body)
        assert response.status_code == 400, response.text
        assert response.json()["details"][0]["field"] == "events[0].properties.items"
