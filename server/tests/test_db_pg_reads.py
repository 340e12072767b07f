"""Hot reads in read sessions (`session_rows`, `Database.read_rows`): on PostgreSQL straight through
psycopg (server/db_pg_reads.py), elsewhere on the session; the same rows either way, and a
restarted PostgreSQL survived without a ping before every read."""

import asyncio
import time
from datetime import UTC, datetime

import psycopg
import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, bindparam, func, insert, select, update

from server.db import Database, session_rows, unavailable
from server.migrate import upgrade
from server.models.types import UTCDateTime
from server.tests.conftest import _drop_postgres_database, _postgres_database
from server.tests.realtime.support import TcpProxy

metadata = MetaData()
probe = Table(
    "read_probe",
    metadata,
    Column("id", String(8), primary_key=True),
    Column("kind", String(8)),
    Column("n", Integer),
    Column("at", UTCDateTime),
)
KINDS = (
    select(probe.c.id, probe.c.at)
    .where(probe.c.kind.in_(bindparam("kinds", expanding=True)), probe.c.n >= bindparam("least"))
    .order_by(probe.c.n.desc())
    .limit(2)
)
NOT_KINDS = select(probe.c.id).where(probe.c.kind.not_in(bindparam("kinds", expanding=True))).order_by(probe.c.id)
COUNT = select(func.count()).select_from(probe).where(probe.c.kind == "goal")
_bumped = (
    update(probe)
    .where(probe.c.id == bindparam("row"))
    .values(n=probe.c.n + 1)
    .returning(probe.c.id, probe.c.n)
    .cte("bumped")
)
BUMP = select(_bumped.c.id, _bumped.c.n)  # a statement that writes: Database.commit_statement
N = select(probe.c.n).where(probe.c.id == bindparam("row"))
AT = datetime(2026, 11, 27, 18, 30, tzinfo=UTC)


@pytest.fixture
async def table(database):
    async with database.engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
        await conn.execute(
            insert(probe),
            [
                {"id": "a", "kind": "goal", "n": 1, "at": AT},
                {"id": "b", "kind": "goal", "n": 5, "at": AT},
                {"id": "c", "kind": "save", "n": 9, "at": AT},
                {"id": "d", "kind": "card", "n": 7, "at": AT},
            ],
        )
    yield
    async with database.engine.begin() as conn:
        await conn.run_sync(metadata.drop_all)


async def test_a_read_session_answers_what_a_plain_session_answers(database, table):
    parameters = {"kinds": ["goal", "save"], "least": 2}
    async with database.read_session() as db:
        hot = await session_rows(db, KINDS, parameters)
    async with database.session() as db:
        plain = (await db.execute(KINDS, parameters)).all()
    assert [tuple(row) for row in hot] == [tuple(row) for row in plain] == [("c", AT), ("b", AT)]
    # Rows by column name, and the column types' own conversions (an aware UTC time).
    assert hot[0].id == "c"
    assert hot[0].at == AT
    assert hot[0].at.tzinfo is not None


async def test_lists_bound_to_in_and_not_in_of_any_length(database, table):
    async with database.read_session() as db:
        assert [row.id for row in await session_rows(db, KINDS, {"kinds": ["card"], "least": 0})] == ["d"]
        assert await session_rows(db, KINDS, {"kinds": [], "least": 0}) == []
        assert [row.id for row in await session_rows(db, NOT_KINDS, {"kinds": ["goal"]})] == ["c", "d"]
        assert [row.id for row in await session_rows(db, NOT_KINDS, {"kinds": []})] == ["a", "b", "c", "d"]
        assert (await session_rows(db, COUNT, {}))[0][0] == 2


def _plan(database, sql: str, parameters: dict) -> str:
    dsn = database.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn) as conn:
        conn.execute("CREATE INDEX read_probe_kind_n ON read_probe (kind, n)")
        conn.execute("SET enable_seqscan = off")  # four rows: as if there were 100,000
        plan = conn.execute(f"EXPLAIN {sql}", parameters).fetchall()
        conn.rollback()
    return "\n".join(line for (line,) in plan)


