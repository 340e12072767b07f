"""How soon the API refuses the token of an ended session (server.auth.standing): at once on the
process that ended it or heard of it, within STANDING_SECONDS on one that heard nothing, and at
once for staff operations, which always ask the database."""

from datetime import timedelta

from sqlalchemy import update

from server import clock
from server.auth import standing
from server.models import User
from server.services import sessions
from server.tests.accounts import sign_up
from server.tests.mailbox import staff_headers
from server.tests.session_endings import count_standing_questions, session_of


async def profile_status(client, headers) -> int:
    return (await client.get("/api/user/get_profile", headers=headers)).status_code


async def test_a_logout_on_this_process_refuses_the_token_at_once(client):
    fan = await sign_up(client)
    assert await profile_status(client, fan["headers"]) == 200
    assert (await client.post("/api/user/logout", headers=fan["headers"])).status_code == 200
    assert await profile_status(client, fan["headers"]) == 401


async def test_a_session_ended_elsewhere_unheard_is_refused_within_the_standing_seconds(client, database):
    fan = await sign_up(client)
    assert await profile_status(client, fan["headers"]) == 200  # believed from now on
    async with database.session() as db:  # another process ended it and this one was not told
        await sessions.revoke_session(db, session_of(fan), reason="logout")
        await db.commit()
    assert standing.STANDING_SECONDS <= 2
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS))
    answer = await client.get("/api/user/get_profile", headers=fan["headers"])
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


async def test_a_session_ended_elsewhere_and_heard_of_is_refused_at_once(client, database):
    fan = await sign_up(client)
    assert await profile_status(client, fan["headers"]) == 200
    async with database.session() as db:
        await sessions.revoke_session(db, session_of(fan), reason="logout")
        await db.commit()
    standing.default.ended([session_of(fan)])  # what hearing the session room close does
    assert await profile_status(client, fan["headers"]) == 401


async def test_a_standing_session_is_asked_of_the_database_once_per_standing_period(client, monkeypatch):
    fan = await sign_up(client)
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS))
    asked = count_standing_questions(monkeypatch)
    for _ in range(5):
        assert await profile_status(client, fan["headers"]) == 200
    assert asked == [session_of(fan)]


async def test_a_demoted_staff_account_loses_admin_operations_at_once(client, database, settings):
    headers = await staff_headers(client, database, settings)
    assert (await client.get("/api/admin/users?q=fan", headers=headers)).status_code == 200
    profile = (await client.get("/api/user/get_profile", headers=headers)).json()["content"]
    async with database.session() as db:
        await db.execute(update(User).where(User.id == profile["userId"]).values(role="viewer"))
        await db.commit()
    answer = await client.get("/api/admin/users?q=fan", headers=headers)
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


async def test_sessions_in_use_are_confirmed_in_one_batch_ahead_of_their_belief_running_out(
    client, database, monkeypatch
):
    fans = [await sign_up(client) for _ in range(3)]
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS))
    for fan in fans:  # believed from now on, and in use
        assert await profile_status(client, fan["headers"]) == 200
        assert await profile_status(client, fan["headers"]) == 200
    async with database.session() as db:  # one of them ends elsewhere, unheard
        await sessions.revoke_session(db, session_of(fans[0]), reason="logout")
        await db.commit()
    asked = count_standing_questions(monkeypatch)
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS * 0.6))
    confirmed = await standing.default.confirm_due(database, within=standing.STANDING_SECONDS)
    assert {session_of(fan) for fan in fans} <= set(confirmed)
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS * 0.6))  # past the first belief's end
    assert await profile_status(client, fans[0]["headers"]) == 401  # forgotten as ended
    assert [await profile_status(client, fan["headers"]) for fan in fans[1:]] == [200, 200]
    assert asked == []  # nobody had to ask on their own


async def test_a_session_not_used_since_it_was_confirmed_is_not_asked_about_again(client, database):
    fan = await sign_up(client)
    clock.advance(timedelta(seconds=standing.STANDING_SECONDS))
    assert await profile_status(client, fan["headers"]) == 200  # a fresh belief, not yet used again
    confirmed = await standing.default.confirm_due(database, within=standing.STANDING_SECONDS)
    assert session_of(fan) not in confirmed
