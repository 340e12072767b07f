"""Events staff make through the API in tests (removed after each test, server.tests.commerce.CREATED)."""

from datetime import timedelta

from server import clock

from .commerce import CREATED


def soon(**delta) -> str:
    return (clock.now() + timedelta(**delta)).replace(microsecond=0).isoformat().replace("+00:00", "Z")


async def staff_event(client, database, staff, **fields) -> dict:
    body = {
        "title": "Harbor City Mariners vs Riverside Rovers",
        "event_date": soon(days=1),
        "sportType": "football",
        **fields,
    }
    answer = await client.post("/api/admin/events", json=body, headers=staff)
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    CREATED.append((database, content["_id"]))
    return content
