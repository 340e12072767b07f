"""POST /analytics/events is anyone's to call: sizes, budgets and the tenant are the server's.

Issue 26 §4: sixty anonymous batches of 50 events x 20 properties x 500 characters grew the
database by 60 MB in under a second, and an event for another tenant was stored as such."""

import itertools

import httpx
import pytest
from sqlalchemy import select

from server.app import create_api
from server.models import AnalyticsEvent
from server.tests.accounts import sign_up
from server.tests.api.analytics.test_events import event, stored
from server.tests.conftest import with_state

_ids = itertools.count(1)


def anonymous_id() -> str:
    return f"limits-{next(_ids):08d}"


def batch(name: str, anonymous: str, count: int = 1, **extra) -> dict:
    return {"events": [event(name, anonymousId=anonymous, **extra) for _ in range(count)]}


async def post(client, body: dict, headers: dict | None = None) -> httpx.Response:
    return await client.post("/api/analytics/events", json=body, headers=headers)


def assert_refused_as_invalid(response: httpx.Response) -> None:
    assert response.status_code == 400, response.text
    assert response.json()["error"] is True and response.json()["messageErrorCode"] == "validation_error"


# --- sizes -----------------------------------------------------------------------------------------


async def test_an_event_of_twenty_long_properties_is_refused_and_nothing_is_stored(client, database):
    properties = {f"p{n}": "x" * 500 for n in range(20)}  # within the schema, 10 KB as JSON
    response = await post(client, batch("oversize_event", anonymous_id(), properties=properties))
    assert_refused_as_invalid(response)
    assert "bytes" in response.json()["message"]
    assert await stored(database, "oversize_event") == []


async def test_a_batch_whose_events_together_are_too_large_is_refused(client, database):
    properties = {"comment": "y" * 500, "detail": "z" * 500}  # ~1.2 KB each: fine alone
    alone = await post(client, batch("large_batch", anonymous_id(), properties=properties))
    assert alone.status_code == 202, alone.text
    response = await post(client, batch("large_batch", anonymous_id(), count=50, properties=properties))
    assert_refused_as_invalid(response)
    assert len(await stored(database, "large_batch")) == 1


async def test_multibyte_text_counts_by_its_bytes(client):
    properties = {f"p{n}": "가" * 300 for n in range(5)}  # 1,500 characters, 4.5 KB in UTF-8
    assert_refused_as_invalid(await post(client, batch("multibyte", anonymous_id(), properties=properties)))


async def test_a_batch_of_many_anonymous_ids_is_refused(client):
    body = {"events": [event("many_ids", anonymousId=anonymous_id()) for _ in range(5)]}
    assert_refused_as_invalid(await post(client, body))
    two = {"events": [event("two_ids", anonymousId=anonymous_id()) for _ in range(2)]}  # around a sign-out
    assert (await post(client, two)).status_code == 202


# --- the tenant ------------------------------------------------------------------------------------


async def test_an_event_for_another_tenant_is_refused_and_not_stored(client, database):
    response = await post(client, batch("other_tenant", anonymous_id(), tenant="another-club"))
    assert_refused_as_invalid(response)
    assert "tenant" in response.json()["message"]
    async with database.session() as db:
        tenants = set(await db.scalars(select(AnalyticsEvent.tenant).where(AnalyticsEvent.name == "other_tenant")))
    assert tenants == set()


async def test_events_are_stored_with_the_servers_tenant(client, database, settings):
    assert (await post(client, batch("own_tenant", anonymous_id(), tenant=settings.tenant))).status_code == 202
    [row] = await stored(database, "own_tenant")
    assert row.tenant == settings.tenant


# --- budgets ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def budget_settings(settings):
    return settings.model_copy(
        update={"analytics_batches_per_address": 4, "analytics_batches_per_sender": 2, "analytics_batch_window": 60}
    )


@pytest.fixture(scope="module")
def client_at(budget_settings, database):
    """A client of an app with small analytics budgets, calling from `address`."""
    api = create_api(budget_settings)

    def make(address: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(
            app=with_state(api, {"database": database, "settings": budget_settings}), client=(address, 40000)
        )
        return httpx.AsyncClient(transport=transport, base_url="http://touchline.test")

    return make


def assert_too_many(response: httpx.Response, window: int = 60) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"] is True and response.json()["messageErrorCode"] == "too_many_requests"
    assert 0 < int(response.headers["Retry-After"]) <= window


async def test_an_address_past_its_budget_gets_429_with_retry_after_and_another_address_is_accepted(
    client_at, database
):
    async with client_at("10.26.4.1") as attacker:
        statuses = [(await post(attacker, batch("address_budget", anonymous_id()))).status_code for _ in range(4)]
        assert statuses == [202] * 4  # a new anonymous id each time: only the address counts them
        refused = await post(attacker, batch("address_budget", anonymous_id()))
    assert_too_many(refused)
    assert len(await stored(database, "address_budget")) == 4
    async with client_at("10.26.4.2") as neighbour:
        assert (await post(neighbour, batch("address_budget", anonymous_id()))).status_code == 202


async def test_one_anonymous_id_is_limited_whatever_its_address(client_at):
    browser = anonymous_id()
    for address in ("10.26.5.1", "10.26.5.2"):
        async with client_at(address) as http:
            assert (await post(http, batch("sender_budget", browser))).status_code == 202
    async with client_at("10.26.5.3") as http:
        assert_too_many(await post(http, batch("sender_budget", browser)))
        assert (await post(http, batch("sender_budget", anonymous_id()))).status_code == 202


async def test_a_signed_in_viewer_is_limited_whatever_anonymous_ids_they_send(client, client_at):
    viewer = await sign_up(client)
    async with client_at("10.26.6.1") as http:
        for _ in range(2):
            assert (await post(http, batch("viewer_budget", anonymous_id()), viewer["headers"])).status_code == 202
        assert_too_many(await post(http, batch("viewer_budget", anonymous_id()), viewer["headers"]))
        assert (await post(http, batch("viewer_budget", anonymous_id()))).status_code == 202  # not the viewer


async def test_refused_batches_spend_no_budget(client_at):
    async with client_at("10.26.7.1") as http:
        for _ in range(6):
            assert_refused_as_invalid(await post(http, batch("refused", anonymous_id(), tenant="another-club")))
        assert (await post(http, batch("refused", anonymous_id()))).status_code == 202


async def test_ipv6_clients_count_by_their_64(client_at):
    for n in range(4):
        async with client_at(f"2001:db8:26:4::{n + 1}") as http:
            assert (await post(http, batch("ipv6_budget", anonymous_id()))).status_code == 202
    async with client_at("2001:db8:26:4:ffff::1") as same_network:
        assert_too_many(await post(same_network, batch("ipv6_budget", anonymous_id())))
    async with client_at("2001:db8:26:5::1") as other_network:
        assert (await post(other_network, batch("ipv6_budget", anonymous_id()))).status_code == 202
