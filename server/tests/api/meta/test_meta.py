"""GET /api/health: liveness, the database round trip and the socket fan-out."""

import httpx
import pytest
import socketio
from pydantic import ValidationError

from server.app import create_api
from server.db import Database
from server.settings import Settings
from server.tests.conftest import with_state


async def test_health_is_ok_with_the_database_reachable(client):
    body = (await client.get("/api/health")).json()
    assert body == {"content": {"status": "ok", "database": "ok"}, "error": False, "message": ""}


async def test_health_is_503_in_the_envelope_when_the_database_is_unreachable(tmp_path):
    settings = Settings(
        environment="test",
        response_validation=True,
        database_url="postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=1",
    )
    api = create_api(settings)
    database = Database(settings.database_url)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings}))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.get("/api/health")
    await database.dispose()
    assert response.status_code == 503
    assert response.json() == {
        "error": True,
        "message": "Database unavailable",
        "messageErrorCode": "database_unavailable",
    }


async def test_health_reports_the_in_process_socket_fanout(settings, database):
    api = create_api(settings)
    sio = socketio.AsyncServer(async_mode="asgi")
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings, "socket": sio}))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        content = (await client.get("/api/health")).json()["content"]
    assert content["realtime"] == {"manager": "in_process", "status": "ok"}
    assert content["status"] == "ok"


async def test_config_lists_the_customer_config_the_webapp_starts_with(client):
    content = (await client.get("/api/config")).json()["content"]
    assert content["name_short"] == "Touchline"
    assert content["app_config"]["socket_base"] == "/"
    assert content["locales"][0] == content["default_locale"] == "en"
    assert len(content["locales"]) == 14 and "he" in content["locales"]
    assert content["survey"]["name"] == "survey_user_experience_1"
    assert content["store_url_hosts"] == ["play.google.com", "apps.apple.com"]


async def test_config_offers_only_the_configured_sign_on_providers(settings, database):
    configured = settings.model_copy(
        update={
            "google_client_id": "google-client",
            "facebook_app_id": "fb",
            "facebook_app_secret": None,
            "ifa_issuer": None,
        }
    )
    api = create_api(configured)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": configured}))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        app_config = (await client.get("/api/config")).json()["content"]["app_config"]
    assert app_config["enable_auth_via_google"] is True
    assert app_config["enable_auth_via_facebook"] is False  # an app id without its secret is not enough
    assert app_config["enable_auth_via_apple"] is False and app_config["enable_auth_via_ifa"] is False


async def test_config_skips_login_only_when_the_federated_sign_on_is_offered(settings, database):
    for issuer, expected in ((None, False), ("https://ifa.example", True)):
        configured = settings.model_copy(
            update={"skip_login": True, "ifa_issuer": issuer, "ifa_client_id": "touchline"}
        )
        api = create_api(configured)
        transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": configured}))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            options = (await client.get("/api/config")).json()["content"]["options"]
        assert options["skip_login"] is expected


def test_store_url_hosts_read_from_a_comma_separated_variable(monkeypatch):
    monkeypatch.setenv("TOUCHLINE_STORE_URL_HOSTS", "Play.Google.com, apps.apple.com,")
    assert Settings(environment="test").store_url_hosts == ["play.google.com", "apps.apple.com"]


async def test_config_lists_the_redirect_rules(settings, database):
    configured = settings.model_copy(
        update={"redirects": {"/watch": "/live", "/app": "https://apps.apple.com/app/id1"}}
    )
    api = create_api(configured)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": configured}))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        redirects = (await client.get("/api/config")).json()["content"]["redirects"]
    assert redirects == [{"path": "/watch", "to": "/live"}, {"path": "/app", "to": "https://apps.apple.com/app/id1"}]


async def test_config_carries_the_survey_analytics_and_error_reporting_settings(client):
    content = (await client.get("/api/config")).json()["content"]
    assert content["survey"]["form_url"] == "/survey/user-experience/"
    assert (content["survey"]["show_after_seconds"], content["survey"]["skip_delay_minutes"]) == (20, 1440)
    # The test settings run as "test", where analytics are on; the tenant rides along.
    assert content["analytics"] == {"enabled": True, "tenant": "touchline"}
    assert content["error_reporting"] == {"dsn": None, "environment": "test", "max_breadcrumbs": 25, "max_events": 10}


async def test_config_gives_the_players_ad_deadlines_from_the_settings(settings, database):
    configured = settings.model_copy(update={"ad_vast_deadline_ms": 4000, "ad_start_deadline_ms": 6000})
    api = create_api(configured)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": configured}))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        ads = (await client.get("/api/config")).json()["content"]["ads"]
    assert ads == {"vast_deadline_ms": 4000, "start_deadline_ms": 6000}


def test_an_ad_deadline_outside_half_a_second_to_thirty_is_refused(monkeypatch):
    monkeypatch.setenv("TOUCHLINE_AD_START_DEADLINE_MS", "100")
    with pytest.raises(ValidationError, match="ad_start_deadline_ms"):
        Settings()
