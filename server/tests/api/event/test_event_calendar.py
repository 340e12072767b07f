"""An event's own calendar file: the "Add to calendar" download of its page."""

import pytest
import pytest_asyncio

from server.tests.calendars import entries, parsed, uid_of
from server.tests.mailbox import staff_headers
from server.tests.staff_events import staff_event

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOBODY = "f" * 24


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


async def test_an_events_calendar_file_parses_and_comes_as_an_attachment(client, database, settings, staff, catalogue):
    event = await staff_event(
        client,
        database,
        staff,
        reference_id="mariners-rovers-derby",
        homeTeamId=catalogue["mariners"],
        awayTeamId=catalogue["rovers"],
        identities=[catalogue["npd"], catalogue["football"]],
    )
    answer = await client.get(f"/api/event/calendar/{event['_id']}.ics")
    document = parsed(answer)
    assert answer.headers["content-disposition"] == 'attachment; filename="mariners-rovers-derby.ics"'
    assert document["METHOD"] == "PUBLISH" and document["VERSION"] == "2.0"
    [entry] = entries(document).values()
    assert str(entry["uid"]) == uid_of(settings, event["_id"])
    assert str(entry["summary"]) == event["title"]
    assert str(entry["description"]).startswith("Northern Premier Division\n")


async def test_an_archived_events_file_hides_the_score_when_asked(client, database, staff):
    event = await staff_event(
        client, database, staff, title="Replay: Harbor City Mariners 2-0 Riverside Rovers", status="archived"
    )
    shown = entries(parsed(await client.get(f"/api/event/calendar/{event['_id']}.ics")))[event["_id"]]
    hidden_answer = await client.get(f"/api/event/calendar/{event['_id']}.ics", params={"spoilers": "hide"})
    hidden = entries(parsed(hidden_answer))[event["_id"]]
    assert "2-0" in str(shown["summary"]) and "2-0" not in hidden_answer.text
    assert str(hidden["summary"]) == "Replay: Harbor City Mariners vs Riverside Rovers"


async def test_an_unknown_event_has_no_calendar_file(client):
    answer = await client.get(f"/api/event/calendar/{NOBODY}.ics")
    assert answer.status_code == 404, answer.text
    assert answer.json()["messageErrorCode"] == "event_not_found"
