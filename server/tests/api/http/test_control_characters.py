"""Issue 26 §9: control characters never enter through the API, and NUL never reaches PostgreSQL.

Every case runs on SQLite and PostgreSQL (the `client` fixture is parametrised over both): on
PostgreSQL a NUL used to reach psycopg and answer 500."""

import pytest

from server.tests.accounts import PASSWORD, new_device, new_email, sign_in, sign_up

# NUL, ESC starting "clear the screen", DEL and C1's CSI: each refused wherever text enters.
HOSTILE = {"nul": "Ann\x00ie", "esc": "Ann\x1b[2Jie", "del": "Ann\x7fie", "c1": "Ann\x9bie"}


def assert_refused(response, field: str | None = None) -> None:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error"] is True and body["messageErrorCode"] == "validation_error"
    assert "control characters" in body["message"] or "does not match" in body["message"], body
    if field is not None:
        assert body["details"][0]["field"] == field, body


def registration(**fields) -> dict:
    device = new_device()
    return {
        "email": new_email(),
        "password": PASSWORD,
        "displayName": "Annie",
        "device_id": device,
        "device_name": device,
        **fields,
    }


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("field", ["displayName", "device_id", "device_name", "city"])
async def test_sign_up_with_a_control_character_in_a_name_is_a_400(client, kind, field):
    response = await client.post("/api/user/register", json=registration(**{field: HOSTILE[kind]}))
    assert_refused(response, field)


async def test_sign_up_refuses_a_line_break_in_the_display_name(client):
    assert_refused(await client.post("/api/user/register", json=registration(displayName="Ann\nie")), "displayName")


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("field", ["device_id", "device_name"])
async def test_sign_in_with_a_control_character_in_the_device_is_a_400(client, kind, field):
    user = await sign_up(client)
    device = new_device()
    body = {"username": user["email"], "password": PASSWORD, "device_id": device, "device_name": device}
    response = await client.post("/api/user/login", json={**body, field: HOSTILE[kind]})
    assert_refused(response, field)
    assert (await sign_in(client, user["email"])).status_code == 200  # the account is unharmed


async def test_a_password_with_nul_is_refused_not_a_server_error(client):
    user = await sign_up(client)
    device = new_device()
    body = {"username": user["email"], "password": "pass\x00word", "device_id": device, "device_name": device}
    assert_refused(await client.post("/api/user/login", json=body), "password")


@pytest.mark.parametrize("field", ["device_id", "device_name"])
async def test_checking_the_current_device_with_a_control_character_is_a_400(client, field):
    user = await sign_up(client)
    body = {"device_id": user["device_id"], "device_name": user["device_id"], field: HOSTILE["nul"]}
    response = await client.post("/api/user/check_current_device", json=body, headers=user["headers"])
    assert_refused(response, field)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
async def test_a_token_exchange_with_a_control_character_in_the_device_or_name_is_a_400(client, kind):
    exchange = {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "subject_token": "a.b.c",
        "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
        "subject_issuer": "ifa",
    }
    device = {"id": new_device(), "name": "Phone"}
    for body, field in (
        ({**exchange, "device": {**device, "name": HOSTILE[kind]}}, "device.name"),
        ({**exchange, "device": {**device, "id": HOSTILE[kind]}}, "device.id"),
        ({**exchange, "device": device, "profile": {"display_name": HOSTILE[kind]}}, "profile.display_name"),
    ):
        assert_refused(await client.post("/api/oauth2/token", json=body), field)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
async def test_a_profile_update_with_a_control_character_is_a_400(client, kind):
    user = await sign_up(client)
    response = await client.post(
        "/api/user/update_profile", json={"data": {"displayName": HOSTILE[kind]}}, headers=user["headers"]
    )
    assert_refused(response, "data.displayName")


async def test_nul_in_a_path_parameter_is_a_400(client):
    assert_refused(await client.get("/api/event/get_by_id/id/%00abc"), "id")


async def test_nul_in_a_query_parameter_is_a_400(client):
    assert_refused(await client.get("/api/event/search", params={"q": "goal\x00"}), "q")


async def test_nul_in_an_object_key_is_a_400_naming_it_escaped(client):
    event = {"name": "page_view", "anonymousId": "anon-1", "properties": {"pa\x00ge": "home"}}
    response = await client.post("/api/analytics/events", json={"events": [event]})
    assert_refused(response, "events[0].properties.pa\\x00ge")
