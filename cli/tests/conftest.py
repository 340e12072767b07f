"""A real Touchline server for the staff commands: the whole app under uvicorn in a thread of
this process, on a fresh SQLite database with a staff and a viewer account.

The tests prepare data with the server's test helpers (server.tests.*) on the `database` of
`accounts_db`, in the tests' event loop; the CLI itself reaches the server only through its
admin API."""

import socket
import threading
import time
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
import uvicorn

from server.app import create_app
from server.settings import Settings
from server.tests.accounts import PASSWORD, create_user  # noqa: F401 (PASSWORD: the CLI tests import it from here)
from server.tests.billing import private_database

SECRET = "cli-test-secret-of-at-least-32-bytes-long"
SQLITE = "sqlite+aiosqlite://"  # private_database() makes a database of this kind, in a file of its own


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


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch):
    """Each test keeps `touchline login`'s sign-in in a directory of its own, never the user's."""
    directory = tmp_path / "touchline-config"
    monkeypatch.setenv("TOUCHLINE_CONFIG_DIR", str(directory))
    return directory


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
async def accounts_db(tmp_path_factory):
    """A migrated SQLite database of the module's own with one staff and one viewer account:
    `url`, `staff` and `viewer` (their e-mail addresses), and `database` to prepare data on."""
    async with private_database(SQLITE, tmp_path_factory.mktemp("cli-server")) as database:
        staff = await create_user(database, role="admin")
        viewer = await create_user(database, role="viewer")
        yield SimpleNamespace(url=database.url, database=database, staff=staff, viewer=viewer)


def server_settings(database_url: str, redis_url: str | None = None) -> Settings:
    return Settings(
        environment="test",
        database_url=database_url,
        secret_key=SECRET,
        redis_url=redis_url,
        port=_free_port(),
        response_validation=True,
        login_attempts_per_address=1_000_000,
        # Renewals run when a test asks (`touchline billing renew`), never on the server's schedule:
        # a run looks at every contract of its database, and one run at a time per process.
        renewal_interval_seconds=0,
    )


@pytest.fixture(scope="module")
def live_server(accounts_db):
    """A server without Redis: `touchline socket emit` reaches it through the admin API."""
    with threaded_server(server_settings(accounts_db.url)) as url:
        yield SimpleNamespace(url=url, staff=accounts_db.staff, viewer=accounts_db.viewer)
