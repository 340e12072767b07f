"""`touchline billing renew [--dry-run] [--json]`, run as an operator would (CliRunner) against
the configured database: it charges, counts, and tells viewers through Redis when there is one."""

import asyncio
import json
import time
from datetime import timedelta

import pytest
from typer.testing import CliRunner

from cli.main import app
from server import clock
from server.db import Database
from server.migrate import upgrade
from server.realtime.socket import REDIS_CHANNEL
from server.settings import get_settings
from server.tests.billing import active_contract, contract, new_viewer, renewal_charges, sandbox, store_card
from server.tests.commerce import product
from server.tests.realtime.support import RedisServer, redis_server_binary

runner = CliRunner()


@pytest.fixture
def database_url(tmp_path, monkeypatch):
    url = f"sqlite+aiosqlite:///{tmp_path / 'billing.db'}"
    upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    for name in ("REDIS_URL", "TOUCHLINE_REDIS_URL", "TOUCHLINE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def at(url: str, work):
    """Run `work(database)` on the database at `url` (this test has no event loop of its own)."""

    async def main():
        database = Database(url)
        try:
            return await work(database)
        finally:
            await database.dispose()

    return asyncio.run(main())


def due_contract(url: str, *, canceled: bool = False):
    """A monthly svod contract whose period ended a minute ago; its viewer has a stored card."""

    async def make(database):
        user_id = await new_viewer(database)
        await store_card(database, sandbox(database), user_id)
        plan = await product(database, "svod", price_minor=1499)
        now = clock.now()
        extra = {"canceled_at": now, "auto_renew": False} if canceled else {}
        return await active_contract(
            database, plan, user_id, start_date=now - timedelta(days=30), period_end=now - timedelta(minutes=1), **extra
        )

    return at(url, make)


def test_renew_charges_due_contracts_and_prints_the_counts(database_url):
    renewing, canceled = due_contract(database_url), due_contract(database_url, canceled=True)

    result = runner.invoke(app, ["billing", "renew"])

    assert result.exit_code == 0, result.output
    assert "2 contract(s) due: 1 renewed, 0 past due, 1 expired, 0 processing." in result.output
    assert "No Redis URL" in result.output  # nobody could be told on the socket
    assert at(database_url, lambda db: contract(db, renewing.id)).renewals == 1
    assert at(database_url, lambda db: contract(db, canceled.id)).status == "expired"
    assert len(at(database_url, lambda db: renewal_charges(db, renewing.id))) == 1

    again = runner.invoke(app, ["billing", "renew"])
    assert again.exit_code == 0, again.output
    assert "0 contract(s) due" in again.output and "No Redis URL" not in again.output
    assert len(at(database_url, lambda db: renewal_charges(db, renewing.id))) == 1  # never twice


def test_a_dry_run_prints_json_and_charges_nothing(database_url):
    c = due_contract(database_url)

    result = runner.invoke(app, ["billing", "renew", "--dry-run", "--json"])

    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "dryRun": True,
        "due": 1,
        "renewed": 1,
        "pastDue": 0,
        "expired": 0,
        "processing": 0,
        "errors": 0,
        "announced": 0,
    }
    assert at(database_url, lambda db: contract(db, c.id)).renewals == 0
    assert not at(database_url, lambda db: renewal_charges(db, c.id))


def test_with_redis_the_viewers_are_told_through_it(database_url, monkeypatch):
    redis_server = RedisServer(redis_server_binary()).start()
    try:
        listener = redis_server.client().pubsub()
        listener.subscribe(REDIS_CHANNEL)  # stands in for a server process
        assert listener.get_message(timeout=2)["type"] == "subscribe"
        c = due_contract(database_url)
        monkeypatch.setenv("REDIS_URL", redis_server.url)
        get_settings.cache_clear()

        result = runner.invoke(app, ["billing", "renew", "--json"])

        assert result.exit_code == 0, result.output
        counts = json.loads(result.stdout)
        assert (counts["renewed"], counts["announced"]) == (1, 1)
        deadline = time.monotonic() + 5
        message = None
        while message is None and time.monotonic() < deadline:
            message = listener.get_message(timeout=0.5)
        assert message is not None and c.id.encode() in message["data"]
        assert b"user-purchase-status" in message["data"]
        listener.close()
    finally:
        redis_server.stop()
