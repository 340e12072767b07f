"""What is on sale: subscriptions, bundles, an event's commerce options, and the staff product list."""

from datetime import timedelta

from server import clock
from server.tests.api.commerce.shop import buy_ppv
from server.tests.commerce import paid_event, product
from server.tests.mailbox import staff_headers


async def test_commerce_options_list_the_products_that_unlock_an_event_cheapest_first(
    client, database, viewer, catalogue
):
    event = await paid_event(database, modes=["ppv", "svod"], identity_ids=[catalogue["npd"]])
    ppv = await product(database, "ppv", event_id=event.id, price_minor=799)
    league_pass = await product(database, "svod", identity_items=[catalogue["npd"]], price_minor=1299)
    elsewhere = await product(database, "svod", identity_items=[catalogue["cup"]], price_minor=100)
    bundle = await product(
        database, "bundle", items=[ppv.id], price_minor=1500, bundle_end=clock.now() + timedelta(days=5)
    )
    await product(database, "ppv", event_id=event.id, on_sale=False)

    answer = await client.get("/api/event/get_commerce_options", params={"eventId": event.id})

    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    # Only the products made here (other tests' products share the database).
    ids = [p["_id"] for p in content["products"] if p["_id"] in {ppv.id, league_pass.id, bundle.id, elsewhere.id}]
    assert ids == [ppv.id, league_pass.id, bundle.id]
    assert content["commerceCoverage"] == ["ppv", "subscription", "bundle"]
    assert content["availableForUser"] is False and content["availableInUserRegion"] is True
    assert next(p for p in content["products"] if p["_id"] == bundle.id)["items"][0]["_id"] == ppv.id


async def test_commerce_options_show_what_the_viewer_holds(client, database, viewer):
    event = await paid_event(database)
    ppv = await product(database, "ppv", event_id=event.id)
    assert (await buy_ppv(client, viewer["headers"], event.id, ppv.id)).status_code == 200

    content = (
        await client.get("/api/event/get_commerce_options", params={"eventId": event.id}, headers=viewer["headers"])
    ).json()["content"]

    assert content["availableForUser"] is True
    assert [(p["_id"], p["active"]) for p in content["products"]] == [(ppv.id, True)]


async def test_commerce_options_of_an_unknown_event_are_not_found(client):
    answer = await client.get("/api/event/get_commerce_options", params={"eventId": "f" * 24})
    assert answer.status_code == 404


async def test_subscriptions_on_sale_filter_by_type_and_say_where_they_are_sold(client, database):
    svod = await product(database, "svod", title="A svod", regions=["US"])
    cvod = await product(database, "cvod", event_id=(await paid_event(database, status="channel")).id)

    def listed(kind):
        return client.get("/api/commerce/get_subscriptions", params={"type": kind, "size": 100})

    svods = (await listed("svod")).json()["content"]["entries"]
    cvods = (await listed("cvod")).json()["content"]["entries"]
    assert svod.id in [p["_id"] for p in svods] and cvod.id not in [p["_id"] for p in svods]
    assert cvod.id in [p["_id"] for p in cvods]
    assert next(p for p in svods if p["_id"] == svod.id)["availableInUserRegion"] is False
    assert all(p["currency"] for p in svods)


async def test_a_product_without_a_currency_shows_n_a(client, database):
    free = await product(database, "svod", currency=None, price_minor=0)
    answer = await client.get(f"/api/commerce/get_subscriptions_by_id/id/{free.id}")
    assert answer.json()["content"]["currency"] == "N/A"


async def test_a_pay_per_view_product_is_not_a_subscription_product(client, database):
    ppv = await product(database, "ppv", event_id=(await paid_event(database)).id)
    answer = await client.get(f"/api/commerce/get_subscriptions_by_id/id/{ppv.id}")
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "product_not_found"


async def test_bundles_can_be_listed_by_an_event_they_contain(client, database):
    event = await paid_event(database)
    ppv = await product(database, "ppv", event_id=event.id)
    bundle = await product(database, "bundle", items=[ppv.id], bundle_end=clock.now() + timedelta(days=2))
    await product(database, "bundle", items=[ppv.id], bundle_end=clock.now() - timedelta(days=1))  # over

    entries = (await client.get("/api/commerce/bundles", params={"eventId": event.id})).json()["content"]["entries"]

    assert [b["_id"] for b in entries] == [bundle.id]


async def test_staff_list_every_product_and_viewers_may_not(client, database, settings, viewer):
    event = await paid_event(database)
    hidden = await product(database, "ppv", event_id=event.id, on_sale=False)
    staff = await staff_headers(client, database, settings)

    answer = await client.get("/api/admin/products", params={"eventId": event.id}, headers=staff)
    refused = await client.get("/api/admin/products", headers=viewer["headers"])

    assert [p["_id"] for p in answer.json()["content"]["entries"]] == [hidden.id]
    assert refused.status_code == 403


async def test_a_product_carries_its_description_in_other_languages(client, database):
    described = await product(
        database, "svod", description="Every match.", descriptions={"de": "Jedes Spiel.", "fr": "Tous les matchs."}
    )
    plain = await product(database, "svod")

    content = (await client.get(f"/api/commerce/get_subscriptions_by_id/id/{described.id}")).json()["content"]
    assert content["description"] == "Every match."
    assert content["descriptions"] == {"de": "Jedes Spiel.", "fr": "Tous les matchs."}
    answer = (await client.get(f"/api/commerce/get_subscriptions_by_id/id/{plain.id}")).json()["content"]
    assert answer["descriptions"] == {}
