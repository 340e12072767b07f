"""`touchline billing [--json] renew [--dry-run]`, run as staff would (CliRunner) against a real
server: the server runs the renewal job (POST /api/admin/billing/renew), charges, counts and
tells the viewers on its socket.

Each test has a server and database of its own: a renewal run looks at every contract of its
database."""

import asyncio
import http.server
import json
import threading
from datetime import timedelta
from types import SimpleNamespace

import httpx
import pytest
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD, SQLITE, server_settings, threaded_server
from server import clock
from server.tests.accounts import create_user, sign_in
from server.tests.billing import (
    active_contract,
    contract,
    new_viewer,
    private_database,
    renewal_charges,
    sandbox,
    store_card,
)
from server.tests.commerce import product
from server.tests.realtime.test_socket import Inbox, ask, open_client

runner = CliRunner()
CLEAN_ENV = {"TOUCHLINE_API_URL": None, "TOUCHLINE_STAFF_EMAIL": None, "TOUCHLINE_STAFF_PASSWORD": None}


@pytest.fixture
async def billing(tmp_path):
    """A server on a database of its own with a staff account; `database` to prepare contracts
    and read them back."""
    async with private_database(SQLITE, tmp_path) as database:
        staff = await create_user(database, role="admin")
        with threaded_server(server_settings(database.url)) as url:
            yield SimpleNamespace(url=url, staff=staff, database=database)


async def touchline(server, *args: str, **env: str | None):
    """`touchline billing ARGS` in a worker thread (the command runs its own event loop)."""
    staff = (
        {"TOUCHLINE_API_URL": server.url, "TOUCHLINE_STAFF_EMAIL": server.staff, "TOUCHLINE_STAFF_PASSWORD": PASSWORD}
        if server
        else {}
    )
    return await asyncio.to_thread(runner.invoke, app, ["billing", *args], env={**CLEAN_ENV, **staff, **env})


async def due_contract(database, user_id: str | None = None, *, canceled: bool = False):
    """A monthly svod contract whose period ended a minute ago; its viewer has a stored card."""
    user_id = user_id or await new_viewer(database)
    await store_card(database, sandbox(database), user_id)
    plan = await product(database, "svod", price_minor=1499)
    now = clock.now()
    extra = {"canceled_at": now, "auto_renew": False} if canceled else {}
    return await active_contract(
        database, plan, user_id, start_date=now - timedelta(days=30), period_end=now - timedelta(minutes=1), **extra
    )


async def test_renew_charges_each_due_contract_once_and_expires_the_canceled_ones(billing):
    renewing = await due_contract(billing.database)
    canceled = await due_contract(billing.database, canceled=True)

    result = await touchline(billing, "renew")

    assert result.exit_code == 0, result.output
    assert "2 contract(s) due: 1 renewed, 0 past due, 1 expired, 0 processing." in result.output
    assert (await contract(billing.database, renewing.id)).renewals == 1
    assert (await contract(billing.database, canceled.id)).status == "expired"
    assert len(await renewal_charges(billing.database, renewing.id)) == 1

    again = await touchline(billing, "renew")

    assert again.exit_code == 0, again.output
    assert "0 contract(s) due: 0 renewed" in again.output
    assert len(await renewal_charges(billing.database, renewing.id)) == 1  # never twice


async def test_a_dry_run_prints_the_apis_counts_as_json_and_charges_nothing(billing):
    due = await due_contract(billing.database)

    result = await touchline(billing, "--json", "renew", "--dry-run")

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
    assert (await contract(billing.database, due.id)).renewals == 0
    assert not await renewal_charges(billing.database, due.id)


async def test_a_dry_run_says_so_in_its_summary(billing):
    await due_contract(billing.database)
    result = await touchline(billing, "renew", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "Dry run (nothing charged or changed): 1 contract(s) due: 1 renewed" in result.output


async def test_the_viewer_is_told_of_the_renewal_on_the_socket(billing):
    email = await create_user(billing.database)
    async with httpx.AsyncClient(base_url=billing.url) as http:
        answer = await sign_in(http, email)
    assert answer.status_code == 200, answer.text
    signed_in = answer.json()["content"]
    user_id = signed_in["profile"]["userId"]
    renewing = await due_contract(billing.database, user_id)
    client = await open_client(billing.url, token=signed_in["tokenData"]["access_token"])
    try:
        inbox = Inbox(client)
        assert (await ask(client, "join-user-room", {"userId": user_id}))["ok"] is True

        result = await touchline(billing, "--json", "renew")

        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["announced"] == 1
        assert await inbox.next() == (
            "user-purchase-status",
            {"purchaseId": renewing.id, "status": "success", "productId": renewing.product_id},
        )
    finally:
        await client.disconnect()


async def test_a_viewer_account_is_refused_with_exit_code_1(billing):
    viewer = await create_user(billing.database)
    result = await touchline(billing, "renew", TOUCHLINE_STAFF_EMAIL=viewer)
    assert result.exit_code == 1 and "(forbidden_role)" in result.output


class RenewalsWithALeftover(http.server.BaseHTTPRequestHandler):
    """An admin API whose renewal run could not handle one of its two due contracts."""

    def do_POST(self):
        content: dict = {"tokenData": {"access_token": "token"}}
        if self.path == "/api/admin/billing/renew":
            content = {
                "dryRun": False,
                "due": 2,
                "renewed": 1,
                "pastDue": 0,
                "expired": 0,
                "processing": 0,
                "errors": 1,
                "announced": 1,
            }
        body = json.dumps({"error": False, "message": "", "content": content}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def leftover_api():
    api = http.server.HTTPServer(("127.0.0.1", 0), RenewalsWithALeftover)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    yield SimpleNamespace(url=f"http://127.0.0.1:{api.server_port}", staff="staff@example.com")
    api.shutdown()
    api.server_close()


async def test_a_contract_left_for_the_next_run_ends_with_exit_code_1(leftover_api):
    result = await touchline(leftover_api, "renew")
    assert result.exit_code == 1
    assert "2 contract(s) due: 1 renewed, 0 past due, 0 expired, 0 processing." in result.output
    assert "1 contract(s) could not be handled now (see the server's log); run again later." in result.output

    as_json = await touchline(leftover_api, "--json", "renew")
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["errors"] == 1
    assert "Error: 1 contract(s) could not be handled now" in as_json.stderr
