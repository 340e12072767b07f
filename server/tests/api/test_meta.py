"""GET /api/health: liveness, the database round trip and the socket fan-out."""

import httpx
import socketio

from server.app import create_api
from server.db import Database
from server.settings import Settings
from server.tests.conftest import with_state


async def test_health_is_ok_with_the_database_reachable(client):
    body = (await client.get("/api/health")).json()
    assert body == {"content": {"status": "ok", "database": "ok"}, "error": False, "message": ""}


async def test_health_is_503_in_the_envelope_when_the_database_is_unreachable(tmp_path):
    settings = Settings(environment="test", response_validation=True,
                        database_url="postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=1")
    api, _ = create_api(settings)
    database = Database(settings.database_url)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings}))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.get("/api/health")
    await database.dispose()
    assert response.status_code == 503
    assert response.json() == {"error": True, "message": "Database unavailable", "messageErrorCode": "database_unavailable"}


async def test_health_reports_the_in_process_socket_fanout(settings, database):
    api, _ = create_api(settings)
    sio = socketio.AsyncServer(async_mode="asgi")
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings, "socket": sio}))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        content = (await client.get("/api/health")).json()["content"]
    assert content["realtime"] == {"manager": "in_process", "status": "ok"}
    assert content["status"] == "ok"
