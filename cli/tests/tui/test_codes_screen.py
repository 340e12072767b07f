"""The Access codes screen of `touchline admin` (cli/tui/codes.py), driven by Textual's pilot: against
a real test server (cli/tests/conftest.py), and with fixed answers (FixedApi) where no server is
needed or none may be called."""

import csv
import json
import uuid

import pytest
from textual.widgets import DataTable, Input, Label

from cli.commands.codes import CSV_HEADER
from cli.tests.test_codes import redeem
from cli.tests.test_users import sign_up
from cli.tui.app import TouchlineAdmin
from cli.tui.codes import CodesScreen, shorten
from cli.tui.codes_forms import ExportForm, IssueForm
from cli.tui.widgets import ConfirmScreen, HelpScreen, short_time
from server.tests import commerce

from .capture import text_capture
from .fixed_data import ACCESS_CODES, PRODUCTS, FixedApi
from .test_admin_tui import SIZE, cells, staff_api, wait_until


@pytest.fixture(scope="module")
async def product(accounts_db) -> dict:
    """A pay-per-view product in the server's database, with a title of its own to pick it by."""
    event = await commerce.paid_event(accounts_db.database)
    row = await commerce.product(
        accounts_db.database, "ppv", event_id=event.id, title=f"Tui Derby {uuid.uuid4().hex[:6]}"
    )
    return {"_id": row.id, "title": row.title}


async def open_codes(pilot) -> CodesScreen:
    await pilot.press("c")
    screen = pilot.app.screen
    assert isinstance(screen, CodesScreen)
    return screen


async def type_into(pilot, field: str, text: str) -> None:
    """Replace the field's text (ctrl+u deletes what is left of the cursor)."""
    if pilot.app.screen.query_one(f"#{field}", Input).value != text:
        await pilot.click(f"#{field}")
        await pilot.press("end", "ctrl+u", *text)


async def fill_issue_form(
    pilot, product: str | None, count: str = "", uses: str = "1", expires: str = "", prefix: str = ""
) -> IssueForm:
    """Open the issue form (i), pick the product by typing its title (or enough of it) in the picker
    and fill the fields."""
    await pilot.press("i")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, IssueForm))
    if product is not None:
        await pilot.press("enter", *product, "enter")  # the picker has the focus: open it, find, pick
    for field, text in (("count", count), ("uses", uses), ("expires", expires), ("prefix", prefix)):
        await type_into(pilot, field, text)
    return pilot.app.screen


async def list_one_code(pilot, screen: CodesScreen, code: str) -> DataTable:
    """Filter the list by the code (/, type, Enter): the list then has its row only, with the focus."""
    await pilot.press("slash", *code, "enter")
    table = screen.query_one("#codes", DataTable)
    await wait_until(pilot, lambda: [row[0] for row in cells(table)] == [code] and table.has_focus)
    return table


async def issue_one(server, product: dict) -> str:
    setup = staff_api(server)
    batch = await setup.issue_access_codes({"product_id": product["_id"], "count": 1})
    await setup.aclose()
    return batch["codes"][0]


async def server_code(server, code: str) -> dict:
    check = staff_api(server)
    [entry] = (await check.access_codes({"code": code}))["entries"]
    await check.aclose()
    return entry


def notified(app, text: str) -> bool:
    return any(text in str(n.message) for n in app._notifications)


async def test_issue_a_batch_through_the_form_and_see_it_listed(live_server, product):
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_codes(pilot)
        await fill_issue_form(pilot, product["title"], count="3", uses="2", expires="2099-12-31", prefix="tui")
        await pilot.click("#issue")
        table = screen.query_one("#codes", DataTable)
        await wait_until(pilot, lambda: bool(screen.last_batch) and table.row_count >= 3)
        [batch] = screen.last_batch
        # Newest first: the batch is on top, with the product's title and its uses.
        top = cells(table)[:3]
        assert sorted(row[0] for row in top) == sorted(batch["codes"])
        assert {(row[1], row[2], row[3], row[4]) for row in top} == {
            (shorten(product["title"], 18), "0/2", "2099-12-31", "active")
        }
        assert notified(app, "3 codes for")

    check = staff_api(live_server)
    entries = (await check.access_codes({"batch_id": batch["batchId"]}))["entries"]
    await check.aclose()
    assert sorted(e["code"] for e in entries) == sorted(batch["codes"])
    for entry in entries:
        assert entry["code"].startswith("TUI-")
        assert (entry["product_id"], entry["uses"], entry["expires_at"]) == (product["_id"], 2, "2099-12-31T23:59:59Z")


