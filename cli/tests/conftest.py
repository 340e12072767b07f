"""A real Touchline server for the staff commands: the whole app under uvicorn in a thread of
this process, on a fresh SQLite database with a staff and a viewer account."""

import asyncio
import socket
import threading
import time
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
import uvicorn

from server.app import create_app
from server.migrate import upgrade
from server.settings import Settings
from server.tests.accounts import PASSWORD, create_user_at  # noqa: F401 (PASSWORD: the CLI tests import it from here)

SECRET = "cli-test-secret-of-at-least-32-bytes-long"


@contextmanager
def threaded_server(settings: Settings):
    """Serve create_app(settings) on 127.0.0.1:settings.port until the block ends."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", settings.port))
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning", ws_per_message_deflate=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{settings.port}"
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def accounts_db(tmp_path_factory):
    """A migrated SQLite database with one staff and one viewer account (emails in the result)."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('cli-server') / 'touchline.db'}"
    upgrade(url)
    staff = asyncio.run(create_user_at(url, role="staff"))
    viewer = asyncio.run(create_user_at(url, role="viewer"))
    return SimpleNamespace(url=url, staff=staff, viewer=viewer)


def server_settings(database_url: str, redis_url: str | None = None) -> Settings:
    return Settings(
        environment="test",
        database_url=database_url,
        secret_key=SECRET,
        redis_url=redis_url,
        port=_free_port(),
        response_validation=True,
        login_attempts_per_address=1_000_000,
    )


@pytest.fixture(scope="module")
def live_server(accounts_db):
    """A server without Redis: `touchline socket emit` reaches it through the admin API."""
    with threaded_server(server_settings(accounts_db.url)) as url:
        yield SimpleNamespace(url=url, staff=accounts_db.staff, viewer=accounts_db.viewer)
