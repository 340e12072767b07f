"""`touchline socket watch --room event:ID|user:ID`, run as staff would (CliRunner) against a real
server: the staff-only `watch-room` socket message (asyncapi/asyncapi.yaml) joins the room, and
every message the room receives is printed."""

import asyncio
import json
import uuid

import httpx
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD
from server.tests.accounts import sign_in
from server.tests.realtime.test_socket import ask, open_client

runner = CliRunner()
CLEAN_ENV = {"TOUCHLINE_API_URL": None, "TOUCHLINE_STAFF_EMAIL": None, "TOUCHLINE_STAFF_PASSWORD": None}
STREAM = "/media/live/football.m3u8"


def event_id() -> str:
    return uuid.uuid4().hex[:24]


async def watch(server, *args: str, email: str | None = None):
    """`touchline socket ARGS` in a worker thread (the command runs its own event loop)."""
    env = {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": email or server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }
    return await asyncio.to_thread(runner.invoke, app, ["socket", *args], env={**CLEAN_ENV, **env})


async def token_of(server, email: str) -> str:
    async with httpx.AsyncClient(base_url=server.url) as http:
        answer = await sign_in(http, email)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["tokenData"]["access_token"]


async def emit_until_done(server, watching: asyncio.Future, room: str, payload: dict) -> None:
    """Send `event-url-change` to `room` through the admin API until the watcher has had it (it
    may join the room after the first sends)."""
    token = await token_of(server, server.staff)
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {token}"}) as http:
        for _ in range(100):
            if watching.done():
                return
            answer = await http.post(
                "/api/admin/socket/emit", json={"event": "event-url-change", "room": room, "payload": payload}
            )
            assert answer.status_code == 200, answer.text
            await asyncio.wait({watching}, timeout=0.2)


async def test_staff_watching_an_event_room_see_the_event_url_change_it_receives(live_server):
    event = event_id()
    watching = asyncio.ensure_future(watch(live_server, "--json", "watch", "--room", f"event:{event}", "--count", "1"))

    await emit_until_done(live_server, watching, f"event:{event}", {"eventUrl": STREAM})

    result = await watching
    assert result.exit_code == 0, result.output
    line = json.loads(result.stdout)
    assert line["event"] == "event-url-change"
    assert line["data"] == {"eventId": event, "eventUrl": STREAM}


async def test_the_watch_prints_one_readable_line_per_message(live_server):
    event = event_id()
    watching = asyncio.ensure_future(watch(live_server, "watch", "--room", f"event:{event}", "--count", "1"))

    await emit_until_done(live_server, watching, f"event:{event}", {"eventUrl": STREAM})

    result = await watching
    assert result.exit_code == 0, result.output
    moment, name, payload = result.stdout.strip().split(" ", 2)
    assert moment.endswith("Z") and name == "event-url-change"
    assert json.loads(payload) == {"eventId": event, "eventUrl": STREAM}
    assert f"Watching event:{event}" in result.stderr


async def test_a_viewer_cannot_watch_a_user_room(live_server):
    client = await open_client(live_server.url, token=await token_of(live_server, live_server.viewer))
    try:
        ack = await ask(client, "watch-room", {"room": f"user:{event_id()}"})
    finally:
        await client.disconnect()
    assert ack == {
        "ok": False,
        "messageErrorCode": "forbidden",
        "message": "Only staff (support or admin) may watch a room",
    }


async def test_an_anonymous_connection_cannot_watch_a_room(live_server):
    client = await open_client(live_server.url)
    try:
        ack = await ask(client, "watch-room", {"room": f"event:{event_id()}"})
    finally:
        await client.disconnect()
    assert ack["ok"] is False and ack["messageErrorCode"] == "forbidden"


async def test_a_room_that_is_not_a_user_or_event_room_is_refused_by_the_contract(live_server):
    client = await open_client(live_server.url, token=await token_of(live_server, live_server.staff))
    try:
        ack = await ask(client, "watch-room", {"room": "session:abc"})
    finally:
        await client.disconnect()
    assert ack["ok"] is False and ack["messageErrorCode"] == "validation_error"


async def test_a_viewer_account_is_refused_with_exit_code_1(live_server):
    result = await watch(live_server, "watch", "--room", f"event:{event_id()}", email=live_server.viewer)

    assert result.exit_code == 1
    assert "forbidden_role" in result.stderr


def test_a_malformed_room_is_refused_before_connecting():
    result = runner.invoke(app, ["socket", "watch", "--room", "event:nope"], env=CLEAN_ENV)

    assert result.exit_code == 1
    assert "--room must be event:<id>, user:<id>, ingest:<id> or media:<id>" in result.stderr


def test_an_api_key_cannot_open_the_socket():
    result = runner.invoke(
        app, ["socket", "--api-key", "tlk_x", "watch", "--room", f"event:{event_id()}"], env=CLEAN_ENV
    )

    assert result.exit_code == 1
    assert "API key" in result.stderr
