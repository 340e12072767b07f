"""Buying a pay-per-view event by card: every sandbox card outcome, idempotent retries, one charge
under concurrency, and purchases that only their buyer can see."""

import asyncio
from datetime import timedelta

import pytest

from server import clock
from server.tests.accounts import sign_up
from server.tests.api.commerce.shop import (
    ACTION_THEN_DECLINE,
    ACTION_THEN_SUCCESS,
    DECLINED,
    EXPIRED,
    GOOD_CARD,
    INSUFFICIENT_FUNDS,
    buy_ppv,
    card_token,
    charges_of,
    event_for,
    new_key,
)
from server.tests.billing import purchase_messages
from server.tests.commerce import paid_event, product
from server.tests.mailbox import recording_socket


@pytest.fixture
async def match(database):
    event = await paid_event(database)
    return event, await product(database, "ppv", event_id=event.id, price_minor=999, currency="EUR")


async def test_paying_with_a_good_card_unlocks_the_event_for_the_buyer_only(client, database, viewer, match):
    event, ppv = match
    before = await event_for(client, viewer["headers"], event.id)
    assert before["availableForUser"] is False and before["content"]["HLSStream"] is None

    answer = await buy_ppv(client, viewer["headers"], event.id, ppv.id)

    assert answer.status_code == 200, answer.text
    bought = answer.json()["content"]
    assert (bought["status"], bought["paymentAction"], bought["purchaseProcessing"]) == (
        "success",
        "creditCardPay",
        False,
    )
    assert (bought["priceMinor"], bought["price"], bought["currency"]) == (999, 9.99, "EUR")
    assert bought["card"] == {"brand": "visa", "last4": "4242", "expMonth": 12, "expYear": 2035}
    assert bought["validUntil"] is not None and bought["originalProduct"]["active"] is True
    after = await event_for(client, viewer["headers"], event.id)
    assert after["availableForUser"] is True and after["content"]["HLSStream"]
    assert (await event_for(client, None, event.id))["availableForUser"] is False
    other = await sign_up(client)
    assert (await event_for(client, other["headers"], event.id))["availableForUser"] is False


@pytest.mark.parametrize(
    "number, code",
    [
        (DECLINED, "card_declined"),
        (INSUFFICIENT_FUNDS, "insufficient_funds"),
        (EXPIRED, "card_expired"),
    ],
)
async def test_a_refused_card_gives_402_with_its_reason_and_unlocks_nothing(
    client, database, viewer, match, number, code
):
    event, ppv = match
    answer = await buy_ppv(client, viewer["headers"], event.id, ppv.id, number=number)

    assert answer.status_code == 402
    assert answer.json()["messageErrorCode"] == code and answer.json()["error"] is True
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is False
    listed = (await client.get("/api/commerce/ppv/purchases", headers=viewer["headers"])).json()["content"]["entries"]
    assert [(p["status"], p["errorCode"]) for p in listed] == [("error", code)]


async def test_after_a_refusal_the_viewer_can_pay_with_another_card(client, viewer, match):
    event, ppv = match
    assert (await buy_ppv(client, viewer["headers"], event.id, ppv.id, number=DECLINED)).status_code == 402
    assert (await buy_ppv(client, viewer["headers"], event.id, ppv.id)).status_code == 200


async def test_a_card_that_requires_action_answers_202_then_succeeds(client, viewer, match):
    event, ppv = match
    answer = await buy_ppv(client, viewer["headers"], event.id, ppv.id, number=ACTION_THEN_SUCCESS)

    assert answer.status_code == 202, answer.text
    pending = answer.json()["content"]
    assert (pending["status"], pending["purchaseProcessing"], pending["validUntil"]) == ("in progress", True, None)
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is False

    clock.advance(timedelta(seconds=30))  # well within the access token's lifetime
    settled = await client.get(f"/api/commerce/ppv/purchases/id/{pending['_id']}", headers=viewer["headers"])
    assert settled.json()["content"]["status"] == "success"
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is True


async def test_a_card_that_requires_action_then_declines_ends_in_error(client, viewer, match):
    event, ppv = match
    pending = (await buy_ppv(client, viewer["headers"], event.id, ppv.id, number=ACTION_THEN_DECLINE)).json()["content"]

    clock.advance(timedelta(seconds=30))
    settled = (await client.get(f"/api/commerce/ppv/purchases/id/{pending['_id']}", headers=viewer["headers"])).json()[
        "content"
    ]
    assert (settled["status"], settled["errorCode"]) == ("error", "card_declined")


