"""`touchline codes …`, run as staff would (CliRunner) against a real server."""

import csv
import io
import json
import re

import httpx
import pytest
from typer.testing import CliRunner

from cli.commands.codes import CSV_HEADER
from cli.main import app
from cli.tests.conftest import PASSWORD
from cli.tests.test_users import sign_up
from server.tests import commerce

runner = CliRunner()
NOBODY = "f" * 24
CLEAN_ENV = {
    "TOUCHLINE_API_URL": None,
    "TOUCHLINE_STAFF_EMAIL": None,
    "TOUCHLINE_STAFF_PASSWORD": None,
    "COLUMNS": "300",
}
CODE = re.compile(r"(?:[A-Z0-9]{1,12}-)?[23456789A-HJ-NP-Z]{4}-[23456789A-HJ-NP-Z]{4}-[23456789A-HJ-NP-Z]{4}")


def touchline(server, *args: str, **env: str | None):
    staff = (
        {"TOUCHLINE_API_URL": server.url, "TOUCHLINE_STAFF_EMAIL": server.staff, "TOUCHLINE_STAFF_PASSWORD": PASSWORD}
        if server
        else {}
    )
    return runner.invoke(app, ["codes", *args], env={**CLEAN_ENV, **staff, **env})


def as_json(result):
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
async def ppv(accounts_db) -> tuple[str, str]:
    """(product id, event id) of a pay-per-view product in the server's database."""
    event = await commerce.paid_event(accounts_db.database)
    return (await commerce.product(accounts_db.database, "ppv", event_id=event.id)).id, event.id


def redeem(server, access: str, code: str) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/commerce/access_code/redeem",
        json={"code": code},
        headers={"Authorization": f"Bearer {access}"},
    )


# --- issue ---------------------------------------------------------------------------------------


def test_issue_prints_csv_a_header_row_then_one_code_a_row(live_server, ppv):
    product_id, _ = ppv
    result = touchline(
        live_server,
        "issue",
        "--product",
        product_id,
        "--count",
        "3",
        "--uses",
        "2",
        "--expires",
        "2099-12-31",
        "--prefix",
        "derby",
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["code", "batch_id", "product_id", "uses", "expires_at"]
    assert len(rows) == 4 and len({r[0] for r in rows[1:]}) == 3
    batch_ids = {r[1] for r in rows[1:]}
    assert len(batch_ids) == 1
    for code, _, product, uses, expires in rows[1:]:
        assert code.startswith("DERBY-") and CODE.fullmatch(code)
        assert (product, uses, expires) == (product_id, "2", "2099-12-31T23:59:59Z")


def test_issue_json_prints_the_batch(live_server, ppv):
    product_id, _ = ppv
    batch = as_json(touchline(live_server, "issue", "--product", product_id, "--count", "2", "--format", "json"))
    assert (batch["product_id"], batch["count"], batch["uses"], batch["expires_at"]) == (product_id, 2, 1, None)
    assert len(batch["codes"]) == 2 and all(CODE.fullmatch(c) for c in batch["codes"])


def test_the_groups_json_option_makes_issue_print_json(live_server, ppv):
    product_id, _ = ppv
    batch = as_json(touchline(live_server, "--json", "issue", "--product", product_id, "--count", "1"))
    assert batch["product_id"] == product_id and len(batch["codes"]) == 1


def test_a_large_count_is_issued_in_batches_with_a_progress_bar_on_stderr(live_server, ppv):
    product_id, _ = ppv
    result = touchline(live_server, "issue", "--product", product_id, "--count", "5", "--batch-size", "2")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == CSV_HEADER and len(rows) == 6 and len({r[0] for r in rows[1:]}) == 5
    assert len({r[1] for r in rows[1:]}) == 3  # 2 + 2 + 1
    assert "Issuing codes" in result.stderr and "5/5" in result.stderr


def test_a_batched_issue_prints_one_json_object_with_every_code_and_batch(live_server, ppv):
    product_id, _ = ppv
    content = as_json(
        touchline(live_server, "--json", "issue", "--product", product_id, "--count", "3", "--batch-size", "2")
    )
    assert content["count"] == 3 and len(set(content["codes"])) == 3 and len(content["batchIds"]) == 2
    assert content["product_id"] == product_id and "batchId" not in content


def test_one_batch_shows_no_progress_bar(live_server, ppv):
    product_id, _ = ppv
    result = touchline(live_server, "issue", "--product", product_id, "--count", "2")
    assert result.exit_code == 0 and result.stderr == ""


def test_issue_refuses_json_with_format_csv_before_anything_is_sent():
    result = touchline(None, "--json", "issue", "--product", NOBODY, "--count", "1", "--format", "csv")
    assert result.exit_code == 1, result.output
    assert "--format csv contradicts --json" in result.output


def test_issue_for_an_event_grants_its_pay_per_view_product(live_server, ppv):
    product_id, event_id = ppv
    batch = as_json(
        touchline(
            live_server,
            "issue",
            "--event",
            event_id,
            "--count",
            "1",
            "--format",
            "json",
            "--expires",
            "2099-06-30T18:00:00+02:00",
        )
    )
    assert batch["product_id"] == product_id and batch["expires_at"] == "2099-06-30T16:00:00Z"


def test_issued_codes_can_be_redeemed_by_a_viewer(live_server, ppv):
    product_id, _ = ppv
    batch = as_json(touchline(live_server, "issue", "--product", product_id, "--count", "1", "--format", "json"))
    answer = redeem(live_server, sign_up(live_server)["access"], batch["codes"][0].lower())
    assert answer.status_code == 200, answer.text
    assert answer.json()["content"]["purchase"]["paymentAction"] == "redeemAccessCode"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--count", "1"], "Give either --product or --event"),
        (["--count", "1", "--product", NOBODY, "--event", NOBODY], "Give either --product or --event"),
        (["--count", "1", "--product", "42"], "'42' is not a product id"),
        (["--count", "1", "--product", NOBODY, "--expires", "2001-01-01"], "is in the past"),
        (["--count", "1", "--product", NOBODY, "--expires", "soon"], "is not a date"),
        (["--count", "1", "--product", NOBODY, "--prefix", "DERBY-CUP"], "must be at most 12 letters and digits"),
    ],
    ids=["neither", "both", "bad-id", "past", "not-a-date", "bad-prefix"],
)
def test_a_malformed_issue_ends_with_exit_code_1_before_anything_is_sent(args, says):
    result = touchline(None, "issue", *args)
    assert result.exit_code == 1, result.output
    assert says in result.output


