"""The server's background jobs: settlement, renewals and payment housekeeping run on their
intervals while the app runs, survive a failing round, and stop cleanly with the app."""

import asyncio
import contextlib
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from server import clock, jobs
from server.app import create_app
from server.migrate import upgrade
from server.models import CardHandle, IdempotencyKey, new_id
from server.realtime import emitter
from server.settings import Settings
from server.tests.billing import (
    ACTION_DELAY,
    active_contract,
    card,
    contract,
    new_viewer,
    pending_purchase,
    purchase,
    purchase_messages,
    sandbox,
    store_card,
)
from server.tests.commerce import product
from server.tests.mailbox import recording_socket

JOB_NAMES = {"touchline-job-settlement", "touchline-job-renewals", "touchline-job-payment-cleanup"}
TIMEOUT_S = 10


def fast(database_url: str, **overrides) -> Settings:
    intervals = {
        "settlement_interval_seconds": 0.02,
        "renewal_interval_seconds": 0.05,
        "payment_cleanup_interval_seconds": 0.05,
        "kickoff_interval_seconds": 0,  # tested in server/tests/services/test_event_admin.py
        "notices_interval_seconds": 0,  # tested in server/tests/services/test_status_notices.py
        "live_alerts_interval_seconds": 0,  # tested in server/tests/realtime/test_live_alerts.py
        "analytics_retention_interval_seconds": 0,  # tested in server/tests/services/test_analytics_retention.py
        "outbox_audit_retention_interval_seconds": 0,  # tested in server/tests/services/test_outbox_audit_retention.py
        "media_sweep_interval_seconds": 0,  # tested in server/tests/media/assets/test_sweep.py
        "qoe_alert_interval_seconds": 0,  # the QoE alerts' job, tested with its own module
        "outage_interval_seconds": 0,  # tested in server/tests/services/test_outage_credit.py
    }
    return Settings(environment="test", database_url=database_url, **{**intervals, **overrides})


async def eventually(check, timeout: float = TIMEOUT_S) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "the background job did not do its work in time"
        await asyncio.sleep(0.02)


def job_tasks() -> set[asyncio.Task]:
    return {t for t in asyncio.all_tasks() if t.get_name() in JOB_NAMES}


async def test_the_jobs_settle_renew_and_clean_up_while_running_then_stop_cleanly(database, database_url):
    provider = sandbox(database)
    bought, _ = await pending_purchase(database, provider, "4000000000003220")
    user_id = await new_viewer(database)
    await store_card(database, provider, user_id)
    now = clock.now()
    due = await active_contract(
        database,
        await product(database, "svod", on_sale=False),
        user_id,
        start_date=now - timedelta(days=30),
        period_end=now - timedelta(minutes=1),
    )
    async with database.session() as db:
        db.add(
            IdempotencyKey(
                id=new_id(),
                user_id=user_id,
                key=f"old-{new_id()}",
                operation="purchase_ppv",
                fingerprint="0" * 64,
                claim="c",
                locked_until=now,
                response_status=200,
                response_body={},
                created=now - timedelta(days=2),
                expires_at=now - timedelta(days=1),
            )
        )
        await db.commit()
    stale = await provider.tokenize(card(), owner_id=user_id)
    clock.advance(ACTION_DELAY + timedelta(minutes=20))  # the charge is decided, the token expired

    with recording_socket() as socket:
        async with jobs.running(fast(database_url), database) as tasks:
            assert {t.get_name() for t in tasks} == JOB_NAMES

            async def settled():
                return (await purchase(database, bought.id)).status == "success"

            async def renewed():
                return (await contract(database, due.id)).renewals == 1

            async def cleaned():
                async with database.session() as db:
                    keys = (await db.execute(select(IdempotencyKey.id).where(IdempotencyKey.user_id == user_id))).all()
                    tokens = (
                        await db.execute(
                            select(CardHandle.handle_hash).where(
                                CardHandle.owner_id == user_id, CardHandle.kind == "token"
                            )
                        )
                    ).all()
                return not keys and not tokens

            await eventually(settled)
            await eventually(renewed)
            await eventually(cleaned)
        assert all(t.done() for t in tasks) and not job_tasks()
    assert [m["status"] for m in purchase_messages(socket, bought.id)] == ["success"]
    assert [m["status"] for m in purchase_messages(socket, due.id)] == ["success"]
    async with database.session() as db:  # the stored card (not a token) is kept
        kinds = (await db.execute(select(CardHandle.kind).where(CardHandle.owner_id == user_id))).scalars().all()
    assert kinds == ["card"] and stale.token


async def test_a_round_that_fails_is_logged_and_the_job_runs_again(caplog):
    rounds = []

    async def flaky():
        rounds.append(clock.now())
        if len(rounds) == 1:
            raise RuntimeError("database unavailable")

    task = asyncio.create_task(jobs._every("flaky", 0.01, flaky))
    try:
        while len(rounds) < 3:
            await asyncio.sleep(0.01)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert "background job flaky failed" in caplog.text and "database unavailable" in caplog.text


def test_an_interval_of_zero_turns_a_job_off(database, database_url):
    settings = fast(database_url, renewal_interval_seconds=0, payment_cleanup_interval_seconds=0)
    assert set(jobs.jobs_for(settings, database)) == {"settlement"}
    defaults = Settings(environment="test", database_url=database_url)
    assert (
        defaults.settlement_interval_seconds,
        defaults.renewal_interval_seconds,
        defaults.payment_cleanup_interval_seconds,
    ) == (1.0, 3600.0, 3600.0)


async def test_the_app_starts_its_jobs_with_it_and_stops_them_on_shutdown(tmp_path):
    """The ASGI lifespan of create_app, as uvicorn drives it (once: the app is slow to build)."""
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'lifespan.db'}"
    await asyncio.to_thread(upgrade, database_url)
    previous = emitter.default._target
    app = create_app(fast(database_url, gc_full_collection_interval=0))
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    lifespan = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, inbox.get, outbox.put)
    )
    try:
        inbox.put_nowait({"type": "lifespan.startup"})
        assert (await asyncio.wait_for(outbox.get(), TIMEOUT_S))["type"] == "lifespan.startup.complete"
        assert {t.get_name() for t in job_tasks()} == JOB_NAMES
        inbox.put_nowait({"type": "lifespan.shutdown"})
        assert (await asyncio.wait_for(outbox.get(), TIMEOUT_S))["type"] == "lifespan.shutdown.complete"
        await asyncio.wait_for(lifespan, TIMEOUT_S)
        assert not job_tasks()
    finally:
        emitter.bind(previous)
        if not lifespan.done():
            lifespan.cancel()


def test_a_negative_interval_is_refused(database_url):
    with pytest.raises(ValueError):
        fast(database_url, settlement_interval_seconds=-1)
