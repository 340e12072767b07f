"""Go-live alerts: when an event goes live, each follower of one of its teams, its league or its
category hears `followed-event-live` once, and those who opted in get one mail, unless its page
is open in their browser (server.services.live_alerts, server.realtime.live_alerts). Two
processes at once, and the job taking over from a process that died, still tell each viewer once:
the cluster test (test_cluster.py) runs it across two real server processes."""

import asyncio
from datetime import timedelta
from types import SimpleNamespace

import pytest
import pytest_asyncio
from sqlalchemy import delete, func, select

from server import clock
from server.models import Follow, LiveAlert, LiveAlertDelivery, OutboxMail, User, new_id
from server.realtime import census
from server.realtime.live_alerts import LiveAlerts
from server.realtime.live_alerts import default as alerts
from server.services import live_alerts
from server.tests.accounts import sign_up
from server.tests.calendars import follow
from server.tests.mailbox import mails_to, recording_socket, staff_headers
from server.tests.staff_events import staff_event

pytestmark = pytest.mark.asyncio(loop_scope="session")

GONE_LIVE = "followed-event-live"


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


@pytest_asyncio.fixture(loop_scope="session")
async def bound(database, settings):
    """This test process fans out as a serving process does (its app binds it at start-up)."""
    alerts.bind(database, settings, None)
    yield alerts
    await alerts.stop()


async def mariners_match(client, database, staff, catalogue, title: str = "Harbor City Mariners vs Riverside Rovers"):
    """An upcoming Northern Premier Division match of the Mariners against the Rovers."""
    return await staff_event(
        client,
        database,
        staff,
        title=title,
        homeTeamId=catalogue["mariners"],
        awayTeamId=catalogue["rovers"],
        identities=[catalogue["npd"], catalogue["football"]],
    )


async def go_live(client, staff, event_id: str) -> None:
    answer = await client.post(f"/api/admin/events/{event_id}/go_live", headers=staff)
    assert answer.status_code == 200, answer.text


async def set_options(client, user, **options) -> None:
    answer = await client.post("/api/user/update_profile", json={"data": {"options": options}}, headers=user["headers"])
    assert answer.status_code == 200, answer.text


def alerts_for(socket, event_id: str) -> dict[str, list[dict]]:
    """user id -> the followed-event-live messages of `event_id` sent to their room."""
    told: dict[str, list[dict]] = {}
    for name, data, room in socket.sent:
        if name == GONE_LIVE and data["eventId"] == event_id:
            told.setdefault(room.removeprefix("user:"), []).append(data)
    return told


@pytest.mark.parametrize(
    ("kind", "followed"),
    [("team", "rovers"), ("identity_item", "npd"), ("identity", "football")],  # a team, a league, a category
)
async def test_a_follower_of_a_team_league_or_category_hears_once_that_its_event_went_live(
    client, database, staff, catalogue, bound, kind, followed
):
    match = await mariners_match(client, database, staff, catalogue)
    fan, stranger = await sign_up(client), await sign_up(client)
    await follow(client, fan, kind, catalogue[followed])
    await follow(client, stranger, "team", catalogue["tigers"])  # basketball: not this match
    with recording_socket() as socket:
        await go_live(client, staff, match["_id"])
        await bound.drain()
    told = alerts_for(socket, match["_id"])
    assert told[fan["profile"]["userId"]] == [
        {
            "eventId": match["_id"],
            "title": match["title"],
            "wentLiveAt": told[fan["profile"]["userId"]][0]["wentLiveAt"],
        }
    ]
    assert stranger["profile"]["userId"] not in told


async def test_a_viewer_following_both_teams_and_the_league_hears_once(client, database, staff, catalogue, bound):
    match = await mariners_match(client, database, staff, catalogue)
    fan = await sign_up(client)
    for kind, name in (("team", "mariners"), ("team", "rovers"), ("identity_item", "npd")):
        await follow(client, fan, kind, catalogue[name])
    with recording_socket() as socket:
        await go_live(client, staff, match["_id"])
        await bound.drain()
    assert len(alerts_for(socket, match["_id"])[fan["profile"]["userId"]]) == 1


