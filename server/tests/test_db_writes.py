"""Database.write_transaction: short write transactions, batched on SQLite, each all or nothing."""

import asyncio
import uuid

import pytest
from sqlalchemy import Connection, delete, insert, select

from server import clock
from server.models import JobLease


def lease_name() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"


def add_lease(name: str, *, fail: bool = False):
    def work(conn: Connection) -> str:
        conn.execute(insert(JobLease).values(name=name, holder="test", expires_at=clock.now()))
        if fail:
            raise LookupError(f"{name} changed its mind")
        return name

    return work


async def names(database, wanted: list[str]) -> set[str]:
    async with database.session() as db:
        return set(await db.scalars(select(JobLease.name).where(JobLease.name.in_(wanted))))


@pytest.fixture
async def cleanup(database):
    made: list[str] = []
    yield made
    async with database.session() as db:
        await db.execute(delete(JobLease).where(JobLease.name.in_(made)))
        await db.commit()


async def test_concurrent_writes_all_commit_and_each_gets_its_own_answer(database, cleanup):
    wanted = [lease_name() for _ in range(20)]
    cleanup.extend(wanted)
    answers = await asyncio.gather(*(database.write_transaction(add_lease(name)) for name in wanted))
    assert answers == wanted
    assert await names(database, wanted) == set(wanted)


async def test_a_write_that_raises_undoes_only_itself(database, cleanup):
    kept, undone = lease_name(), lease_name()
    cleanup.extend([kept, undone])
    outcomes = await asyncio.gather(
        database.write_transaction(add_lease(kept)),
        database.write_transaction(add_lease(undone, fail=True)),
        return_exceptions=True,
    )
    assert outcomes[0] == kept and isinstance(outcomes[1], LookupError)
    assert await names(database, [kept, undone]) == {kept}


async def test_a_write_that_breaks_a_constraint_fails_alone(database, cleanup):
    name = lease_name()
    cleanup.append(name)
    outcomes = await asyncio.gather(
        database.write_transaction(add_lease(name)), database.write_transaction(add_lease(name)), return_exceptions=True
    )
    assert outcomes[0] == name and isinstance(outcomes[1], Exception)
    assert await names(database, [name]) == {name}
