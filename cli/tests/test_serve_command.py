"""`touchline serve` hands uvicorn the settings uvicorn owns, and the app the options it got."""

import os
import signal

import pytest
from typer.testing import CliRunner

from cli.main import app
from server.settings import get_settings

runner = CliRunner()


@pytest.fixture
def uvicorn_run(monkeypatch):
    """Capture uvicorn.run's arguments (and what the app's settings say then) instead of serving."""
    import uvicorn

    calls = []

    def run(target, **options):
        calls.append({**options, "settings": get_settings()})

    monkeypatch.setattr(uvicorn, "run", run)
    saved_env, saved_sigterm = dict(os.environ), signal.getsignal(signal.SIGTERM)
    for name in (
        "TOUCHLINE_HOST",
        "TOUCHLINE_PORT",
        "PORT",
        "TOUCHLINE_SOCKET_PER_MESSAGE_DEFLATE",
        "TOUCHLINE_SOCKET_ALLOWED_ORIGINS",
        "TOUCHLINE_PUBLIC_BASE_URL",
    ):
        os.environ.pop(name, None)
    os.environ["TOUCHLINE_ENVIRONMENT"] = "test"  # no development identity provider
    get_settings.cache_clear()
    yield calls
    os.environ.clear()
    os.environ.update(saved_env)
    signal.signal(signal.SIGTERM, saved_sigterm)
    get_settings.cache_clear()


def test_websocket_per_message_deflate_is_off_unless_the_setting_turns_it_on(uvicorn_run):
    assert runner.invoke(app, ["serve"]).exit_code == 0
    os.environ["TOUCHLINE_SOCKET_PER_MESSAGE_DEFLATE"] = "true"
    assert runner.invoke(app, ["serve"]).exit_code == 0
    assert [call["ws_per_message_deflate"] for call in uvicorn_run] == [False, True]
    assert {call["ws"] for call in uvicorn_run} == {"wsproto"}  # the leanest per connection


def test_the_port_option_reaches_the_apps_settings_and_the_sockets_default_origins(uvicorn_run):
    result = runner.invoke(app, ["serve", "--port", "9123", "--host", "127.0.0.1"])
    assert result.exit_code == 0, result.output
    [call] = uvicorn_run
    assert (call["host"], call["port"]) == ("127.0.0.1", 9123)
    assert call["settings"].socket_origins == ["http://127.0.0.1:9123", "http://localhost:9123"]


def test_forwarded_headers_are_believed_only_from_the_configured_proxies(uvicorn_run):
    os.environ.pop("TOUCHLINE_FORWARDED_ALLOW_IPS", None)
    assert runner.invoke(app, ["serve"]).exit_code == 0
    os.environ["TOUCHLINE_FORWARDED_ALLOW_IPS"] = "10.0.0.5"
    assert runner.invoke(app, ["serve"]).exit_code == 0
    options = [(call["proxy_headers"], call["forwarded_allow_ips"]) for call in uvicorn_run]
    assert options == [(False, None), (True, "10.0.0.5")]


def test_uvicorn_buffers_no_websocket_message_far_beyond_what_the_socket_accepts(uvicorn_run):
    assert runner.invoke(app, ["serve"]).exit_code == 0
    [call] = uvicorn_run
    assert call["ws_max_size"] <= 64 * 1024
    assert call["server_header"] is False
