"""The Users screen's sections besides devices and sessions — purchases, contracts, follows and
mail — and resending a mail, driven by Textual's pilot against a real test server
(cli/tests/conftest.py; purchases are made with the server's test helpers on its database)."""

import asyncio

import httpx
from textual.widgets import DataTable, TabbedContent

from cli.tui.app import TouchlineAdmin
from cli.tui.users import UsersScreen
from cli.tui.widgets import ConfirmScreen, HelpScreen
from server.tests import commerce

from .capture import text_capture
from .fixed_data import CONTRACTS, FOLLOWS, MAIL, PURCHASES, RESENT_MAIL_ID, FixedApi
from .test_admin_tui import SIZE, cells, sign_up, staff_api, wait_until


async def open_account(pilot, email: str, user_id: str) -> UsersScreen:
    """Users (u), search the address, pick the account; its sections are loaded."""
    await pilot.press("u")
    screen = pilot.app.screen
    assert isinstance(screen, UsersScreen)
    await pilot.click("#query")
    await pilot.press(*email, "enter")
    results = screen.query_one("#results", DataTable)
    await wait_until(pilot, lambda: results.row_count == 1)
    results.focus()
    await pilot.press("enter")
    await wait_until(pilot, lambda: screen.user_id == user_id)
    return screen


async def show_tab(pilot, screen: UsersScreen, section: str) -> DataTable:
    await pilot.click(f"#--content-tab-{section}-tab")
    await wait_until(pilot, lambda: screen.query_one("#sections", TabbedContent).active == f"{section}-tab")
    return screen.query_one(f"#{section}", DataTable)


async def reset_mail_of(server, email: str) -> list[dict]:
    """Ask for a password reset for `email`; the outbox's mail to it once the reset mail is there
    (it is written after the answer)."""
    async with httpx.AsyncClient() as http:
        answer = await http.post(f"{server.url}/api/user/password/forgot", json={"email": email})
    assert answer.status_code == 200, answer.text
    api = staff_api(server)
    try:
        for _ in range(100):
            mail = [m for m in await api.mail_to(email) if m["kind"] == "password_reset"]
            if mail:
                return mail
            await asyncio.sleep(0.05)
        raise AssertionError(f"no mail to {email}")
    finally:
        await api.aclose()


async def test_an_accounts_purchase_is_listed_in_the_purchases_tab(live_server, accounts_db):
    account = sign_up(live_server)
    event = await commerce.paid_event(accounts_db.database)
    product = await commerce.buy(accounts_db.database, account["userId"], event.id)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_account(pilot, account["email"], account["userId"])
        purchases = await show_tab(pilot, screen, "purchases")
        [(_when, title, status, price)] = cells(purchases)
        assert (title, status, price) == (product.title, "success", "9.99 EUR")
        assert screen.query_one("#contracts", DataTable).row_count == 0
        assert screen.query_one("#follows", DataTable).row_count == 0


async def test_a_reset_mail_is_listed_and_resending_it_after_confirming_adds_an_outbox_entry(live_server):
    account = sign_up(live_server)
    [reset] = await reset_mail_of(live_server, account["email"])
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_account(pilot, account["email"], account["userId"])
        mail = await show_tab(pilot, screen, "mail")
        # Newest first: the reset mail, then the sign-up's confirmation.
        [(_when, kind, subject), (_, confirmation, _)] = cells(mail)
        assert (kind, subject, confirmation) == ("password_reset", reset["subject"], "email_verification")

        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert reset["subject"] in text_capture(app)
        await pilot.press("n")  # cancelled: nothing is sent
        await pilot.pause(0.2)
        assert mail.row_count == 2

        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#yes")
        await wait_until(pilot, lambda: mail.row_count == 3)
        assert any("Mail resent" in str(n.message) for n in app._notifications)

    check = staff_api(live_server)
    newest, original = [m for m in await check.mail_to(account["email"]) if m["kind"] == "password_reset"]
    await check.aclose()
    assert original["_id"] == reset["_id"] and newest["_id"] != reset["_id"]
    assert (newest["kind"], newest["subject"], newest["text"]) == (reset["kind"], reset["subject"], reset["text"])


async def test_every_section_shows_its_fixed_rows_and_support_may_resend():
    app = TouchlineAdmin(FixedApi(role="support"), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("u")
        users = app.screen
        assert isinstance(users, UsersScreen)
        assert users.check_action("resend_mail", ()) is None  # no account picked yet
        users.query_one("#results", DataTable).focus()  # `?` in the search box is a character
        await pilot.press("question_mark")
        assert "Resend mail (disabled: select an account first)" in str(app.screen.query_one("#help-text").render())
        await pilot.press("escape")

        screen = await open_account(pilot, "ada", "9a1c0a8e2b3d4c5e6f7a8ba2")
        for section, rows in (("purchases", PURCHASES), ("contracts", CONTRACTS), ("follows", FOLLOWS), ("mail", MAIL)):
            assert screen.query_one(f"#{section}", DataTable).row_count == len(rows)
        assert cells(screen.query_one("#contracts", DataTable)) == [
            ["Season pass 2026/27", "active", "12-02 09:20", "yes"]
        ]
        assert cells(screen.query_one("#follows", DataTable))[0][:2] == ["league", "Northern Premier Division"]
        # Resending is a support action: the support role may.
        assert screen.check_action("resend_mail", ()) is True
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: any(RESENT_MAIL_ID in str(n.message) for n in app._notifications))
        assert isinstance(app.screen, UsersScreen) and not isinstance(app.screen, HelpScreen)
