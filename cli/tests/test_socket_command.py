"""`touchline socket emit EVENT --room ROOM --data JSON`, run as an operator would (CliRunner),
against a real server: a websocket client in the room proves what was delivered.

Without a Redis URL the command goes through the admin API with staff credentials; with one,
straight into Redis, where every server process picks it up.
"""

import asyncio
import json
import time
from types import SimpleNamespace

import pytest
import pytest_asyncio
import socketio
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD, server_settings, threaded_server
from server.realtime.socket import REDIS_CHANNEL
from server.tests.realtime.support import RedisServer, redis_server_binary

pytestmark = pytest.mark.asyncio(loop_scope="session")

EVENT = "e0e000000000000000000003"
STREAM = "/media/live/football.m3u8"
TIMEOUT_S = 5
# Variables of the operator's shell that would change which path the command takes.
CLEAN_ENV = {
    "REDIS_URL": None,
    "TOUCHLINE_REDIS_URL": None,
    "TOUCHLINE_API_URL": None,
    "TOUCHLINE_STAFF_EMAIL": None,
    "TOUCHLINE_STAFF_PASSWORD": None,
}

runner = CliRunner()


async def touchline(*args: str, **env: str | None):
    """Run the command in a worker thread (it runs its own event loop) while this loop serves
    the websocket clients."""
    return await asyncio.to_thread(runner.invoke, app, list(args), env={**CLEAN_ENV, **env})


def emit_args(
    *extra: str,
    event: str = "event-url-change",
    room: str = f"event:{EVENT}",
    data: str = f'{{"eventUrl": "{STREAM}"}}',
    group: tuple[str, ...] = (),
) -> list[str]:
    """`touchline socket [group options] emit EVENT --room ROOM --data DATA [extra]`."""
    return ["socket", *group, "emit", event, "--room", room, "--data", data, *extra]


@pytest_asyncio.fixture(loop_scope="session")
async def watcher():
    """watcher(url) -> queue of (name, payload) a client in event room EVENT receives."""
    clients = []

    async def watch(url: str) -> asyncio.Queue:
        client = socketio.AsyncClient(reconnection=False)
        inbox: asyncio.Queue = asyncio.Queue()
        client.on("*", lambda name, data: inbox.put_nowait((name, data)))
        await client.connect(url, transports=["websocket"], socketio_path="ws", wait_timeout=TIMEOUT_S)
        clients.append(client)
        await client.call("join-event-room", {"eventId": EVENT}, timeout=TIMEOUT_S)
        return inbox

    yield watch
    for client in clients:
        await client.disconnect()


def staff_env(server) -> dict:
    return {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }


# --- through the admin API -----------------------------------------------------------------------


async def test_without_redis_the_message_goes_through_the_admin_api(live_server, watcher):
    inbox = await watcher(live_server.url)
    result = await touchline(*emit_args(), **staff_env(live_server))
    assert result.exit_code == 0, result.output
    assert f"through the admin API at {live_server.url}" in result.output
    assert await asyncio.wait_for(inbox.get(), TIMEOUT_S) == (
        "event-url-change",
        {"eventId": EVENT, "eventUrl": STREAM},
    )


async def test_credentials_and_url_can_be_given_as_options_of_the_group(live_server, watcher):
    inbox = await watcher(live_server.url)
    result = await touchline(
        *emit_args(
            event="update-event",
            data='{"status": "live"}',
            group=("--api-url", live_server.url, "--staff-email", live_server.staff, "--staff-password", PASSWORD),
        )
    )
    assert result.exit_code == 0, result.output
    assert await asyncio.wait_for(inbox.get(), TIMEOUT_S) == ("update-event", {"eventId": EVENT, "status": "live"})


async def test_json_prints_the_apis_answer_and_the_way_it_went(live_server, watcher):
    inbox = await watcher(live_server.url)
    result = await touchline(*emit_args(group=("--json",)), **staff_env(live_server))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "event": "event-url-change",
        "room": f"event:{EVENT}",
        "manager": "in_process",
        "via": "api",
    }
    assert (await asyncio.wait_for(inbox.get(), TIMEOUT_S))[0] == "event-url-change"


async def test_a_wrong_password_ends_with_exit_code_1_and_the_servers_message(live_server):
    result = await touchline(*emit_args(), **{**staff_env(live_server), "TOUCHLINE_STAFF_PASSWORD": "wrong"})
    assert result.exit_code == 1
    assert "Wrong username or password (invalid_credentials)" in result.output


async def test_a_viewer_account_is_refused_with_exit_code_1(live_server):
    result = await touchline(*emit_args(), **{**staff_env(live_server), "TOUCHLINE_STAFF_EMAIL": live_server.viewer})
    assert result.exit_code == 1 and "(forbidden_role)" in result.output


