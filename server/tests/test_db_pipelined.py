"""Writes sent together (Database's `run_pipelined`): in order, in the caller's transaction, with
each one's rowcount, on SQLite one by one and on PostgreSQL in one round trip."""

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, bindparam, insert, select, update

from server.db import run_pipelined

metadata = MetaData()
probe = Table("pipeline_probe", metadata, Column("id", Integer, primary_key=True), Column("n", Integer))
ADD = insert(probe).values(id=bindparam("id"), n=bindparam("n"))
BUMP = update(probe).where(probe.c.id == bindparam("row")).values(n=probe.c.n + 1)


@pytest.fixture
async def table(database):
    async with database.engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
    yield
    async with database.engine.begin() as conn:
        await conn.run_sync(metadata.drop_all)


async def rows(database) -> list[tuple[int, int]]:
    async with database.engine.connect() as conn:
        return [tuple(row) for row in await conn.execute(select(probe.c.id, probe.c.n).order_by(probe.c.id))]


async def test_writes_run_in_order_and_report_their_rowcounts(database, table):
    counts = await database.write_transaction(
        lambda conn: run_pipelined(conn, [(ADD, {"id": 1, "n": 10}), (BUMP, {"row": 1}), (BUMP, {"row": 2})])
    )
    assert counts == [1, 1, 0]  # the bump saw the insert before it; no row 2
    assert await rows(database) == [(1, 11)]


async def test_a_failing_write_rolls_back_the_others_of_its_transaction(database, table):
    def work(conn):
        run_pipelined(conn, [(ADD, {"id": 1, "n": 10}), (ADD, {"id": 1, "n": 20})])  # the second repeats the key

    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        await database.write_transaction(work)
    assert await rows(database) == []
