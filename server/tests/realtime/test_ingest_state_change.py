"""Staff are told when an event's live input changes state (issue 28 §5): every change of a feed's
state (server/ingest/live_inputs.py, `Feed._set_state`) sends `ingest-state-change` to the event's
`ingest:<id>` room, which only staff enter (`watch-room`); viewers in the event's room hear
nothing of it, and a socket that cannot be reached never stops the feed."""

import asyncio

import pytest
import pytest_asyncio

from server.ingest import live_inputs
from server.media.sources.rtmp import RtmpIngest
from server.models import new_id
from server.realtime import emitter
from server.realtime.socket import WATCH_FORBIDDEN
from server.settings import Settings
from server.tests.accounts import sign_up
from server.tests.mailbox import recording_socket
from server.tests.realtime.test_session_sockets import socket_server
from server.tests.realtime.test_socket import ask, open_client
from server.tests.realtime.test_staff_watches import staff_account, token_of

pytestmark = pytest.mark.asyncio(loop_scope="session")


def a_feed(database=None, state: str = "reconnecting") -> live_inputs.Feed:
    """A feed of a new event that records into an asset of its own, in `state`."""
    inputs = live_inputs.LiveInputs(Settings(), database, RtmpIngest("127.0.0.1", 1935, "", ""))
    feed = live_inputs.Feed(inputs, new_id(), "a-stream")
    feed.asset_id, feed.state = new_id(), state
    return feed


async def test_a_feed_changing_state_tells_its_events_ingest_room_only():
    feed = a_feed(state="live")
    with recording_socket() as socket:
        await feed._set_state("reconnecting")
        await feed._set_state("interrupted")
    assert socket.sent == [
        (
            "ingest-state-change",
            {"eventId": feed.event_id, "state": "reconnecting", "previous": "live", "assetId": feed.asset_id},
            f"ingest:{feed.event_id}",
        ),
        (
            "ingest-state-change",
            {"eventId": feed.event_id, "state": "interrupted", "previous": "reconnecting", "assetId": feed.asset_id},
            f"ingest:{feed.event_id}",
        ),
    ]
    assert feed.state == "interrupted"


async def test_the_state_it_is_in_already_tells_nobody():
    feed = a_feed(state="live")
    with recording_socket() as socket:
        await feed._set_state("live")
    assert socket.sent == []


async def test_a_socket_that_cannot_be_reached_never_stops_the_feed(caplog):
    feed = a_feed(state="live")
    with recording_socket() as socket:
        socket.fail = True
        await feed._set_state("finished")
    assert feed.state == "finished"
    assert "could not tell staff that the ingest of event" in caplog.text


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def server(settings, database):
    async with socket_server(settings, database) as (sio, url):
        previous = emitter.default._target
        emitter.bind(sio)
        try:
            yield sio, url
        finally:
            emitter.bind(previous)


async def test_staff_watching_the_ingest_room_hear_it_and_viewers_can_neither_watch_nor_overhear_it(
    client, database, server
):
    _sio, url = server
    feed = a_feed(database, state="starting")
    support = await staff_account(client, database, "support")
    viewer = await sign_up(client)
    staff_socket = await open_client(url, token=token_of(support))
    viewer_socket = await open_client(url, token=viewer["tokenData"]["access_token"])
    heard: dict[str, list] = {"staff": [], "viewer": []}
    staff_socket.on("ingest-state-change", lambda data: heard["staff"].append(data))
    viewer_socket.on("ingest-state-change", lambda data: heard["viewer"].append(data))
    try:
        room = f"ingest:{feed.event_id}"
        assert await ask(staff_socket, "watch-room", {"room": room}) == {"ok": True, "room": room}
        refused = await ask(viewer_socket, "watch-room", {"room": room})
        assert refused == {"ok": False, "messageErrorCode": "forbidden", "message": WATCH_FORBIDDEN}
        assert (await ask(viewer_socket, "join-event-room", {"eventId": feed.event_id}))["ok"] is True

        await feed._set_state("live")

        for _ in range(50):
            if heard["staff"]:
                break
            await asyncio.sleep(0.1)
        assert heard["staff"] == [
            {"eventId": feed.event_id, "state": "live", "previous": "starting", "assetId": feed.asset_id}
        ]
        await asyncio.sleep(0.3)  # anything sent to the viewer would have arrived by now
        assert heard["viewer"] == []
    finally:
        await staff_socket.disconnect()
        await viewer_socket.disconnect()
