"""Subscriptions (svod, cvod, bundles) by card: contracts, access they give, canceling at period
end, and contracts only their holder can see or cancel."""

from datetime import timedelta

import pytest

from server import clock
from server.tests.accounts import sign_up
from server.tests.api.commerce import shop
from server.tests.api.commerce.shop import DECLINED, event_for, new_key, subscribe
from server.tests.billing import purchase_messages
from server.tests.commerce import paid_event, product
from server.tests.mailbox import recording_socket


@pytest.fixture
async def league_pass(database, catalogue):
    league = catalogue["npd"] if "npd" in catalogue.ids else None
    league_id = league or "l" * 24
    event = await paid_event(
        database, commerce_type="commerce_subscription-basic_media", modes=["svod"], identity_ids=[league_id]
    )
    return event, await product(database, "svod", identity_items=[league_id], price_minor=1499)


async def test_subscribing_starts_a_monthly_contract_that_unlocks_the_leagues_events(client, viewer, league_pass):
    event, svod = league_pass
    answer = await subscribe(client, viewer["headers"], svod.id)

    assert answer.status_code == 200, answer.text
    contract = answer.json()["content"]
    assert (contract["status"], contract["paymentStatus"], contract["active"]) == ("active", "success", True)
    assert (contract["autoRenew"], contract["renewable"], contract["canceled"]) == (True, True, False)
    assert contract["priceMinor"] == 1499 and contract["card"]["last4"] == "4242"
    assert contract["nextBillingDate"] == contract["contractEndDate"] is not None
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is True
    assert (await client.get("/api/commerce/card", headers=viewer["headers"])).json()["content"]["last4"] == "4242"


async def test_subscribing_at_once_tells_every_socket_of_the_subscriber(client, viewer, league_pass):
    _, svod = league_pass
    with recording_socket() as socket:
        answer = await subscribe(client, viewer["headers"], svod.id)
    assert answer.status_code == 200, answer.text
    contract_id = answer.json()["content"]["id"]
    assert purchase_messages(socket, contract_id) == [
        {"purchaseId": contract_id, "status": "success", "productId": svod.id}
    ]
    assert [room for name, _data, room in socket.sent if name == "user-purchase-status"] == [f"user:{viewer['id']}"]


async def test_a_declined_first_payment_gives_402_and_a_failed_contract(client, viewer, league_pass):
    event, svod = league_pass
    answer = await subscribe(client, viewer["headers"], svod.id, number=DECLINED)

    assert answer.status_code == 402 and answer.json()["messageErrorCode"] == "card_declined"
    contracts = (await client.get("/api/commerce/customer_contracts", headers=viewer["headers"])).json()["content"]
    assert [(c["status"], c["active"]) for c in contracts["entries"]] == [("failed", False)]
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is False


async def test_subscribing_twice_gives_409_already_subscribed(client, viewer, league_pass):
    _, svod = league_pass
    assert (await subscribe(client, viewer["headers"], svod.id)).status_code == 200
    again = await subscribe(client, viewer["headers"], svod.id)
    assert again.status_code == 409 and again.json()["messageErrorCode"] == "already_subscribed"


async def test_subscribing_with_the_stored_card_charges_it(client, database, viewer, league_pass):
    _, svod = league_pass
    other = await product(database, "cvod", event_id=(await paid_event(database, status="channel")).id)
    assert (await subscribe(client, viewer["headers"], svod.id)).status_code == 200

    answer = await client.post(
        "/api/commerce/subscribe_by_stored_cc",
        headers={**viewer["headers"], "Idempotency-Key": new_key()},
        json={"subscription_id": other.id},
    )

    assert answer.status_code == 200, answer.text
    assert answer.json()["content"]["type"] == "cvod"
    assert await shop.charges_of(database, viewer["id"]) == 2


async def test_a_pay_per_view_product_is_not_a_subscription(client, database, viewer):
    ppv = await product(database, "ppv", event_id=(await paid_event(database)).id)
    answer = await subscribe(client, viewer["headers"], ppv.id)
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "product_not_found"


async def test_canceling_keeps_access_until_the_period_ends_then_it_stops(client, viewer, league_pass):
    event, svod = league_pass
    contract = (await subscribe(client, viewer["headers"], svod.id)).json()["content"]

    canceled = await client.post(
        "/api/commerce/cancel_contract", headers=viewer["headers"], json={"platform": "web", "id": contract["id"]}
    )
    twice = await client.post(
        "/api/commerce/cancel_contract", headers=viewer["headers"], json={"platform": "web", "id": contract["id"]}
    )

    assert canceled.status_code == 200 and twice.status_code == 200
    body = canceled.json()["content"]
    assert (body["canceled"], body["active"], body["autoRenew"], body["nextBillingDate"]) == (True, True, False, None)
    assert twice.json()["content"]["canceledAt"] == body["canceledAt"]
    assert (await event_for(client, viewer["headers"], event.id))["availableForUser"] is True

    clock.advance(timedelta(days=32))
    headers = await shop.signed_in_again(client, viewer)
    assert (await event_for(client, headers, event.id))["availableForUser"] is False
    ended = await client.get(f"/api/commerce/get_customer_subscriptions_by_id/id/{contract['id']}", headers=headers)
    assert ended.status_code == 200, ended.text
    assert ended.json()["content"]["active"] is False


