"""The audit log screen of `touchline admin` (key `a`), driven by Textual's pilot against a real
test server (cli/tests/conftest.py): admin writes made through the API are listed with their
actor, the filter bar narrows the list as the API does, bad dates are refused before asking."""

import uuid

import pytest
from textual.widgets import DataTable, Input, Label

from cli.tui.api import AdminApi
from cli.tui.app import TouchlineAdmin
from cli.tui.audit import PAGE_SIZE, AuditEntryScreen, AuditScreen, parse_when
from cli.tui.widgets import HelpScreen

from .capture import text_capture
from .fixed_data import AUDIT_ENTRIES, FixedApi
from .test_admin_tui import SIZE, staff_api, wait_until


async def create_event(server) -> dict:
    """An admin write through the API: a new event (its audit entry names the event as target)."""
    api = staff_api(server)
    try:
        return await api.post(
            "/admin/events",
            {"title": f"Audit {uuid.uuid4().hex[:6]}", "event_date": "2026-11-24T18:00:00Z", "sportType": "football"},
        )
    finally:
        await api.aclose()


async def create_key(server) -> None:
    """Another kind of admin write: a new API key."""
    api = staff_api(server)
    try:
        await api.post("/admin/keys", {"name": "audit screen test", "role": "support"})
    finally:
        await api.aclose()


async def open_audit(pilot) -> AuditScreen:
    await pilot.press("a")
    screen = pilot.app.screen
    assert isinstance(screen, AuditScreen)
    await wait_until(pilot, lambda: screen.query_one("#entries", DataTable).row_count > 0)
    return screen


async def type_into(pilot, selector: str, text: str) -> None:
    await pilot.click(selector)
    await pilot.press(*text)


class CountingApi(AdminApi):
    """The real API, counting the audit queries it was asked for."""

    def __init__(self, api: AdminApi):
        super().__init__(api.client)
        self.audit_queries: list[dict[str, str]] = []

    async def audit(self, filters: dict[str, str], page: int = 0, size: int = 20) -> dict:
        self.audit_queries.append(filters)
        return await super().audit(filters, page, size)


async def test_an_admin_write_is_listed_with_the_staff_account_as_actor(live_server):
    event = await create_event(live_server)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_audit(pilot)
        [entry] = [e for e in screen.entries.values() if e["target"] == event["_id"]]
        assert (entry["action"], entry["actor"], entry["actorType"], entry["status"]) == (
            "create_event",
            live_server.staff,
            "user",
            200,
        )
        table = screen.query_one("#entries", DataTable)
        _when, actor, action, _target, outcome = (str(cell) for cell in table.get_row(entry["_id"]))
        assert (actor, action, outcome) == (live_server.staff, "create_event", "200 ok")

        table.focus()
        table.move_cursor(row=table.get_row_index(entry["_id"]))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, AuditEntryScreen))
        shown = text_capture(app)
        assert live_server.staff in shown and event["_id"] in shown and "POST /api/admin/events" in shown
        assert "200 OK" in shown
        await pilot.press("escape")
        assert app.screen is screen


async def test_filtering_by_action_lists_what_the_api_answers_for_that_action(live_server):
    await create_event(live_server)
    await create_key(live_server)
    api = staff_api(live_server)
    app = TouchlineAdmin(api, refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_audit(pilot)
        assert {"create_event", "create_api_key"} <= {e["action"] for e in screen.entries.values()}

        await type_into(pilot, "#action", "create_event")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.filters.action == "create_event")
        expected = await api.audit({"action": "create_event"}, 0, PAGE_SIZE)
        assert list(screen.entries) == [e["_id"] for e in expected["entries"]]
        assert {e["action"] for e in screen.entries.values()} == {"create_event"}
        table = screen.query_one("#entries", DataTable)
        assert table.row_count == len(expected["entries"]) > 0
        assert "filters: action=create_event" in str(screen.query_one("#audit-status").render())


async def test_an_invalid_date_is_refused_inline_without_a_request(live_server):
    await create_event(live_server)  # the screen opens on a log with an entry, whatever ran before
    api = CountingApi(staff_api(live_server))
    app = TouchlineAdmin(api, refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_audit(pilot)
        assert len(api.audit_queries) == 1  # the first page, unfiltered

        await type_into(pilot, "#since", "yesterday")
        await pilot.press("enter")
        error = screen.query_one("#filter-error", Label)
        await wait_until(pilot, lambda: error.has_class("shown"))
        assert "since: not a date or time" in str(error.render())
        assert screen.query_one("#since", Input).has_class("-invalid")

        # A range that ends before it starts is refused too.
        await pilot.press("end", *["backspace"] * len("yesterday"), *"2026-11-25")
        await type_into(pilot, "#until", "2026-11-24T12:00")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "since must be before until" in str(error.render()))
        await pilot.pause(0.2)
        assert len(api.audit_queries) == 1  # nothing was asked

        await pilot.click("#until")
        await pilot.press("end", *["backspace"] * len("2026-11-24T12:00"), *"2099-01-01", "enter")
        await wait_until(pilot, lambda: len(api.audit_queries) == 2)
        assert api.audit_queries[-1] == {"since": "2026-11-25T00:00:00Z", "until": "2099-01-02T00:00:00Z"}
        assert not error.has_class("shown")


async def test_n_and_p_page_through_the_log_as_the_api_pages_it(live_server):
    for _ in range(4):  # two full pages of two, whatever ran before
        await create_event(live_server)
    api = staff_api(live_server)
    app = TouchlineAdmin(api, refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_audit(pilot)
        screen.page_size = 2
        await pilot.press("r")
        await wait_until(pilot, lambda: len(screen.entries) == 2)
        assert screen.check_action("previous_page", ()) is None  # the first page
        first = list(screen.entries)

        await pilot.press("n")
        await wait_until(pilot, lambda: screen.page == 1)
        expected = await api.audit({}, 1, 2)
        assert list(screen.entries) == [e["_id"] for e in expected["entries"]]
        assert "Page 2 · entries 3–4" in str(screen.query_one("#audit-status").render())

        await pilot.press("p")
        await wait_until(pilot, lambda: screen.page == 0)
        assert list(screen.entries) == first


async def test_support_staff_may_use_every_action_of_the_read_only_log():
    app = TouchlineAdmin(FixedApi(role="support"), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_audit(pilot)
        assert len(screen.entries) == len(AUDIT_ENTRIES)
        for action in ("focus_filters", "refresh", "show_entry"):
            assert screen.check_action(action, ()) is True
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text").render())
        assert "needs the admin role" not in help_text and "Filter" in help_text


def test_dates_are_read_as_utc_and_a_bare_until_date_keeps_its_whole_day():
    assert str(parse_when("2026-11-24")) == "2026-11-24 00:00:00+00:00"
    assert str(parse_when("2026-11-24", end_of_day=True)) == "2026-11-25 00:00:00+00:00"
    assert str(parse_when("2026-11-24T18:00")) == "2026-11-24 18:00:00+00:00"
    assert str(parse_when("2026-11-24t18:00z")) == "2026-11-24 18:00:00+00:00"
    assert str(parse_when("2026-11-24T18:00+01:00")) == "2026-11-24 18:00:00+01:00"
    assert parse_when("  ") is None
    for wrong in ("yesterday", "2026-13-01", "24.11.2026"):
        with pytest.raises(ValueError):
            parse_when(wrong)
    with pytest.raises(ValueError):
        parse_when("9999-12-31", end_of_day=True)
