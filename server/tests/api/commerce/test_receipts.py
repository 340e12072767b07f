"""Receipts through the API: a paid checkout's receipt, and that of a "requires action" payment
settled when the viewer reads it, reach the viewer through SMTP after the answer, once per
purchase however often the call is retried."""

from datetime import timedelta

import pytest

from server import clock
from server.app import create_api
from server.tests.accounts import sign_up
from server.tests.api.commerce.shop import ACTION_THEN_SUCCESS, buy_ppv, card_token, new_key, subscribe
from server.tests.commerce import paid_event, product
from server.tests.mailbox import client_at, mails_to
from server.tests.services.test_mail import smtp_server, smtp_settings, text_of


@pytest.fixture
def inbox():
    with smtp_server() as server:
        yield server


@pytest.fixture
async def shop(database, settings, inbox):
    configured = smtp_settings(settings, inbox.port)
    async with client_at(create_api(configured), database, configured) as http:
        account = await sign_up(http)
        inbox.received.clear()  # the sign-up's confirmation mail: the tests count receipts
        yield http, account


async def test_a_paid_pay_per_view_sends_one_receipt_however_often_it_is_retried(database, shop, inbox):
    http, viewer = shop
    event = await paid_event(database)
    ppv = await product(database, "ppv", event_id=event.id, price_minor=999, currency="EUR", title="Cup final")
    key, token = new_key(), await card_token(http, viewer["headers"])
    first = await buy_ppv(http, viewer["headers"], event.id, ppv.id, key=key, token=token)
    again = await buy_ppv(http, viewer["headers"], event.id, ppv.id, key=key, token=token)
    assert first.status_code == again.status_code == 200, first.text
    assert again.json() == first.json()

    [(_sender, recipients, message, _auth)] = inbox.received
    assert recipients == [viewer["email"]]
    assert message["Subject"] == "Your Touchline receipt: Cup final"
    assert "Amount paid: 9.99 EUR" in text_of(message)
    [outbox] = await mails_to(database, viewer["email"], "purchase_receipt")
    assert outbox.status == "sent"


async def test_a_subscription_sends_its_receipt(database, shop, inbox):
    http, viewer = shop
    # Covering a league no event belongs to: other tests' events are not offered it.
    plan = await product(database, "svod", price_minor=1499, title="Season pass", identity_items=["c" * 24])
    answer = await subscribe(http, viewer["headers"], plan.id)
    assert answer.status_code == 200, answer.text
    [(_sender, _recipients, message, _auth)] = inbox.received
    assert message["Subject"] == "Your Touchline receipt: Season pass"
    assert "Renews: " in text_of(message)


async def test_a_requires_action_purchase_read_after_it_was_decided_sends_its_receipt(database, shop, inbox):
    http, viewer = shop
    event = await paid_event(database)
    ppv = await product(database, "ppv", event_id=event.id, price_minor=999, currency="EUR")
    answer = await buy_ppv(http, viewer["headers"], event.id, ppv.id, number=ACTION_THEN_SUCCESS)
    assert answer.status_code == 202, answer.text
    assert inbox.received == []

    clock.advance(timedelta(seconds=30))
    purchase_id = answer.json()["content"]["_id"]
    read = await http.get(f"/api/commerce/ppv/purchases/id/{purchase_id}", headers=viewer["headers"])
    assert read.json()["content"]["status"] == "success"
    assert len(inbox.received) == 1
    await http.get(f"/api/commerce/ppv/purchases/id/{purchase_id}", headers=viewer["headers"])
    assert len(inbox.received) == 1  # the outcome was settled once: one receipt
