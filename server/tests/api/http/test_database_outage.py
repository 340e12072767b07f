"""PostgreSQL restarting under load: while it is away every request that needs it gets 503
`database_unavailable` in the error envelope with Retry-After (never a 500), and once it is back
the same server process answers again without a restart (the pool pings a connection before
lending it, server/db.py).

The app runs on uvicorn with its lifespan (the session confirmation job included), talking to
PostgreSQL through a loopback proxy that closes every connection and stops listening, which is
what a restart looks like from the application's side.
"""

import asyncio
import collections
import time

import httpx
import pytest
import pytest_asyncio

from server.app import create_api
from server.db import Database
from server.migrate import upgrade
from server.settings import Settings
from server.tests.accounts import bearer, sign_up
from server.tests.conftest import _drop_postgres_database, _postgres_database
from server.tests.factories import build_catalogue
from server.tests.realtime.support import TcpProxy
from server.tests.serving import uvicorn_serving

pytestmark = pytest.mark.asyncio(loop_scope="session")

OUTAGE_S = 3.0
RECOVERY_S = 5.0  # from the database's return to every request answering again


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def outage_server():
    name = _postgres_database()
    direct = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    proxy = await TcpProxy(5432).start()
    seeding = Database(direct)  # kept open: sign_up reads the confirmation mail through it
    try:
        await asyncio.to_thread(upgrade, direct)  # alembic runs its own event loop
        async with seeding.session() as session:
            catalogue = await build_catalogue(session)
        settings = Settings(
            environment="test",
            database_url=f"postgresql+psycopg://postgres@127.0.0.1:{proxy.port}/{name}",
            catalogue_cache_seconds=0,  # every read goes to the database
            login_attempts_per_address=1_000_000,
        )
        serving = uvicorn_serving(lambda _port: create_api(settings), lifespan="on", log_level="critical")
        async with serving as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
            http.touchline_database = seeding  # type: ignore[attr-defined]  # sign_up reads its mail here
            yield proxy, http, catalogue
    finally:
        await seeding.dispose()
        await proxy.aclose()
        _drop_postgres_database(name)


async def hammer(http: httpx.AsyncClient, requests, stop: asyncio.Event, seen: list) -> None:
    """Send `requests` round and round until `stop`; record (time, request name, answer)."""
    while not stop.is_set():
        for name, send in requests:
            answer = await send()
            seen.append((time.monotonic(), name, answer))


async def test_a_database_restart_under_load_gives_503s_then_recovers_without_a_restart(outage_server):
    proxy, http, catalogue = outage_server
    viewer = await sign_up(http)
    headers = bearer(viewer["tokenData"]["access_token"])
    requests = [
        ("event list", lambda: http.post("/api/event/list", json={"filters": {"status": ["live"]}})),
        ("event page", lambda: http.get(f"/api/event/get_by_id/id/{catalogue['live']}", headers=headers)),
        ("profile", lambda: http.get("/api/user/get_profile", headers=headers)),
        (
            "follow",
            lambda: http.post(
                "/api/follow/save", json={"reference_id": catalogue["npd"], "type": "identity_item"}, headers=headers
            ),
        ),
    ]
    stop, seen = asyncio.Event(), list[tuple[float, str, httpx.Response]]()
    load = [asyncio.create_task(hammer(http, requests, stop, seen)) for _ in range(6)]
    try:
        await asyncio.sleep(1)
        down_at = time.monotonic()
        await proxy.go_down()
        await asyncio.sleep(OUTAGE_S)
        up_at = time.monotonic()
        await proxy.come_up()
        await asyncio.sleep(RECOVERY_S + 1)
    finally:
        stop.set()
        await asyncio.gather(*load)

    statuses = collections.Counter(answer.status_code for _, _, answer in seen)
    assert statuses[500] == 0, statuses
    assert set(statuses) <= {200, 503}, statuses
    before = [answer for at, _, answer in seen if at < down_at]
    during = [answer for at, _, answer in seen if down_at + 0.5 < at < up_at]
    after = [(name, answer) for at, name, answer in seen if at > up_at + RECOVERY_S]
    assert before and all(answer.status_code == 200 for answer in before)
    assert during and all(answer.status_code == 503 for answer in during), collections.Counter(
        answer.status_code for answer in during
    )
    for answer in during:
        assert answer.json() == {
            "error": True,
            "message": "The service is briefly unavailable, please try again in a moment",
            "messageErrorCode": "database_unavailable",
        }
        assert int(answer.headers["Retry-After"]) >= 1
    assert after and all(answer.status_code == 200 for _, answer in after), [
        (name, answer.status_code) for name, answer in after if answer.status_code != 200
    ]