async def test_only_viewers_who_opted_in_get_a_mail_and_only_one(client, database, staff, catalogue, bound):
    match = await mariners_match(client, database, staff, catalogue)
    mailed, quiet = await sign_up(client), await sign_up(client)
    await set_options(client, mailed, liveAlertMail=True)
    for fan in (mailed, quiet):
        await follow(client, fan, "team", catalogue["mariners"])
    with recording_socket():
        await go_live(client, staff, match["_id"])
        await bound.drain()
        await bound.send(match["_id"])  # again: nothing is due any more
    [mail] = await mails_to(database, mailed["email"], "live_alert")
    assert match["title"] in mail.subject and f"/events/{match['_id']}" in mail.text
    assert await mails_to(database, quiet["email"], "live_alert") == []


async def test_a_viewer_with_the_events_page_open_gets_the_toast_but_no_mail(
    client, database, settings, staff, catalogue
):
    match = await mariners_match(client, database, staff, catalogue)
    watcher = await sign_up(client)
    await set_options(client, watcher, liveAlertMail=True)
    await follow(client, watcher, "team", catalogue["mariners"])
    # A socket of theirs is in the event's room (server.realtime.socket puts it in this room too).
    on_the_page = {census.WATCHING_PREFIX + f"{match['_id']}:{watcher['profile']['userId']}": {"sid"}}
    sio = SimpleNamespace(manager=SimpleNamespace(rooms={census.NAMESPACE: on_the_page}))
    alerts.bind(database, settings, sio)
    try:
        with recording_socket() as socket:
            await go_live(client, staff, match["_id"])
            await alerts.drain()
    finally:
        await alerts.stop()
    assert len(alerts_for(socket, match["_id"])[watcher["profile"]["userId"]]) == 1
    assert await mails_to(database, watcher["email"], "live_alert") == []


async def test_a_spoiler_free_viewer_hears_the_title_without_its_score(client, database, staff, catalogue, bound):
    match = await mariners_match(client, database, staff, catalogue, title="Rematch of Mariners 3-1 Rovers")
    spoiler_free, open_minded = await sign_up(client), await sign_up(client)
    await set_options(client, spoiler_free, spoilerFree=True, liveAlertMail=True)
    await set_options(client, open_minded, liveAlertMail=True)
    for fan in (spoiler_free, open_minded):
        await follow(client, fan, "team", catalogue["rovers"])
    with recording_socket() as socket:
        await go_live(client, staff, match["_id"])
        await bound.drain()
    told = alerts_for(socket, match["_id"])
    assert told[spoiler_free["profile"]["userId"]][0]["title"] == "Rematch of Mariners vs Rovers"
    assert told[open_minded["profile"]["userId"]][0]["title"] == match["title"]
    [mail] = await mails_to(database, spoiler_free["email"], "live_alert")
    assert "3-1" not in mail.subject and "3-1" not in mail.text


async def test_an_unconfirmed_address_gets_no_alert_mail(client, database, staff, catalogue, bound):
    match = await mariners_match(client, database, staff, catalogue)
    fan = await sign_up(client)
    await set_options(client, fan, liveAlertMail=True)
    await follow(client, fan, "team", catalogue["mariners"])
    async with database.session() as db:
        (await db.get(User, fan["profile"]["userId"])).email_verified_at = None
        await db.commit()
    with recording_socket() as socket:
        await go_live(client, staff, match["_id"])
        await bound.drain()
    assert fan["profile"]["userId"] in alerts_for(socket, match["_id"])
    assert await mails_to(database, fan["email"], "live_alert") == []


async def test_an_alert_its_process_never_sent_is_sent_by_the_job_once(
    client, database, settings, staff, catalogue, bound
):
    match = await mariners_match(client, database, staff, catalogue)
    fan = await sign_up(client)
    await set_options(client, fan, liveAlertMail=True)
    await follow(client, fan, "team", catalogue["mariners"])
    await bound.stop()  # the deciding process dies right after its commit
    await go_live(client, staff, match["_id"])
    bound.bind(database, settings, None)  # the process whose job round comes next
    with recording_socket() as socket:
        await bound.send_unsent()
        assert fan["profile"]["userId"] not in alerts_for(socket, match["_id"])  # its process may still send it
        clock.advance(timedelta(seconds=live_alerts.TAKE_OVER_AFTER_SECONDS + 1))
        await bound.send_unsent()
        await bound.send_unsent()
    assert len(alerts_for(socket, match["_id"])[fan["profile"]["userId"]]) == 1
    assert len(await mails_to(database, fan["email"], "live_alert")) == 1


