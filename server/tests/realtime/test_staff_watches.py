"""`watch-room` follows the account's role now, not the access token's (issue 26 §6): a support
account demoted while its token still says `support` can no longer watch, and its watches that
are running end at once, so it hears no more of a viewer's private room (`remove-user-device`).

Accounts are made and demoted through the API (the `client` fixture), whose announcements reach
this module's socket server (the process-wide emitter is bound to it), on SQLite and PostgreSQL.
"""

import asyncio

import pytest
import pytest_asyncio
from sqlalchemy import update

from server.models import User
from server.realtime import emitter
from server.realtime.socket import WATCH_FORBIDDEN
from server.tests.accounts import create_user, sign_in, sign_up
from server.tests.realtime.test_session_sockets import AT_ONCE_S, Watched, members, socket_server
from server.tests.realtime.test_socket import TIMEOUT_S, ask, open_client

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def server(settings, database):
    async with socket_server(settings, database) as (sio, url):
        previous = emitter.default._target
        emitter.bind(sio)
        try:
            yield sio, url
        finally:
            emitter.bind(previous)


async def staff_account(client, database, role: str) -> dict:
    answer = await sign_in(client, await create_user(database, role=role))
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    return {
        "userId": content["profile"]["userId"],
        "headers": {"Authorization": f"Bearer {content['tokenData']['access_token']}"},
    }


async def demote(client, admin: dict, user_id: str, role: str = "viewer") -> None:
    answer = await client.post(f"/api/admin/users/{user_id}/role", json={"role": role}, headers=admin["headers"])
    assert answer.status_code == 200, answer.text


def token_of(account: dict) -> str:
    return account["headers"]["Authorization"].removeprefix("Bearer ")


async def test_a_demoted_support_account_watching_a_private_room_stops_receiving_it(client, database, server):
    sio, url = server
    admin, support = await staff_account(client, database, "admin"), await staff_account(client, database, "support")
    viewer = await sign_up(client)
    room = f"user:{viewer['profile']['userId']}"
    watching = Watched(await open_client(url, token=token_of(support)))
    assert (await ask(watching.client, "watch-room", {"room": room}))["ok"] is True

    await demote(client, admin, support["userId"])

    await watching.disconnected_within(AT_ONCE_S)
    assert members(sio, room) == 0
    await emitter.emit_remove_user_device(viewer["profile"]["userId"], viewer["device_id"])
    with pytest.raises(asyncio.TimeoutError):
        await watching.inbox.next()


async def test_watch_room_asks_for_the_role_now_not_the_tokens(client, database, server):
    _sio, url = server
    admin, support = await staff_account(client, database, "admin"), await staff_account(client, database, "support")
    viewer = await sign_up(client)
    connection = await open_client(url, token=token_of(support))  # its token says support...
    try:
        await demote(client, admin, support["userId"])  # ...for minutes after this

        ack = await ask(connection, "watch-room", {"room": f"user:{viewer['profile']['userId']}"})

        assert ack == {"ok": False, "messageErrorCode": "forbidden", "message": WATCH_FORBIDDEN}
    finally:
        await connection.disconnect()


async def test_an_admin_made_support_keeps_watching(client, database, server):
    _sio, url = server
    admin, other = await staff_account(client, database, "admin"), await staff_account(client, database, "admin")
    viewer = await sign_up(client)
    watching = Watched(await open_client(url, token=token_of(other)))
    room = f"user:{viewer['profile']['userId']}"
    assert (await ask(watching.client, "watch-room", {"room": room}))["ok"] is True

    await demote(client, admin, other["userId"], role="support")  # still staff: still allowed to watch

    await emitter.emit_remove_user_device(viewer["profile"]["userId"], viewer["device_id"])
    assert (await asyncio.wait_for(watching.inbox.next(), TIMEOUT_S))[0] == "remove-user-device"
    assert watching.client.connected
    await watching.client.disconnect()


async def test_a_process_that_heard_nothing_ends_the_watch_on_its_next_sweep(client, database, settings):
    """No Redis message reached it (Redis down, or the role changed in the database directly)."""
    support, viewer = await staff_account(client, database, "support"), await sign_up(client)
    async with socket_server(settings, database, sweep=0.2) as (sio, url):
        watching = Watched(await open_client(url, token=token_of(support)))
        room = f"user:{viewer['profile']['userId']}"
        assert (await ask(watching.client, "watch-room", {"room": room}))["ok"] is True
        async with database.session() as db:
            await db.execute(update(User).where(User.id == support["userId"]).values(role="viewer"))
            await db.commit()

        await watching.disconnected_within(TIMEOUT_S)
        assert members(sio, room) == 0
