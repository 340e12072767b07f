"""A viewer's calendar feed: the events of what they follow, read by calendar apps (parsed here
with `icalendar`) through a secret address that can be replaced and revoked."""

from datetime import UTC, datetime, timedelta

import httpx
import icalendar
import pytest
import pytest_asyncio
from sqlalchemy import select, update

from server import clock
from server.app import create_api
from server.models import CalendarFeed, Event
from server.tests.accounts import sign_up
from server.tests.calendars import entries, follow, new_feed, path_of, read_feed, sequence_of, uid_of
from server.tests.conftest import with_state
from server.tests.mailbox import staff_headers
from server.tests.staff_events import soon, staff_event

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


@pytest.fixture
async def viewer(client):
    return await sign_up(client)


async def football_and_basketball(client, database, staff, catalogue, **when) -> tuple[dict, dict]:
    """An upcoming Northern Premier Division match of the Mariners (tomorrow, or `when`), and a
    basketball one."""
    football = await staff_event(
        client,
        database,
        staff,
        sportType="football",
        **when,
        homeTeamId=catalogue["mariners"],
        awayTeamId=catalogue["rovers"],
        identities=[catalogue["npd"], catalogue["football"]],
    )
    basketball = await staff_event(
        client,
        database,
        staff,
        title="Bayview Tigers vs Summit Bears",
        sportType="basketball",
        homeTeamId=catalogue["tigers"],
        awayTeamId=catalogue["bears"],
        identities=[catalogue["cbl"], catalogue["basketball"]],
    )
    return football, basketball


def assert_not_found(answer) -> None:
    assert answer.status_code == 404, answer.text
    body = answer.json()
    assert body["error"] is True and body["messageErrorCode"] == "feed_not_found" and body["message"]


@pytest.mark.parametrize(
    ("kind", "followed", "listed", "left_out"),
    [
        ("team", "mariners", "football", "basketball"),
        ("identity_item", "cbl", "basketball", "football"),  # a league
        ("identity", "football", "football", "basketball"),  # a category
    ],
)
async def test_the_feed_lists_the_upcoming_events_of_a_followed_team_league_or_category_and_no_others(
    client, database, settings, staff, catalogue, viewer, kind, followed, listed, left_out
):
    football, basketball = await football_and_basketball(client, database, staff, catalogue)
    made = {"football": football, "basketball": basketball}
    await follow(client, viewer, kind, catalogue[followed])
    document = await read_feed(client, await new_feed(client, viewer))
    for name in ("PRODID", "X-WR-CALNAME"):
        assert document[name]
    assert (document["VERSION"], document["CALSCALE"], document["METHOD"]) == ("2.0", "GREGORIAN", "PUBLISH")
    found = entries(document)
    assert made[listed]["_id"] in found
    assert made[left_out]["_id"] not in found
    entry = found[made[listed]["_id"]]
    page = f"{settings.base_url}/events/{made[listed]['_id']}"
    assert str(entry["uid"]) == uid_of(settings, made[listed]["_id"])
    assert str(entry["summary"]) == made[listed]["title"]
    assert str(entry["url"]) == page and page in str(entry["description"])
    assert str(entry["status"]) == "CONFIRMED" and sequence_of(entry) == 0
    start, end = entry.decoded("dtstart"), entry.decoded("dtend")
    assert start == datetime.fromisoformat(made[listed]["event_date"]) and start.utcoffset() == timedelta(0)
    assert end - start == timedelta(hours=2)  # neither an end nor a duration: two hours
    for name in ("DTSTAMP", "LAST-MODIFIED"):
        assert entry.decoded(name).utcoffset() == timedelta(0)


async def test_the_feed_answers_with_five_minutes_of_private_caching(client, viewer):
    answer = await client.get(path_of(await new_feed(client, viewer)))
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "private, max-age=300"
    assert not list(icalendar.Calendar.from_ical(answer.content).walk("VEVENT"))  # follows nothing