async def test_selecting_a_redeemed_code_shows_who_redeemed_it_and_when(live_server, product):
    code = await issue_one(live_server, product)
    fan = sign_up(live_server)
    assert redeem(live_server, fan["access"], code).status_code == 200
    redeemed_at = (await server_code(live_server, code))["redemptions"][0]["redeemedAt"]

    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_codes(pilot)
        table = await list_one_code(pilot, screen, code)
        assert cells(table)[0][2:] == ["1/1", "never", "used"]
        await pilot.press("enter")
        redemptions = screen.query_one("#redemptions", DataTable)
        await wait_until(pilot, lambda: redemptions.row_count == 1)
        assert cells(redemptions) == [[fan["userId"], short_time(redeemed_at)]]
        info = screen.query_one("#info")
        # The product's title shows once the products are in, even if the detail came first.
        await wait_until(pilot, lambda: product["title"] in str(info.render()))
        assert code in str(info.render()) and "used · 1/1 used" in str(info.render())


async def test_revoking_after_confirming_marks_the_code_revoked_and_cancelling_does_nothing(live_server, product):
    code = await issue_one(live_server, product)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_codes(pilot)
        table = await list_one_code(pilot, screen, code)

        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert code in str(app.screen.query_one("#question").render())
        await pilot.press("n")  # cancelled: nothing happens
        await pilot.pause(0.2)
        assert cells(table)[0][4] == "active"
        assert (await server_code(live_server, code))["status"] == "active"

        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#yes")
        await wait_until(pilot, lambda: cells(table)[0][4] == "revoked")
        assert notified(app, f"Access code {code} is revoked")

    entry = await server_code(live_server, code)
    assert (entry["status"], entry["revoked"]) == ("revoked", True)


async def test_export_writes_the_batch_issued_last_as_csv_and_replaces_a_file_only_when_told(
    live_server, product, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_codes(pilot)
        screen.batch_size = 2  # 5 codes in 3 requests, as a large batch would go
        await fill_issue_form(pilot, product["title"], count="5")
        await pilot.press("enter")  # Enter in a field submits the form
        await wait_until(pilot, lambda: len(screen.last_batch) == 3)
        batches = screen.last_batch
        assert [b["count"] for b in batches] == [2, 2, 1]

        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportForm))
        name = app.screen.query_one("#path", Input).value
        assert name == f"codes-{batches[0]['batchId']}.csv"
        await pilot.press("enter")
        path = tmp_path / name
        await wait_until(pilot, path.exists)
        await wait_until(pilot, lambda: notified(app, f"5 codes written to {path}"))

        rows = list(csv.reader(path.read_text().splitlines()))
        assert rows[0] == CSV_HEADER
        assert rows[1:] == [[code, b["batchId"], product["_id"], "1", ""] for b in batches for code in b["codes"]]

        # Again, onto the same file: it is replaced only after a Yes.
        path.write_text("kept\n")
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportForm))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: notified(app, "Not exported"))
        assert path.read_text() == "kept\n"

    check = staff_api(live_server)
    for batch in batches:
        entries = (await check.access_codes({"batch_id": batch["batchId"]}))["entries"]
        assert sorted(e["code"] for e in entries) == sorted(batch["codes"])
    await check.aclose()


class RecordingApi(FixedApi):
    """Fixed answers, and the issue requests the screen sent."""

    def __init__(self) -> None:
        super().__init__()
        self.issued: list[dict] = []

    async def issue_access_codes(self, body: dict) -> dict:
        self.issued.append(body)
        return await super().issue_access_codes(body)