async def test_a_retry_with_the_same_key_and_body_gets_the_first_answer_without_a_second_charge(
    client, database, viewer, match
):
    event, ppv = match
    key, token = new_key(), await card_token(client, viewer["headers"])

    first = await buy_ppv(client, viewer["headers"], event.id, ppv.id, key=key, token=token)
    again = await buy_ppv(client, viewer["headers"], event.id, ppv.id, key=key, token=token)

    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert await charges_of(database, viewer["id"]) == 1


async def test_a_retry_of_a_refused_payment_replays_the_refusal(client, database, viewer, match):
    event, ppv = match
    key, token = new_key(), await card_token(client, viewer["headers"], DECLINED)
    first = await buy_ppv(client, viewer["headers"], event.id, ppv.id, key=key, token=token)
    again = await buy_ppv(client, viewer["headers"], event.id, ppv.id, key=key, token=token)
    assert first.status_code == again.status_code == 402
    assert await charges_of(database, viewer["id"]) == 1


async def test_the_same_key_with_another_body_gives_409_idempotency_key_reused(client, viewer, match):
    event, ppv = match
    key = new_key()
    assert (await buy_ppv(client, viewer["headers"], event.id, ppv.id, key=key)).status_code == 200
    reused = await buy_ppv(client, viewer["headers"], event.id, ppv.id, key=key)  # another card token
    assert reused.status_code == 409 and reused.json()["messageErrorCode"] == "idempotency_key_reused"


async def test_concurrent_purchases_of_one_product_by_one_viewer_charge_once(client, database, viewer, match):
    event, ppv = match
    tokens = [await card_token(client, viewer["headers"]) for _ in range(8)]

    answers = await asyncio.gather(*(buy_ppv(client, viewer["headers"], event.id, ppv.id, token=t) for t in tokens))

    assert sorted(a.status_code for a in answers) == [200] + [409] * 7
    refused = {a.json()["messageErrorCode"] for a in answers if a.status_code == 409}
    assert refused <= {"already_purchased", "purchase_in_progress"}
    assert await charges_of(database, viewer["id"]) == 1


async def test_buying_what_the_viewer_holds_gives_409_already_purchased(client, viewer, match):
    event, ppv = match
    assert (await buy_ppv(client, viewer["headers"], event.id, ppv.id)).status_code == 200
    again = await buy_ppv(client, viewer["headers"], event.id, ppv.id)
    assert again.status_code == 409 and again.json()["messageErrorCode"] == "already_purchased"


async def test_paying_with_the_stored_card_needs_one(client, viewer, match):
    event, ppv = match
    answer = await client.post(
        "/api/commerce/ppv/purchase_by_stored_cc",
        headers={**viewer["headers"], "Idempotency-Key": new_key()},
        json={"event_id": event.id, "product_id": ppv.id},
    )
    assert answer.status_code == 409 and answer.json()["messageErrorCode"] == "no_stored_card"


async def test_a_saved_card_pays_the_next_purchase(client, database, viewer):
    first_event, second_event = await paid_event(database), await paid_event(database)
    first = await product(database, "ppv", event_id=first_event.id)
    second = await product(database, "ppv", event_id=second_event.id, price_minor=500)
    assert (await buy_ppv(client, viewer["headers"], first_event.id, first.id, save_card=True)).status_code == 200

    stored = (await client.get("/api/commerce/card", headers=viewer["headers"])).json()["content"]
    answer = await client.post(
        "/api/commerce/ppv/purchase_by_stored_cc",
        headers={**viewer["headers"], "Idempotency-Key": new_key()},
        json={"event_id": second_event.id, "product_id": second.id},
    )

    assert stored["last4"] == "4242" and stored["holder"] == "Ada Lovelace"
    assert answer.status_code == 200, answer.text
    assert answer.json()["content"]["priceMinor"] == 500
    assert await charges_of(database, viewer["id"]) == 2