async def test_an_event_keeps_its_uid_on_every_read(client, database, settings, staff, catalogue, viewer):
    football, _ = await football_and_basketball(client, database, staff, catalogue)
    await follow(client, viewer, "team", catalogue["mariners"])
    url = await new_feed(client, viewer)
    first = entries(await read_feed(client, url))[football["_id"]]
    second = entries(await read_feed(client, url))[football["_id"]]
    assert str(first["uid"]) == str(second["uid"]) == uid_of(settings, football["_id"])


async def test_moving_the_kickoff_through_the_staff_api_increments_sequence_and_keeps_the_uid(
    client, database, staff, catalogue, viewer
):
    football, _ = await football_and_basketball(client, database, staff, catalogue)
    await follow(client, viewer, "team", catalogue["mariners"])
    url = await new_feed(client, viewer)
    before = entries(await read_feed(client, url))[football["_id"]]

    moved = soon(days=2, hours=3)
    answer = await client.patch(f"/api/admin/events/{football['_id']}", json={"event_date": moved}, headers=staff)
    assert answer.status_code == 200, answer.text
    after = entries(await read_feed(client, url))[football["_id"]]
    assert str(after["uid"]) == str(before["uid"])
    assert sequence_of(after) == sequence_of(before) + 1
    assert after.decoded("dtstart") == datetime.fromisoformat(moved)

    # A change that leaves the slot where it is (the title) is no reschedule.
    answer = await client.patch(
        f"/api/admin/events/{football['_id']}", json={"title": "Mariners at home"}, headers=staff
    )
    assert answer.status_code == 200, answer.text
    again = entries(await read_feed(client, url))[football["_id"]]
    assert sequence_of(again) == sequence_of(after) and str(again["summary"]) == "Mariners at home"


async def test_a_finished_event_stays_for_the_retention_window_then_leaves_the_feed(
    client, database, staff, catalogue, viewer, settings
):
    football, _ = await football_and_basketball(client, database, staff, catalogue, event_date=soon(minutes=-30))
    event_id = football["_id"]
    await follow(client, viewer, "team", catalogue["mariners"])
    url = await new_feed(client, viewer)
    for step in ("go_live", "finish"):
        answer = await client.post(f"/api/admin/events/{event_id}/{step}", headers=staff)
        assert answer.status_code == 200, answer.text
    finished = entries(await read_feed(client, url))[event_id]
    assert sequence_of(finished) == 1, "finishing it set its end: a new slot"

    clock.advance(timedelta(days=settings.calendar_retention_days) - timedelta(minutes=5))
    assert event_id in entries(await read_feed(client, url))
    clock.advance(timedelta(minutes=10))
    assert event_id not in entries(await read_feed(client, url))


async def test_a_title_with_a_comma_a_semicolon_and_a_newline_reads_back_unchanged(
    client, database, staff, catalogue, viewer
):
    football, _ = await football_and_basketball(client, database, staff, catalogue)
    # The staff API refuses a line break in a title; an imported one may still hold one.
    title = "Mariners, Rovers; the derby\nsecond leg — " + "a long title that calendar apps fold " * 3
    async with database.session() as db:
        await db.execute(update(Event).where(Event.id == football["_id"]).values(title=title))
        await db.commit()
    await follow(client, viewer, "team", catalogue["mariners"])
    answer = await client.get(path_of(await new_feed(client, viewer)))
    assert all(len(line) <= 75 for line in answer.content.split(b"\r\n")), "long lines are folded"
    entry = entries(icalendar.Calendar.from_ical(answer.content))[football["_id"]]
    assert str(entry["summary"]) == title


async def test_a_new_address_replaces_the_old_one(client, viewer):
    old = await new_feed(client, viewer)
    new = await new_feed(client, viewer)
    assert old != new
    assert_not_found(await client.get(path_of(old)))
    await read_feed(client, new)


async def test_a_revoked_feed_answers_404_and_revoking_none_is_harmless(client, viewer):
    url = await new_feed(client, viewer)
    for _ in range(2):
        answer = await client.post("/api/user/calendar_feed/revoke", headers=viewer["headers"])
        assert answer.status_code == 200 and answer.json()["content"] is None, answer.text
    assert_not_found(await client.get(path_of(url)))
    state = await client.get("/api/user/calendar_feed", headers=viewer["headers"])
    assert state.json()["content"] == {"active": False, "created": None}


