"""`touchline serve` in development starts an OpenID provider for the ifa sign-on and stops it."""

import json
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import httpx
import pytest

from cli.commands.serve import development_identity_provider
from server.auth.providers import OidcProvider, offered
from server.auth.providers.local_provider import CLIENT_ID as DEV_IFA_CLIENT_ID
from server.settings import Settings

IFA_VARIABLES = ("TOUCHLINE_IFA_ISSUER", "TOUCHLINE_IFA_CLIENT_ID", "TOUCHLINE_IFA_CLIENT_SECRET")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(autouse=True)
def no_ifa_in_the_environment(monkeypatch):
    for name in IFA_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_development_without_an_ifa_issuer_runs_a_provider_and_points_ifa_at_it(tmp_path):
    port = free_port()
    with development_identity_provider(Settings(environment="development", var_dir=tmp_path), port=port) as issuer:
        assert issuer == f"http://127.0.0.1:{port}"
        discovery = httpx.get(f"{issuer}/.well-known/openid-configuration", timeout=5).json()
        assert discovery["authorization_endpoint"] == f"{issuer}/oauth2/authorize"
        ifa = offered(Settings(environment="development"))["ifa"]  # what the server reads from the environment
        assert isinstance(ifa, OidcProvider)
        assert (ifa.issuer, ifa.client_id, ifa.flow) == (issuer, DEV_IFA_CLIENT_ID, "authorization_code")
    assert all(name not in os.environ for name in IFA_VARIABLES), "the environment is restored"
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{issuer}/.well-known/openid-configuration", timeout=2)


@pytest.mark.parametrize(
    "settings",
    [
        Settings(environment="test"),
        Settings(environment="development", ifa_issuer="https://id.ifa.example", ifa_client_id="touchline"),
    ],
    ids=["not development", "issuer configured"],
)
def test_no_provider_is_started_otherwise(settings):
    with development_identity_provider(settings, port=free_port()) as issuer:
        assert issuer is None
        assert "TOUCHLINE_IFA_ISSUER" not in os.environ


class Squatter(BaseHTTPRequestHandler):
    """Something else on the development provider's port that looks like an OpenID provider
    (another `make run`'s, or anyone's): it must never be federated with."""

    requests: ClassVar[list[str]] = []

    def do_GET(self):
        Squatter.requests.append(self.path)
        issuer = f"http://{self.headers['Host']}"
        body = json.dumps({"issuer": issuer, "jwks_uri": f"{issuer}/jwks"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_taken_port_gets_our_own_provider_on_a_free_port_never_the_one_answering_there(tmp_path):
    squatter = ThreadingHTTPServer(("127.0.0.1", 0), Squatter)
    threading.Thread(target=squatter.serve_forever, daemon=True).start()
    taken = f"http://127.0.0.1:{squatter.server_address[1]}"
    try:
        settings = Settings(environment="development", var_dir=tmp_path)
        with development_identity_provider(settings, port=squatter.server_address[1]) as issuer:
            assert issuer is not None and issuer != taken
            assert os.environ["TOUCHLINE_IFA_ISSUER"] == issuer
            discovery = httpx.get(f"{issuer}/.well-known/openid-configuration", timeout=5).json()
            assert discovery["issuer"] == issuer
            assert discovery["introspection_endpoint"] == f"{issuer}/oauth2/introspect", "ours, not the squatter's"
        assert Squatter.requests == [], "the squatter was never asked"
    finally:
        squatter.shutdown()
        squatter.server_close()