async def test_without_credentials_the_command_says_which_variables_to_set():
    result = await touchline(*emit_args())
    assert result.exit_code == 1
    assert "TOUCHLINE_STAFF_EMAIL" in result.output and "TOUCHLINE_STAFF_PASSWORD" in result.output


async def test_an_unreachable_server_ends_with_exit_code_1():
    result = await touchline(
        *emit_args(),
        TOUCHLINE_API_URL="http://127.0.0.1:9",
        TOUCHLINE_STAFF_EMAIL="a@example.com",
        TOUCHLINE_STAFF_PASSWORD=PASSWORD,
    )
    assert result.exit_code == 1 and "Cannot reach the Touchline API at http://127.0.0.1:9" in result.output


# --- checked before anything is sent ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (emit_args(event="launch-rockets"), "'launch-rockets' is not a message the server sends"),
        (emit_args(event="join-event-room", data=f'{{"eventId": "{EVENT}"}}'), "not a message the server sends"),
        (emit_args(data="{eventUrl:"), "--data is not JSON"),
        (emit_args(data=f'["{STREAM}"]'), "--data must be a JSON object"),
        (
            emit_args(data='{"eventUrl": "ftp://cdn.example/a.m3u8"}'),
            "eventUrl: 'ftp://cdn.example/a.m3u8' does not match",
        ),
        (
            emit_args(room=f"user:{EVENT}", data=f'{{"eventId": "{EVENT}", "eventUrl": "{STREAM}"}}'),
            "goes to a room like 'event:<24 hex id>'",
        ),
        (emit_args(room="event:42"), "--room must be event:<id>, user:<id>, ingest:<id> or media:<id>"),
        (emit_args("--via", "redis"), "--via redis needs a Redis URL"),
    ],
    ids=[
        "unknown-event",
        "client-message",
        "not-json",
        "not-an-object",
        "invalid-payload",
        "wrong-room-kind",
        "room-not-an-id",
        "redis-without-url",
    ],
)
async def test_what_the_contract_forbids_ends_with_exit_code_1_before_anything_is_sent(args, says):
    # No server, no Redis and no credentials are configured: the command stops before needing them.
    result = await touchline(*args)
    assert result.exit_code == 1, result.output
    assert says in result.output


# --- through Redis -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def redis_server():
    server = RedisServer(redis_server_binary()).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def redis_live_server(accounts_db, redis_server):
    with threaded_server(server_settings(accounts_db.url, redis_server.url)) as url:
        # The server subscribes to Redis as it starts, which may finish after it accepts HTTP.
        deadline = time.monotonic() + TIMEOUT_S
        redis = redis_server.client()
        while redis.pubsub_numsub(REDIS_CHANNEL)[0][1] < 1:
            assert time.monotonic() < deadline, "the server did not subscribe to Redis"
            time.sleep(0.05)
        redis.close()
        yield SimpleNamespace(url=url)


async def test_with_a_redis_url_the_message_goes_through_redis_to_the_servers(redis_server, redis_live_server, watcher):
    inbox = await watcher(redis_live_server.url)
    result = await touchline(*emit_args(), REDIS_URL=redis_server.url)
    assert result.exit_code == 0, result.output
    assert "through Redis: 1 server process(es) received it" in result.output
    assert await asyncio.wait_for(inbox.get(), TIMEOUT_S) == (
        "event-url-change",
        {"eventId": EVENT, "eventUrl": STREAM},
    )


async def test_json_says_how_many_server_processes_received_it_through_redis(redis_server, redis_live_server, watcher):
    inbox = await watcher(redis_live_server.url)
    result = await touchline(*emit_args(group=("--json",)), REDIS_URL=redis_server.url)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "event": "event-url-change",
        "room": f"event:{EVENT}",
        "via": "redis",
        "receivers": 1,
    }
    assert (await asyncio.wait_for(inbox.get(), TIMEOUT_S))[0] == "event-url-change"


async def test_via_api_overrides_a_configured_redis_url(redis_server, live_server, watcher):
    inbox = await watcher(live_server.url)
    result = await touchline(*emit_args("--via", "api"), REDIS_URL=redis_server.url, **staff_env(live_server))
    assert result.exit_code == 0 and "through the admin API" in result.output
    assert (await asyncio.wait_for(inbox.get(), TIMEOUT_S))[0] == "event-url-change"


async def test_when_no_server_listens_on_redis_the_command_says_nobody_received_it():
    server = RedisServer(redis_server_binary()).start()  # a Redis no Touchline server uses
    try:
        result = await touchline(*emit_args(), REDIS_URL=server.url)
    finally:
        server.stop()
    assert result.exit_code == 1 and "nobody received the message" in result.output


async def test_an_unreachable_redis_ends_with_exit_code_1_without_its_password():
    result = await touchline(*emit_args(), REDIS_URL="redis://:s3cret@127.0.0.1:9/0")
    assert result.exit_code == 1
    assert "Cannot publish to Redis at redis://:***@127.0.0.1:9/0" in result.output and "s3cret" not in result.output
