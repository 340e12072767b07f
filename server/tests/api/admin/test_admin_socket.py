"""POST /api/admin/socket/emit: staff send any server message of asyncapi/asyncapi.yaml to a room.

The API runs with a real socket server (served by uvicorn) so each accepted request is proven
by a websocket client receiving the message.
"""

import httpx
import pytest
import pytest_asyncio

from server.app import create_api
from server.realtime.socket import close_socket_server, create_socket_server, start_socket_server, token_authenticator
from server.tests.accounts import sign_up
from server.tests.conftest import with_state
from server.tests.mailbox import staff_headers
from server.tests.realtime.test_socket import Inbox, ask, open_client, serving, socket_settings

pytestmark = pytest.mark.asyncio(loop_scope="session")

EVENT = "e0e000000000000000000003"
MARKER = "e0e000000000000000000004"
STREAM = "/media/live/football.m3u8"
PATH = "/api/admin/socket/emit"


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def socket_server(settings):
    sio = create_socket_server(socket_settings(), authenticate=token_authenticator(settings.secret_key))
    try:
        await start_socket_server(sio)
        async with serving(sio) as url:
            yield sio, url
    finally:
        await close_socket_server(sio)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def api_client(settings, database, socket_server):
    api = create_api(settings)
    state = {"database": database, "settings": settings, "socket": socket_server[0]}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=with_state(api, state)), base_url="http://touchline.test"
    ) as http:
        yield http


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


@pytest_asyncio.fixture(loop_scope="session")
async def member(socket_server):
    """member(*event_ids, token=None) -> the inbox of a connection that joined those event rooms."""
    clients = []

    async def join(*event_ids: str, token: str | None = None, user_id: str | None = None) -> Inbox:
        client = await open_client(socket_server[1], token=token)
        clients.append(client)
        inbox = Inbox(client)
        for event_id in event_ids:
            assert (await ask(client, "join-event-room", {"eventId": event_id}))["ok"] is True
        if user_id:
            assert (await ask(client, "join-user-room", {"userId": user_id}))["ok"] is True
        return inbox

    yield join
    for client in clients:
        await client.disconnect()


async def test_staff_send_a_message_to_an_event_room_and_its_members_get_it(api_client, staff, member):
    inbox = await member(EVENT)
    answer = await api_client.post(
        PATH,
        headers=staff,
        json={"event": "event-url-change", "room": f"event:{EVENT}", "payload": {"eventUrl": STREAM}},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "content": {"event": "event-url-change", "room": f"event:{EVENT}", "manager": "in_process"},
        "error": False,
        "message": "",
    }
    # The event id the room names is filled in: the client keys its page by it.
    assert await inbox.next() == ("event-url-change", {"eventId": EVENT, "eventUrl": STREAM})


async def test_a_payload_that_names_its_room_id_itself_is_sent_as_it_is(api_client, staff, member):
    inbox = await member(EVENT)
    payload = {"eventId": EVENT, "status": "archived", "content": {"HLSStream": "/media/vod/football/index.m3u8"}}
    answer = await api_client.post(
        PATH, headers=staff, json={"event": "update-event", "room": f"event:{EVENT}", "payload": payload}
    )
    assert answer.status_code == 200, answer.text
    assert await inbox.next() == ("update-event", payload)


async def test_a_user_room_message_reaches_that_users_connections(client, api_client, staff, member):
    fan = await sign_up(client)
    user_id = fan["profile"]["userId"]
    inbox = await member(token=fan["tokenData"]["access_token"], user_id=user_id)
    answer = await api_client.post(
        PATH,
        headers=staff,
        json={
            "event": "remove-user-device",
            "room": f"user:{user_id}",
            "payload": {"deviceId": fan["device_id"], "messageErrorCode": "device_limit_exceeded"},
        },
    )
    assert answer.status_code == 200, answer.text
    assert await inbox.next() == (
        "remove-user-device",
        {"deviceId": fan["device_id"], "messageErrorCode": "device_limit_exceeded"},
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {
                "event": "event-url-change",
                "room": f"event:{EVENT}",
                "payload": {"eventUrl": "ftp://cdn.example/a.m3u8"},
            },
            "payload.eventUrl",
        ),
        ({"event": "update-event", "room": f"event:{EVENT}", "payload": {}}, "payload"),  # nothing changed
        (
            {"event": "user-purchase-status", "room": f"user:{EVENT}", "payload": {"status": "success"}},
            "payload.purchaseId",
        ),  # a required field is missing
        (
            {"event": "event-url-change", "room": f"user:{EVENT}", "payload": {"eventId": EVENT, "eventUrl": STREAM}},
            "room",
        ),  # an event message to a user room
        (
            {"event": "event-url-change", "room": f"event:{MARKER}", "payload": {"eventId": EVENT, "eventUrl": STREAM}},
            "room",
        ),  # to another event's room
    ],
    ids=["bad-url", "no-change", "missing-fields", "wrong-room-kind", "other-events-room"],
)
async def test_what_the_socket_contract_forbids_is_refused_with_the_offending_field(
    api_client, staff, member, body, field
):
    inbox = await member(EVENT, MARKER)
    answer = await api_client.post(PATH, headers=staff, json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()
    assert error["messageErrorCode"] == "validation_error"
    assert field in {detail["field"] for detail in error["details"]}
    # Nothing was sent: the next message the member gets is a later, valid one.
    await api_client.post(
        PATH, headers=staff, json={"event": "update-event", "room": f"event:{MARKER}", "payload": {"status": "live"}}
    )
    assert await inbox.next() == ("update-event", {"eventId": MARKER, "status": "live"})


@pytest.mark.parametrize(
    "body",
    [
        {"event": "join-event-room", "room": f"event:{EVENT}", "payload": {"eventId": EVENT}},  # a client message
        {"event": "event-url-change", "room": "event:not-an-id", "payload": {"eventUrl": STREAM}},
        {"event": "event-url-change", "room": f"event:{EVENT}"},
    ],
    ids=["client-message", "room-not-24-hex", "no-payload"],
)
async def test_a_request_outside_the_http_contract_is_refused(api_client, staff, body):
    answer = await api_client.post(PATH, headers=staff, json=body)
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"


async def test_without_a_token_the_answer_is_401(api_client):
    answer = await api_client.post(
        PATH, json={"event": "update-event", "room": f"event:{EVENT}", "payload": {"status": "live"}}
    )
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


async def test_a_viewer_gets_403(client, api_client):
    fan = await sign_up(client)
    answer = await api_client.post(
        PATH,
        headers=fan["headers"],
        json={"event": "update-event", "room": f"event:{EVENT}", "payload": {"status": "live"}},
    )
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


async def test_a_signed_out_staff_session_gets_401(client, api_client, database, settings):
    headers = await staff_headers(client, database, settings)
    await client.post("/api/user/logout", headers=headers)
    answer = await api_client.post(
        PATH, headers=headers, json={"event": "update-event", "room": f"event:{EVENT}", "payload": {"status": "live"}}
    )
    assert answer.status_code == 401
