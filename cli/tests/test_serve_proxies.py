"""`touchline serve` believes X-Forwarded-For only from the proxies TOUCHLINE_FORWARDED_ALLOW_IPS
names, so a client cannot pick the address the per-address sign-in limit counts.

The server runs under uvicorn with exactly the proxy options `touchline serve` gives it, and is
reached from 127.0.0.1: the address uvicorn trusts by default.
"""

import socket
import threading
import time
import uuid
from contextlib import contextmanager

import httpx
import pytest
import uvicorn

from cli.commands.serve import proxy_options
from cli.tests.conftest import server_settings
from server.app import create_app
from server.settings import Settings

ATTEMPTS = 4


@contextmanager
def serving(settings: Settings):
    """create_app(settings) under uvicorn on 127.0.0.1, configured as `touchline serve` does."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", settings.port))
    config = uvicorn.Config(
        create_app(settings), log_level="warning", ws_per_message_deflate=False, **proxy_options(settings)
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield httpx.Client(base_url=f"http://127.0.0.1:{settings.port}", timeout=20)
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


def settings_for(accounts_db, **overrides) -> Settings:
    return server_settings(accounts_db.url).model_copy(
        update={"login_attempts_per_address": ATTEMPTS, "login_address_window": 3600, **overrides}
    )


def sign_in(http: httpx.Client, forwarded_for: str) -> int:
    email = f"nobody-{uuid.uuid4().hex[:8]}@example.com"
    answer = http.post(
        "/api/user/login",
        json={"username": email, "password": "not a password", "device_id": "d", "device_name": "d"},
        headers={"X-Forwarded-For": forwarded_for},
    )
    return answer.status_code


def test_by_default_forwarded_headers_are_ignored(accounts_db):
    assert proxy_options(Settings(environment="production", secret_key="x" * 40))["proxy_headers"] is False
    with serving(settings_for(accounts_db)) as http:
        statuses = [sign_in(http, f"198.51.100.{n}") for n in range(ATTEMPTS + 3)]
    assert statuses == [401] * ATTEMPTS + [429] * 3


def test_a_trusted_proxy_names_the_client(accounts_db):
    trusted = settings_for(accounts_db, forwarded_allow_ips=["127.0.0.1"])
    with serving(trusted) as http:
        rotating = [sign_in(http, f"203.0.113.{n}") for n in range(ATTEMPTS + 3)]
        one_client = [sign_in(http, "192.0.2.7") for _ in range(ATTEMPTS + 1)]
    assert rotating == [401] * (ATTEMPTS + 3)
    assert one_client == [401] * ATTEMPTS + [429]


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        (None, {"proxy_headers": False, "forwarded_allow_ips": None}),
        ("10.0.0.5", {"proxy_headers": True, "forwarded_allow_ips": "10.0.0.5"}),
        ("10.0.0.5, 10.1.0.0/16", {"proxy_headers": True, "forwarded_allow_ips": "10.0.0.5,10.1.0.0/16"}),
    ],
)
def test_the_setting_becomes_uvicorns_options(monkeypatch, setting, expected):
    if setting is None:
        monkeypatch.delenv("TOUCHLINE_FORWARDED_ALLOW_IPS", raising=False)
    else:
        monkeypatch.setenv("TOUCHLINE_FORWARDED_ALLOW_IPS", setting)
    assert proxy_options(Settings(environment="test")) == expected