@pytest.mark.parametrize(
    ("fields", "says", "field"),
    [
        ({"product": None}, "Pick the product the codes grant", "product"),
        ({"count": ""}, "Count must be a whole number from 1 to 100,000", "count"),
        ({"count": "0"}, "Count must be a whole number from 1 to 100,000", "count"),
        ({"count": "100001"}, "Count must be a whole number from 1 to 100,000", "count"),
        ({"uses": "0"}, "Uses per code must be a whole number from 1 to 100,000", "uses"),
        ({"expires": "2001-01-01"}, "Expiry '2001-01-01' is in the past", "expires"),
        ({"expires": "soon"}, "Expiry 'soon' is not a date (2026-12-31)", "expires"),
        ({"prefix": "DERBY-CUP"}, "Prefix 'DERBY-CUP' must be at most 12 letters and digits", "prefix"),
        ({"prefix": "ABCDEFGHIJKLM"}, "must be at most 12 letters and digits", "prefix"),
    ],
    ids=["no-product", "no-count", "zero-count", "count-too-large", "zero-uses", "past", "not-a-date", "dash", "long"],
)
async def test_the_issue_form_refuses_a_bad_field_without_calling_the_server(fields, says, field):
    api = RecordingApi()
    app = TouchlineAdmin(api, refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        await open_codes(pilot)
        form = await fill_issue_form(pilot, **{"product": "Harbor", "count": "3", **fields})
        await pilot.click("#issue")
        await pilot.pause(0.1)
        assert app.screen is form  # still open, saying what is wrong, on the field
        assert says in str(form.query_one("#error", Label).render())
        assert form.focused is not None and form.focused.id == field
    assert api.issued == []


async def test_the_issue_form_sends_what_it_checked():
    api = RecordingApi()
    app = TouchlineAdmin(api, refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_codes(pilot)
        await fill_issue_form(pilot, "Season", count="2", uses="3", expires="2099-06-30T18:00:00+02:00", prefix="vip")
        await pilot.click("#issue")
        await wait_until(pilot, lambda: bool(screen.last_batch))
    assert api.issued == [
        {"product_id": PRODUCTS[1]["_id"], "uses": 3, "expires_at": "2099-06-30T16:00:00Z", "prefix": "VIP", "count": 2}
    ]


async def test_a_support_session_sees_issue_and_revoke_disabled_with_the_reason():
    app = TouchlineAdmin(FixedApi(role="support"), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_codes(pilot)
        table = screen.query_one("#codes", DataTable)
        await wait_until(pilot, lambda: table.row_count == len(ACCESS_CODES))
        assert screen.check_action("issue", ()) is None and screen.check_action("revoke", ()) is None
        assert screen.check_action("export", ()) is True
        await pilot.press("i", "r")
        await pilot.pause(0.1)
        assert app.screen is screen  # neither the form nor a confirmation
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text").render())
        assert "Issue (disabled: needs the admin role" in help_text
        assert "Revoke (disabled: needs the admin role" in help_text


async def test_the_screen_fits_80_by_24_with_its_list_and_a_codes_detail():
    app = TouchlineAdmin(FixedApi(), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_codes(pilot)
        await wait_until(pilot, lambda: screen.query_one("#codes", DataTable).row_count == len(ACCESS_CODES))
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.query_one("#redemptions", DataTable).row_count == 1)
        text = text_capture(app)
    for code in ACCESS_CODES:
        assert code["code"] in text
    assert "batch 1b1c0a8e2b3d4c5e6f7a8be1" in text and "i Issue" in text and "5 shown" in text


async def choose_json(pilot) -> None:
    await pilot.click("#format")
    await pilot.press("j", "enter")  # find JSON in the open list, pick it


async def test_export_as_json_writes_the_issue_answer_and_refuses_listed_codes_of_several_kinds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = TouchlineAdmin(RecordingApi(), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_codes(pilot)
        await wait_until(pilot, lambda: screen.query_one("#codes", DataTable).row_count == len(ACCESS_CODES))

        # Nothing issued yet: the listed codes, of two products, which one JSON object cannot say.
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportForm))
        await choose_json(pilot)
        assert app.screen.query_one("#path", Input).value == "codes.json"
        await pilot.click("#export")
        await wait_until(pilot, lambda: notified(app, "which JSON cannot say"))
        assert list(tmp_path.iterdir()) == []

        await fill_issue_form(pilot, "Harbor", count="2")
        await pilot.click("#issue")
        await wait_until(pilot, lambda: bool(screen.last_batch))
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportForm))
        await choose_json(pilot)
        await pilot.click("#export")
        path = tmp_path / "codes-1b1c0a8e2b3d4c5e6f7a8be9.json"
        await wait_until(pilot, lambda: notified(app, f"2 codes written to {path}"))
    assert json.loads(path.read_text()) == screen.last_batch[0]