async def test_a_product_of_another_event_is_not_found(client, database, viewer, match):
    event, _ = match
    elsewhere = await product(database, "ppv", event_id=(await paid_event(database)).id)
    answer = await buy_ppv(client, viewer["headers"], event.id, elsewhere.id)
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "product_not_found"


async def test_a_product_not_sold_in_the_viewers_region_gives_409_product_not_available(client, database, viewer):
    event = await paid_event(database)
    abroad = await product(database, "ppv", event_id=event.id, regions=["US"])
    answer = await buy_ppv(client, viewer["headers"], event.id, abroad.id)
    assert answer.status_code == 409 and answer.json()["messageErrorCode"] == "product_not_available"


async def test_a_product_whose_offer_ended_cannot_be_bought(client, database, viewer):
    event = await paid_event(database)
    ended = await product(database, "ppv", event_id=event.id, offer_end=clock.now() - timedelta(days=1))
    answer = await buy_ppv(client, viewer["headers"], event.id, ended.id)
    assert answer.status_code == 409 and answer.json()["messageErrorCode"] == "product_not_available"


async def test_a_purchase_without_an_idempotency_key_is_refused(client, viewer, match):
    event, ppv = match
    token = await card_token(client, viewer["headers"])
    answer = await client.post(
        "/api/commerce/ppv/purchase",
        headers=viewer["headers"],
        json={"event_id": event.id, "product_id": ppv.id, "card": {"token": token}},
    )
    assert answer.status_code == 400


async def test_a_viewer_never_sees_another_viewers_purchases(client, viewer, match):
    event, ppv = match
    bought = (await buy_ppv(client, viewer["headers"], event.id, ppv.id)).json()["content"]
    other = await sign_up(client)

    mine = (await client.get("/api/commerce/ppv/purchases", headers=viewer["headers"])).json()["content"]
    theirs = (await client.get("/api/commerce/ppv/purchases", headers=other["headers"])).json()["content"]
    peek = await client.get(f"/api/commerce/ppv/purchases/id/{bought['_id']}", headers=other["headers"])

    assert [p["_id"] for p in mine["entries"]] == [bought["_id"]]
    assert theirs["entries"] == []
    assert peek.status_code == 404 and peek.json()["messageErrorCode"] == "purchase_not_found"


async def test_a_used_card_token_cannot_pay_twice(client, database, viewer):
    token = await card_token(client, viewer["headers"])
    first_event, second_event = await paid_event(database), await paid_event(database)
    first = await product(database, "ppv", event_id=first_event.id)
    second = await product(database, "ppv", event_id=second_event.id)
    assert (await buy_ppv(client, viewer["headers"], first_event.id, first.id, token=token)).status_code == 200
    reused = await buy_ppv(client, viewer["headers"], second_event.id, second.id, token=token)
    assert reused.status_code == 400 and reused.json()["messageErrorCode"] == "invalid_card_token"
    # The failed attempt does not block buying it properly afterwards.
    assert (await buy_ppv(client, viewer["headers"], second_event.id, second.id)).status_code == 200


async def test_paying_at_once_tells_every_socket_of_the_buyer(client, viewer, match):
    event, ppv = match
    key, token = new_key(), await card_token(client, viewer["headers"], GOOD_CARD)
    with recording_socket() as socket:
        answer = await buy_ppv(client, viewer["headers"], event.id, ppv.id, key=key, token=token)
        assert answer.status_code == 200, answer.text
        # A retry with the same key replays the answer: nothing is announced again.
        again = await buy_ppv(client, viewer["headers"], event.id, ppv.id, key=key, token=token)
        assert again.json() == answer.json()
    purchase_id = answer.json()["content"]["_id"]
    assert purchase_messages(socket, purchase_id) == [
        {"purchaseId": purchase_id, "status": "success", "productId": ppv.id, "eventId": event.id}
    ]
    rooms = [room for name, _data, room in socket.sent if name == "user-purchase-status"]
    assert rooms == [f"user:{viewer['id']}"]


async def test_a_refused_card_tells_no_socket_of_a_success(client, viewer, match):
    event, ppv = match
    with recording_socket() as socket:
        assert (await buy_ppv(client, viewer["headers"], event.id, ppv.id, number=DECLINED)).status_code == 402
    assert [data for name, data, _room in socket.sent if name == "user-purchase-status"] == []