async def test_an_unknown_secret_answers_the_404_envelope(client):
    assert_not_found(await client.get("/api/calendar/tlcal_nobody-has-this-secret.ics"))


async def test_the_feed_state_says_whether_it_works_and_never_shows_the_secret(client, settings, viewer):
    state = await client.get("/api/user/calendar_feed", headers=viewer["headers"])
    assert state.status_code == 200 and state.json()["content"] == {"active": False, "created": None}
    made = (await client.post("/api/user/calendar_feed", headers=viewer["headers"])).json()["content"]
    assert made["url"].startswith(f"{settings.base_url}/api/calendar/") and made["url"].endswith(".ics")
    state = (await client.get("/api/user/calendar_feed", headers=viewer["headers"])).json()["content"]
    assert state == {"active": True, "created": made["created"]}
    assert (await client.get("/api/user/calendar_feed")).status_code == 401


async def test_a_spoiler_free_viewer_reads_no_score(client, database, staff, catalogue, viewer):
    scored = await staff_event(
        client,
        database,
        staff,
        title="Replay: Harbor City Mariners 3-1 Riverside Rovers",
        homeTeamId=catalogue["mariners"],
        awayTeamId=catalogue["rovers"],
        identities=[catalogue["npd"], catalogue["football"]],
    )
    await follow(client, viewer, "team", catalogue["mariners"])
    url = await new_feed(client, viewer)
    assert "3-1" in str(entries(await read_feed(client, url))[scored["_id"]]["summary"])
    answer = await client.post(
        "/api/user/update_profile", json={"data": {"options": {"spoilerFree": True}}}, headers=viewer["headers"]
    )
    assert answer.status_code == 200, answer.text
    text = (await client.get(path_of(url))).text
    assert "3-1" not in text
    summary = str(entries(await read_feed(client, url))[scored["_id"]]["summary"])
    assert summary == "Replay: Harbor City Mariners vs Riverside Rovers"


async def test_the_secret_is_kept_only_as_a_hash_and_no_staff_answer_shows_it(client, database, staff, viewer):
    url = await new_feed(client, viewer)
    secret = url.rsplit("/", 1)[1].removesuffix(".ics")
    user_id = viewer["profile"]["userId"]
    async with database.session() as db:
        [row] = (await db.scalars(select(CalendarFeed).where(CalendarFeed.user_id == user_id))).all()
    assert secret not in row.secret_hash and len(row.secret_hash) == 64
    for path in ("", "/sessions", "/devices", "/follows"):
        answer = await client.get(f"/api/admin/users/{user_id}{path}", headers=staff)
        assert answer.status_code == 200, answer.text
        assert secret not in answer.text


async def test_deleting_the_account_deletes_its_feed(client, database, viewer):
    url = await new_feed(client, viewer)
    answer = await client.post("/api/user/delete_account", headers=viewer["headers"])
    assert answer.status_code == 200, answer.text
    assert_not_found(await client.get(path_of(url)))
    async with database.session() as db:
        assert await db.scalar(select(CalendarFeed).where(CalendarFeed.user_id == viewer["profile"]["userId"])) is None


async def test_reads_past_the_budget_of_a_client_address_get_429_with_retry_after(client, database, settings, viewer):
    limited = settings.model_copy(update={"calendar_reads_per_address": 3, "calendar_read_window": 60})
    app = with_state(create_api(limited), {"database": database, "settings": limited})
    url = await new_feed(client, viewer)
    transport = httpx.ASGITransport(app=app, client=(f"203.0.113.{datetime.now(UTC).microsecond % 250}", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as guesser:
        answers = [await guesser.get(path_of(url)) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 200]
        # Wrong secrets cost the same: the budget is spent whatever the secret.
        refused = await guesser.get("/api/calendar/tlcal_a-guess.ics")
        assert refused.status_code == 429, refused.text
        assert refused.json()["messageErrorCode"] == "too_many_requests"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert (await guesser.get(path_of(url))).status_code == 429