async def test_contracts_filter_by_active_and_canceled(client, database, viewer, league_pass):
    _, svod = league_pass
    kept = (await subscribe(client, viewer["headers"], svod.id)).json()["content"]
    other = await product(database, "svod", identity_items=["b" * 24])
    dropped = (await subscribe(client, viewer["headers"], other.id)).json()["content"]
    await client.post(
        "/api/commerce/cancel_contract", headers=viewer["headers"], json={"platform": "web", "id": dropped["id"]}
    )

    def ids(params):
        return client.get("/api/commerce/customer_contracts", headers=viewer["headers"], params=params)

    canceled = (await ids({"canceled": "true"})).json()["content"]["entries"]
    running = (await ids({"canceled": "false", "active": "true"})).json()["content"]["entries"]
    assert [c["id"] for c in canceled] == [dropped["id"]]
    assert [c["id"] for c in running] == [kept["id"]]


async def test_a_viewer_can_neither_see_nor_cancel_another_viewers_contract(client, viewer, league_pass):
    _, svod = league_pass
    contract = (await subscribe(client, viewer["headers"], svod.id)).json()["content"]
    other = await sign_up(client)

    peek = await client.get(
        f"/api/commerce/get_customer_subscriptions_by_id/id/{contract['id']}", headers=other["headers"]
    )
    cancel = await client.post(
        "/api/commerce/cancel_contract", headers=other["headers"], json={"platform": "web", "id": contract["id"]}
    )
    listed = (await client.get("/api/commerce/customer_contracts", headers=other["headers"])).json()["content"]

    assert peek.status_code == 404 and peek.json()["messageErrorCode"] == "contract_not_found"
    assert cancel.status_code == 404 and cancel.json()["messageErrorCode"] == "contract_not_found"
    assert listed["entries"] == []
    mine = await client.get(
        f"/api/commerce/get_customer_subscriptions_by_id/id/{contract['id']}", headers=viewer["headers"]
    )
    assert mine.json()["content"]["canceled"] is False


async def test_a_bundle_unlocks_each_of_its_events_until_its_end_date(client, database, viewer):
    games = [await paid_event(database) for _ in range(2)]
    items = [await product(database, "ppv", event_id=g.id) for g in games]
    bundle = await product(
        database, "bundle", items=[p.id for p in items], price_minor=1500, bundle_end=clock.now() + timedelta(days=10)
    )

    answer = await subscribe(client, viewer["headers"], bundle.id)

    assert answer.status_code == 200, answer.text
    assert answer.json()["content"]["originalProduct"]["items"][0]["_id"] == items[0].id
    for game in games:
        assert (await event_for(client, viewer["headers"], game.id))["availableForUser"] is True
    clock.advance(timedelta(days=11))
    headers = await shop.signed_in_again(client, viewer)
    assert (await event_for(client, headers, games[0].id))["availableForUser"] is False


async def test_the_stored_card_can_be_replaced_and_deleted(client, viewer):
    token = await shop.card_token(client, viewer["headers"], "5555555555554444")
    updated = await client.post("/api/commerce/card/update", headers=viewer["headers"], json={"card": {"token": token}})
    reused = await client.post("/api/commerce/card/update", headers=viewer["headers"], json={"card": {"token": token}})
    deleted = await client.post("/api/commerce/card/delete", headers=viewer["headers"])
    after = await client.get("/api/commerce/card", headers=viewer["headers"])

    assert updated.status_code == 200 and updated.json()["content"]["brand"] == "mastercard"
    assert reused.status_code == 400 and reused.json()["messageErrorCode"] == "invalid_card_token"
    assert deleted.status_code == 200 and after.json()["content"] is None


async def test_tokenizing_a_card_that_fails_the_luhn_check_gives_invalid_card(client, viewer):
    answer = await client.post(
        "/api/commerce/card/tokenize",
        headers=viewer["headers"],
        json={"number": "4242424242424241", "exp_month": 12, "exp_year": 2035, "cvc": "123"},
    )
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "invalid_card"


async def test_a_contract_that_lapsed_before_the_renewal_job_saw_it_does_not_block_subscribing_again(
    client, database, viewer, league_pass
):
    _, svod = league_pass
    first = (await subscribe(client, viewer["headers"], svod.id)).json()["content"]
    clock.advance(timedelta(days=40))  # past the period end; no renewal run happened
    headers = await shop.signed_in_again(client, viewer)

    again = await client.post(
        "/api/commerce/subscription_checkout",
        headers={**headers, "Idempotency-Key": new_key()},
        json={"card": {"token": await shop.card_token(client, headers)}, "subscription_id": svod.id},
    )

    assert again.status_code == 200, again.text
    old = await client.get(f"/api/commerce/get_customer_subscriptions_by_id/id/{first['id']}", headers=headers)
    assert (old.json()["content"]["status"], old.json()["content"]["active"]) == ("expired", False)