async def test_a_list_of_one_value_is_compared_with_equals_so_an_index_gives_the_order(database, table):
    if database.is_sqlite:
        pytest.skip("PostgreSQL's reader")
    from sqlalchemy.dialects import postgresql

    from server.db_pg_reads import _prepare

    prepared = _prepare(KINDS, postgresql.psycopg.dialect())
    values = prepared.compiled.construct_params({"kinds": [], "least": 0})
    one = prepared.sql(frozenset({"kinds"}))
    assert "read_probe.kind = %(kinds)s" in one
    assert "Sort" not in _plan(database, one, {**values, "kinds": "goal"})
    # Of several values PostgreSQL sorts what it found, whichever way the list is written.
    many = prepared.sql(frozenset())
    assert "read_probe.kind = ANY(%(kinds)s)" in many
    assert "Sort" in _plan(database, many, {**values, "kinds": ["goal", "card"]})
    async with database.read_session() as db:
        assert [row.id for row in await session_rows(db, KINDS, {"kinds": ["goal"], "least": 0})] == ["b", "a"]
        assert [row.id for row in await session_rows(db, NOT_KINDS, {"kinds": ["card"]})] == ["a", "b", "c"]


async def test_the_database_read_rows_agree(database, table):
    rows = await database.read_rows(KINDS, {"kinds": ["goal"], "least": 0})
    assert [(row.id, row.at) for row in rows] == [("b", AT), ("a", AT)]


async def test_a_write_session_reads_on_its_own_connection_and_sees_its_own_writes(database, table):
    async with database.write_session() as db:
        await db.execute(insert(probe).values(id="e", kind="goal", n=3, at=AT))
        assert (await session_rows(db, COUNT, {}))[0][0] == 3
        await db.rollback()


async def test_a_statement_that_writes_commits_on_its_own_on_postgresql(database, table):
    bumped = await database.commit_statement(BUMP, {"row": "a"})
    if database.is_sqlite:
        assert bumped is None  # the caller goes its general way
        return
    assert [(row.id, row.n) for row in bumped] == [("a", 2)]
    async with database.session() as db:  # another connection sees it: committed
        assert (await db.execute(N, {"row": "a"})).scalar_one() == 2


def test_a_column_default_computed_in_python_is_refused_rather_than_written_as_null():
    from sqlalchemy.dialects import postgresql

    from server.db_pg_reads import _prepare
    from server.models import AuthSession

    touched = update(AuthSession).values(last_used=AT).returning(AuthSession.id).cte("touched")
    with pytest.raises(ValueError, match="default computed in Python"):
        _prepare(select(touched.c.id), postgresql.psycopg.dialect())


@pytest.fixture
async def behind_proxy():
    """A database of its own, reached through a TCP proxy that can play a restarting server."""
    name = _postgres_database()
    direct = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    await asyncio.to_thread(upgrade, direct)  # alembic runs its own event loop
    proxy = await TcpProxy(5432).start()
    database = Database(f"postgresql+psycopg://postgres@127.0.0.1:{proxy.port}/{name}")
    async with database.engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
        await conn.execute(insert(probe).values(id="a", kind="goal", n=1, at=AT))
    try:
        yield database, proxy
    finally:
        await database.dispose()
        await proxy.aclose()
        _drop_postgres_database(name)


async def test_reads_fail_fast_while_postgresql_restarts_and_come_back_without_a_restart(behind_proxy):
    database, proxy = behind_proxy
    assert [row.id for row in await database.read_rows(KINDS, {"kinds": ["goal"], "least": 0})] == ["a"]

    await proxy.go_down()
    started = time.monotonic()
    with pytest.raises(psycopg.OperationalError) as refused:
        await database.read_rows(KINDS, {"kinds": ["goal"], "least": 0})
    assert time.monotonic() - started < 5
    assert unavailable(refused.value)  # the API answers 503 database_unavailable

    await proxy.come_up()
    # The connections from before the restart are gone; the read needs no retry of its caller.
    assert [row.id for row in await database.read_rows(KINDS, {"kinds": ["goal"], "least": 0})] == ["a"]
    async with database.read_session() as db:
        assert (await session_rows(db, COUNT, {}))[0][0] == 1


async def test_a_connection_the_server_ended_is_replaced_on_the_read_that_meets_it(behind_proxy):
    database, _proxy = behind_proxy
    for _ in range(3):  # a few connections in the pool
        assert await database.read_rows(COUNT, {})
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
        ended = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (database.engine.url.database,),
        ).fetchone()
    assert ended and ended[0] >= 1
    assert (await database.read_rows(COUNT, {}))[0][0] == 1


async def test_a_statement_that_writes_is_not_asked_again_when_its_connection_broke(behind_proxy):
    database, _proxy = behind_proxy
    assert [row.n for row in await database.commit_statement(BUMP, {"row": "a"})] == [2]
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (database.engine.url.database,),
        )
    # Its caller cannot know whether it was committed, so it is told, not answered twice.
    assert await database.commit_statement(BUMP, {"row": "a"}) is None
    assert [row.n for row in await database.commit_statement(BUMP, {"row": "a"})] == [3]
