"""Analytics events are deleted after the retention, by a job that runs in one process at a time."""

import asyncio
from datetime import timedelta

from sqlalchemy import select

from server import clock, jobs
from server.models import AnalyticsEvent
from server.services import analytics_retention, job_runs
from server.settings import Settings

TIMEOUT_S = 10


async def add_events(database, name: str, *, received_days_ago: float, count: int) -> None:
    received = clock.now() - timedelta(days=received_days_ago)
    async with database.session() as db:
        db.add_all(
            AnalyticsEvent(
                kind="track",
                name=name,
                tenant="touchline",
                anonymous_id="retention-test",
                properties={"n": n},
                occurred=received,
                received=received,
            )
            for n in range(count)
        )
        await db.commit()


async def count(database, name: str) -> int:
    async with database.session() as db:
        return len((await db.scalars(select(AnalyticsEvent.id).where(AnalyticsEvent.name == name))).all())


def only_retention(database_url: str, **overrides) -> Settings:
    off = {setting: 0 for name, setting in job_runs.INTERVAL_SETTINGS.items() if name != "analytics-retention"}
    return Settings(environment="test", database_url=database_url, **{**off, **overrides})


async def test_events_older_than_the_retention_are_deleted_in_batches_and_newer_ones_kept(database, database_url):
    settings = only_retention(database_url, analytics_retention_days=30)
    await add_events(database, "retention_old", received_days_ago=30.01, count=5)
    await add_events(database, "retention_new", received_days_ago=29.99, count=3)
    deleted = await analytics_retention.delete_expired(database, settings, batch=2)
    assert deleted >= 5
    assert await count(database, "retention_old") == 0
    assert await count(database, "retention_new") == 3


async def test_the_retention_job_runs_under_its_lease_and_is_off_at_zero(database, database_url):
    assert Settings(environment="test").analytics_retention_days == 90
    assert "analytics-retention" not in jobs.jobs_for(
        only_retention(database_url, analytics_retention_interval_seconds=0), database
    )
    settings = only_retention(database_url, analytics_retention_interval_seconds=0.05, analytics_retention_days=1)
    assert set(jobs.jobs_for(settings, database)) == {"analytics-retention"}
    await add_events(database, "retention_job_old", received_days_ago=2, count=2)
    await add_events(database, "retention_job_new", received_days_ago=0, count=1)
    async with jobs.running(settings, database):
        deadline = asyncio.get_running_loop().time() + TIMEOUT_S
        while (
            await count(database, "retention_job_old")
            or (await retention_state(database, settings)).last_outcome != "ok"
        ):
            assert asyncio.get_running_loop().time() < deadline, "the retention job did not delete old events"
            await asyncio.sleep(0.02)
    assert await count(database, "retention_job_new") == 1
    assert (await retention_state(database, settings)).enabled


async def retention_state(database, settings):
    """The job's row on the dashboard: its outcome is recorded once a round has ended."""
    async with database.session() as db:
        [state] = [s for s in await job_runs.schedule(db, settings) if s.name == "analytics-retention"]
    return state