@pytest_asyncio.fixture(loop_scope="session")
async def crowd(database, catalogue):
    """make(count): `count` opted-in accounts following the Rovers, written at once (signing them
    up through the API would take minutes); removed after the test with their mail."""
    made: list[str] = []

    async def make(count: int) -> list[str]:
        made.extend(await many_followers(database, catalogue, count))
        return made

    yield make
    async with database.session() as db:
        await db.execute(delete(OutboxMail).where(OutboxMail.to_address.in_([f"{i}@fans.example" for i in made])))
        await db.execute(delete(User).where(User.id.in_(made)))
        await db.commit()


async def many_followers(database, catalogue, count: int) -> list[str]:
    """`count` accounts following the Rovers, written at once (the API would take minutes)."""
    ids = [new_id() for _ in range(count)]
    async with database.session() as db:
        for user_id in ids:
            db.add(
                User(
                    id=user_id,
                    email=f"{user_id}@fans.example",
                    display_name="Fan",
                    role="viewer",
                    club_list=[],
                    options={"liveAlertMail": True},
                    email_verified_at=clock.now(),
                )
            )
        await db.flush()
        for user_id in ids:
            db.add(Follow(user_id=user_id, type="team", reference_id=catalogue["rovers"], created=clock.now()))
        await db.commit()
    return ids


async def test_two_processes_fanning_out_at_once_tell_and_mail_each_follower_once(
    client, database, settings, staff, catalogue, crowd
):
    match = await mariners_match(client, database, staff, catalogue)
    fans = await crowd(live_alerts.BATCH * 2 + 17)  # three batches
    await go_live(client, staff, match["_id"])  # nothing bound: nobody sent it yet
    one, other = LiveAlerts(), LiveAlerts()
    one.bind(database, settings, None)
    other.bind(database, settings, None)
    with recording_socket() as socket:
        reports = await asyncio.gather(one.send(match["_id"]), other.send(match["_id"]))
    told = alerts_for(socket, match["_id"])
    assert set(fans) <= set(told)  # (with the followers earlier tests signed up)
    assert all(len(messages) == 1 for messages in told.values())
    assert sum(report.told for report in reports) == len(told)
    async with database.session() as db:
        mails = await db.scalar(
            select(func.count())
            .select_from(LiveAlertDelivery)
            .where(LiveAlertDelivery.event_id == match["_id"], LiveAlertDelivery.mailed.is_(True))
        )
        sent = await db.scalar(select(LiveAlert.sent_at).where(LiveAlert.event_id == match["_id"]))
    assert mails >= len(fans) and sent is not None
    for fan in fans[:: live_alerts.BATCH // 4]:
        assert len(await mails_to(database, f"{fan}@fans.example", "live_alert")) == 1


async def test_an_event_nobody_follows_goes_live_and_its_alert_is_done(client, database, staff, catalogue, bound):
    match = await staff_event(client, database, staff, title="Unfollowed friendly")
    with recording_socket() as socket:
        await go_live(client, staff, match["_id"])
        await bound.drain()
    assert alerts_for(socket, match["_id"]) == {}
    assert not await live_alerts.is_due(database, match["_id"])


async def test_alerts_sent_a_week_ago_are_deleted_with_their_deliveries(client, database, staff, catalogue, bound):
    match = await mariners_match(client, database, staff, catalogue)
    fan = await sign_up(client)
    await follow(client, fan, "team", catalogue["mariners"])
    with recording_socket():
        await go_live(client, staff, match["_id"])
        await bound.drain()
    clock.advance(timedelta(days=live_alerts.KEEP_SENT_DAYS, seconds=1))
    await live_alerts.purge_sent(database)
    async with database.session() as db:
        left = await db.scalar(
            select(func.count()).select_from(LiveAlertDelivery).where(LiveAlertDelivery.event_id == match["_id"])
        )
        assert left == 0
        assert await db.get(LiveAlert, match["_id"]) is None
