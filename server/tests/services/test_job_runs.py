"""Job leases: each background job's rounds run in one server process at a time, another takes
over when the holder stops or goes quiet, and every process sees the last run."""

import asyncio
import contextlib
from datetime import timedelta

import pytest
from sqlalchemy import delete

from server import clock, jobs
from server.models import JobLease
from server.services import job_runs
from server.settings import Settings


@pytest.fixture(autouse=True)
async def no_lease_left(database):
    """The leases these tests hold for made-up processes go with them: one left held would keep a
    later test's real job (the kickoff job, the settlement) from running until it expired."""
    yield
    async with database.write_session() as db:
        await db.execute(delete(JobLease).where(JobLease.holder.like("process-%")))
        await db.commit()


async def fresh(database, name: str) -> str:
    async with database.write_session() as db:
        await db.execute(delete(JobLease).where(JobLease.name == name))
        await db.commit()
    return name


async def test_a_second_process_cannot_claim_a_job_its_holder_keeps_renewing(database):
    name = await fresh(database, "settlement")
    assert await job_runs.claim(database, name, "process-a", 1.0)
    assert not await job_runs.claim(database, name, "process-b", 1.0)
    clock.advance(timedelta(seconds=1))
    assert await job_runs.claim(database, name, "process-a", 1.0)  # renewed
    assert not await job_runs.claim(database, name, "process-b", 1.0)


async def test_another_process_takes_over_once_the_silent_holders_lease_expires(database):
    name = await fresh(database, "renewals")
    assert await job_runs.claim(database, name, "process-a", 10.0)
    clock.advance(timedelta(seconds=job_runs.lease_seconds(10.0) - 1))
    assert not await job_runs.claim(database, name, "process-b", 10.0)
    clock.advance(timedelta(seconds=1))
    assert await job_runs.claim(database, name, "process-b", 10.0)
    assert not await job_runs.claim(database, name, "process-a", 10.0)


async def test_a_released_lease_is_taken_at_the_next_round(database):
    name = await fresh(database, "kickoff")
    assert await job_runs.claim(database, name, "process-a", 3600.0)
    await job_runs.release(database, name, "process-a")
    assert await job_runs.claim(database, name, "process-b", 3600.0)


async def test_concurrent_claims_give_the_lease_to_exactly_one(database):
    name = await fresh(database, "payment-cleanup")
    answers = await asyncio.gather(*(job_runs.claim(database, name, f"process-{i}", 1.0) for i in range(8)))
    assert answers.count(True) == 1


async def test_two_schedulers_of_one_job_run_each_round_once(database):
    name = await fresh(database, "settlement")
    rounds: list[str] = []

    def worker(holder: str):
        async def work() -> None:
            rounds.append(holder)

        return jobs._every(name, 0.02, work, jobs.Lease(database, holder))

    tasks = [asyncio.create_task(worker(holder)) for holder in ("process-a", "process-b")]
    try:
        while len(rounds) < 10:
            await asyncio.sleep(0.01)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    assert len(set(rounds)) == 1  # one process ran every round; the other only asked


async def test_the_schedule_shows_the_last_round_whichever_process_ran_it(database, database_url):
    name = await fresh(database, "kickoff")
    assert await job_runs.claim(database, name, "process-b", 10.0)
    before = clock.now()
    await job_runs.ran(database, name, "process-b", ok=False)
    settings = Settings(environment="test", database_url=database_url, kickoff_interval_seconds=10)
    async with database.session() as db:
        states = {state.name: state for state in await job_runs.schedule(db, settings)}
    kickoff = states["kickoff"]
    assert (kickoff.last_outcome, kickoff.holder, kickoff.interval_seconds) == ("failed", "process-b", 10.0)
    assert kickoff.last_run is not None and before <= kickoff.last_run <= clock.now()