def test_issuing_for_an_unknown_product_ends_with_exit_code_1(live_server):
    result = touchline(live_server, "issue", "--product", NOBODY, "--count", "1")
    assert result.exit_code == 1 and "(product_not_found)" in result.output


def test_a_viewer_account_cannot_issue_codes(live_server, ppv):
    result = touchline(
        live_server, "issue", "--product", ppv[0], "--count", "1", TOUCHLINE_STAFF_EMAIL=live_server.viewer
    )
    assert result.exit_code == 1 and "(forbidden_role)" in result.output


# --- list and revoke -----------------------------------------------------------------------------


def test_list_shows_each_code_with_its_state(live_server, ppv):
    product_id, _ = ppv
    batch = as_json(
        touchline(live_server, "issue", "--product", product_id, "--count", "2", "--uses", "3", "--format", "json")
    )
    used = batch["codes"][0]
    assert redeem(live_server, sign_up(live_server)["access"], used).status_code == 200

    result = touchline(live_server, "list", "--batch", batch["batchId"])

    assert result.exit_code == 0, result.output
    [row] = [line for line in result.output.splitlines() if used in line]
    assert "active (1/3 used)" in row and product_id in row
    [other] = [line for line in result.output.splitlines() if batch["codes"][1] in line]
    assert "active (0/3 used)" in other


def test_list_json_filters_by_code_beginning_and_status(live_server, ppv):
    product_id, _ = ppv
    batch = as_json(
        touchline(
            live_server, "issue", "--product", product_id, "--count", "1", "--prefix", "LISTME", "--format", "json"
        )
    )
    [code] = batch["codes"]
    content = as_json(touchline(live_server, "--json", "list", "--code", code.lower()))
    assert [e["code"] for e in content["entries"]] == [code]
    content = as_json(touchline(live_server, "--json", "list", "--batch", batch["batchId"], "--status", "revoked"))
    assert content["entries"] == []


def test_revoke_stops_a_code_and_list_shows_it_revoked(live_server, ppv):
    product_id, _ = ppv
    batch = as_json(touchline(live_server, "issue", "--product", product_id, "--count", "1", "--format", "json"))
    [entry] = as_json(touchline(live_server, "--json", "list", "--batch", batch["batchId"]))["entries"]

    result = touchline(live_server, "revoke", entry["_id"])

    assert result.exit_code == 0, result.output
    assert f"Access code {entry['code']} ({entry['_id']}) is revoked" in result.output
    assert redeem(live_server, sign_up(live_server)["access"], entry["code"]).status_code == 404
    [after] = as_json(touchline(live_server, "--json", "list", "--batch", batch["batchId"]))["entries"]
    assert (after["status"], after["revoked"]) == ("revoked", True)
    again = as_json(touchline(live_server, "--json", "revoke", entry["_id"]))
    assert again["status"] == "revoked"


def test_list_says_when_nothing_matches(live_server):
    result = touchline(live_server, "list", "--batch", NOBODY)
    assert result.exit_code == 0 and "No access code matches." in result.output


def test_show_prints_a_code_its_state_and_who_redeemed_it(live_server, ppv):
    product_id, _ = ppv
    batch = as_json(touchline(live_server, "issue", "--product", product_id, "--count", "1", "--format", "json"))
    [entry] = as_json(touchline(live_server, "--json", "list", "--batch", batch["batchId"]))["entries"]
    fan = sign_up(live_server)
    assert redeem(live_server, fan["access"], entry["code"]).status_code == 200

    result = touchline(live_server, "show", entry["_id"])

    assert result.exit_code == 0, result.output
    assert f"Code:     {entry['code']}" in result.output and "used (1/1 used)" in result.output
    [row] = [line for line in result.output.splitlines() if fan["userId"] in line]
    assert row.strip().startswith(fan["userId"])


def test_show_json_prints_the_code_as_the_api_answered(live_server, ppv):
    product_id, _ = ppv
    batch = as_json(touchline(live_server, "issue", "--product", product_id, "--count", "1", "--format", "json"))
    [entry] = as_json(touchline(live_server, "--json", "list", "--batch", batch["batchId"]))["entries"]
    shown = as_json(touchline(live_server, "--json", "show", entry["_id"]))
    assert shown == entry and shown["redemptions"] == []


def test_showing_an_unknown_code_ends_with_exit_code_1(live_server):
    result = touchline(live_server, "show", NOBODY)
    assert result.exit_code == 1 and "Access code not found (access_code_not_found)" in result.output


def test_revoking_an_unknown_code_ends_with_exit_code_1(live_server):
    result = touchline(live_server, "revoke", NOBODY)
    assert result.exit_code == 1 and "Access code not found (access_code_not_found)" in result.output
