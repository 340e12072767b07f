"""`touchline serve` in development starts an OpenID provider for the ifa sign-on and stops it."""

import os
import socket

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


def test_a_taken_port_leaves_the_ifa_sign_on_off(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with development_identity_provider(Settings(environment="development", var_dir=tmp_path), port=port) as issuer:
            assert issuer is None
            assert "TOUCHLINE_IFA_ISSUER" not in os.environ
