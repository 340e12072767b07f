"""A real Touchline server for the staff commands: the whole app under uvicorn in a thread of
this process, on a fresh SQLite database with a staff and a viewer account.

The tests prepare data with the server's test helpers (server.tests.*) on the `database` of
`accounts_db`, in the tests' event loop; the CLI itself reaches the server only through its
admin API."""

import json
import re
import socket
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
import uvicorn

from server.app import create_app
from server.settings import Settings
from server.tests import media_dir  # noqa: F401 -- this run's own media directory
from server.tests.accounts import PASSWORD, create_user  # noqa: F401 (PASSWORD: the CLI tests import it from here)
from server.tests.billing import private_database

SECRET = "cli-test-secret-of-at-least-32-bytes-long"
SQLITE = "sqlite+aiosqlite://"  # private_database() makes a database of this kind, in a file of its own
# The servers write confirmation mails here too (TOUCHLINE_MAIL_DROP_DIR): sign-ups follow the link.
MAIL_DROP = Path(tempfile.mkdtemp(prefix="touchline-cli-mail-"))


def register_and_confirm(url: str, body: dict) -> httpx.Response:
    """Sign up through POST /api/user/register, then open the mailed confirmation link as the
    owner would (POST /api/user/verify_email): the answer is that sign-in's."""
    registered = httpx.post(f"{url}/api/user/register", json=body, timeout=60)
    assert registered.status_code == 202, registered.text
    mails = [json.loads(path.read_text()) for path in sorted(MAIL_DROP.glob("*.json"))]
    [text, *_] = [
        m["text"] for m in reversed(mails) if m["to"] == body["email"].lower() and m["kind"] == "email_verification"
    ]
    link = re.search(r"/auth/verify/\?token=(\S+)", text)
    assert link, text
    token = link.group(1)
    device = {key: body[key] for key in ("device_id", "device_name", "strategy") if key in body}
    return httpx.post(f"{url}/api/user/verify_email", json={"token": token, **device}, timeout=60)


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
        mail_drop_dir=MAIL_DROP,
    )


@pytest.fixture(scope="module")
def live_server(accounts_db):
    """A server without Redis: `touchline socket emit` reaches it through the admin API."""
    with threaded_server(server_settings(accounts_db.url)) as url:
        yield SimpleNamespace(url=url, staff=accounts_db.staff, viewer=accounts_db.viewer)
