"""What every answer of the one process carries, and which hosts it answers for (server/guards.py)."""

import httpx
import pytest

from server.app import create_app
from server.guards import guarded, host_allowed
from server.settings import Settings

EVIL = "evil.example.com"


def app_settings(tmp_path_factory, **overrides) -> Settings:
    return Settings(
        **{
            "environment": "production",
            "secret_key": "guards-test-secret-of-at-least-32-bytes",
            "database_url": f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('guards') / 'a.db'}",
            "webapp_dist": tmp_path_factory.mktemp("nodist"),
            **overrides,
        }
    )


@pytest.fixture(scope="module")
async def production(tmp_path_factory):
    """The whole app as deployed at https://watch.touchline.example."""
    settings = app_settings(tmp_path_factory, public_base_url="https://watch.touchline.example")
    transport = httpx.ASGITransport(app=create_app(settings))
    async with httpx.AsyncClient(transport=transport, base_url="https://watch.touchline.example") as client:
        yield client


@pytest.fixture(scope="module")
async def development(tmp_path_factory):
    transport = httpx.ASGITransport(app=create_app(app_settings(tmp_path_factory, environment="development")))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8080") as client:
        yield client


async def test_a_redirect_never_names_the_host_a_request_claims(development):
    response = await development.get("/api", headers={"Host": EVIL})
    assert response.status_code == 307
    assert response.headers["location"] == "/api/"


@pytest.mark.parametrize("path", ["/api", "/media/logos", "/media/posters"])
async def test_trailing_slash_redirects_are_relative(development, path):
    response = await development.get(path)
    assert response.status_code == 307 and response.headers["location"] == f"{path}/"


async def test_outside_development_an_unknown_host_is_refused_in_the_envelope(production):
    for path in ("/api", "/api/health", "/media/ads/preroll.xml", "/"):
        response = await production.get(path, headers={"Host": EVIL})
        assert response.status_code == 400, path
        assert response.json() == {
            "error": True,
            "message": "This server does not answer for that host",
            "messageErrorCode": "invalid_host",
        }


async def test_outside_development_the_servers_own_hosts_are_served(production):
    for host in ("watch.touchline.example", "WATCH.touchline.example:443", "localhost:8080", "127.0.0.1"):
        response = await production.get("/media/ads/preroll.xml", headers={"Host": host})
        assert response.status_code == 200, host


async def test_in_development_any_host_is_served(development):
    assert (await development.get("/media/ads/preroll.xml", headers={"Host": EVIL})).status_code == 200


async def test_the_allowed_hosts_setting_replaces_the_default(tmp_path_factory):
    settings = app_settings(tmp_path_factory, allowed_hosts="touchline.example, *.cdn.touchline.example")
    assert settings.trusted_hosts == ["touchline.example", "*.cdn.touchline.example"]
    transport = httpx.ASGITransport(app=create_app(settings))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.example") as client:
        assert (await client.get("/media/ads/preroll.xml")).status_code == 200
        assert (
            await client.get("/media/ads/preroll.xml", headers={"Host": "edge1.cdn.touchline.example"})
        ).status_code == 200
        assert (await client.get("/media/ads/preroll.xml", headers={"Host": "localhost"})).status_code == 400


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("touchline.example", True),
        ("touchline.example:8443", True),
        ("touchline.example.", True),
        ("a.touchline.example", False),
        ("eviltouchline.example", False),
        ("[::1]:8080", True),
        ("", False),
    ],
)
def test_host_names_match_exactly_or_by_subdomain_pattern(host, allowed):
    assert host_allowed(host, ["touchline.example", "::1", "*.cdn.touchline.example"]) is allowed
    assert host_allowed("x.cdn.touchline.example", ["*.cdn.touchline.example"])
    assert not host_allowed("cdn.touchline.example.evil", ["*.cdn.touchline.example"])


@pytest.mark.parametrize("path", ["/api/health", "/api/nothing/here", "/media/ads/preroll.xml", "/media/nothing"])
async def test_api_and_media_answers_carry_the_security_headers(production, path):
    headers = (await production.get(path)).headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert "camera=()" in headers["permissions-policy"] and "fullscreen=(self)" in headers["permissions-policy"]
    assert headers["content-security-policy"] == (
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )
    assert headers["strict-transport-security"] == "max-age=31536000"


async def test_no_hsts_in_development_or_over_plain_http(development, tmp_path_factory):
    assert "strict-transport-security" not in (await development.get("/api/health")).headers
    plain = app_settings(tmp_path_factory, public_base_url="http://intranet.touchline.example")
    transport = httpx.ASGITransport(app=create_app(plain))
    async with httpx.AsyncClient(transport=transport, base_url="http://intranet.touchline.example") as client:
        assert "strict-transport-security" not in (await client.get("/api/health")).headers


async def test_a_socket_for_an_unknown_host_is_closed_before_it_opens(tmp_path_factory):
    settings = app_settings(tmp_path_factory, allowed_hosts=["touchline.example"])
    reached, sent = [], []

    async def app(scope, receive, send):
        reached.append(scope["type"])

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        sent.append(message)

    guard = guarded(app, settings)
    scope = {"type": "websocket", "path": "/ws/", "headers": [(b"host", EVIL.encode())]}
    await guard(scope, receive, send)
    assert reached == [] and sent == [{"type": "websocket.close", "code": 1008}]
    await guard({**scope, "headers": [(b"host", b"touchline.example")]}, receive, send)
    assert reached == ["websocket"]
