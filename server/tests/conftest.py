"""Shared fixtures: every database-backed test runs on SQLite and on PostgreSQL.

PostgreSQL tests skip when no server answers, unless REQUIRE_POSTGRES=1 (CI), where they fail.
"""

import os
import uuid

import httpx
import psycopg
import pytest

from server import clock
from server.app import create_api
from server.db import Database
from server.migrate import upgrade
from server.settings import Settings

from . import media_dir  # noqa: F401 -- this run's own media directory, before any Settings is made


@pytest.fixture(autouse=True)
async def no_paid_events_left_behind():
    """Events a commerce test made are gone before the next test counts the catalogue."""
    yield
    from .commerce import remove_created_events

    await remove_created_events()


@pytest.fixture(autouse=True)
def real_time():
    """Tests may move the server's clock forward (server.clock.advance); each starts on time."""
    yield
    clock.reset()


POSTGRES_ADMIN_DSN = os.environ.get("TOUCHLINE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def _postgres_database() -> str:
    name = f"touchline_test_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(POSTGRES_ADMIN_DSN, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as exc:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required (REQUIRE_POSTGRES=1) but unreachable: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {exc}")
    return name


def _drop_postgres_database(name: str) -> None:
    with psycopg.connect(POSTGRES_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def database_url(request, tmp_path_factory):
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'touchline.db'}"
        upgrade(url)
        yield url
        return
    name = _postgres_database()
    url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    upgrade(url)
    yield url
    _drop_postgres_database(name)


@pytest.fixture(scope="session")
async def database(database_url):
    db = Database(database_url)
    yield db
    await db.dispose()


@pytest.fixture(scope="session")
def settings(database_url) -> Settings:
    # Every test signs in from the same address: the per-address limit is tested on its own app.
    # So are the analytics budgets (server/tests/api/analytics/test_budget.py).
    return Settings(
        environment="test",
        database_url=database_url,
        response_validation=True,
        login_attempts_per_address=1_000_000,
        # Stream tests move the clock by minutes with one address; the revocation bound is tested
        # against the setting (server/tests/media/delivery/test_stream_revocation.py).
        stream_token_seconds=3600,
        analytics_batches_per_address=1_000_000,
        analytics_batches_per_sender=1_000_000,
        # And the calendar feeds' read budget (server/tests/api/user/test_calendar_feed.py).
        calendar_reads_per_address=1_000_000,
    )


@pytest.fixture(scope="session")
def api(settings):
    app = create_api(settings)
    return app


def with_state(app, state: dict):
    """httpx's ASGI transport sends no lifespan events; give requests the state lifespan would."""

    async def wrapped(scope, receive, send):
        if scope["type"] == "http":
            scope = {**scope, "state": dict(state)}
        await app(scope, receive, send)

    wrapped.state = state  # type: ignore[attr-defined]  # test helpers find the database here
    return wrapped


@pytest.fixture(scope="session")
async def client(api, database, settings):
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings}))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as http:
        yield http


@pytest.fixture(scope="session")
async def catalogue(database):
    from .factories import build_catalogue

    async with database.session() as session:
        return await build_catalogue(session)


@pytest.fixture
async def seeded_match(database, catalogue):
    """A seeded match whose final score is known, with its highlights, stats, tags and a replay
    of its highlight on the test catalogue's channel (server/tests/seeded_match.py)."""
    from .seeded_match import seeded_match as loaded

    async with loaded(database, catalogue["channel"]) as match:
        yield match
