"""Devices and the device limit: check, list, remove, and finishing a sign-in with a limit ticket."""

import asyncio
from datetime import timedelta

from server import clock
from server.tests.accounts import bearer, new_device, refresh, sign_in, sign_up


async def account_at_limit(client, settings) -> dict:
    account = await sign_up(client)
    for _ in range(settings.device_limit - 1):
        assert (await sign_in(client, account["email"])).json()["content"]["device_error"] is None
    return account


async def test_signing_in_from_a_new_device_at_the_limit_returns_device_error_and_a_ticket(client, settings):
    account = await account_at_limit(client, settings)
    answer = await sign_in(client, account["email"])
    assert answer.status_code == 200
    content = answer.json()["content"]
    assert content["profile"] is None and content["tokenData"] is None
    assert len(content["devices"]) == settings.device_limit
    error = content["device_error"]
    assert (error["code"], error["limit"]) == ("device_limit_exceeded", settings.device_limit)
    assert error["limit_ticket_expires_in"] == settings.limit_ticket_lifetime


async def test_a_known_device_signs_in_at_the_limit(client, settings):
    account = await account_at_limit(client, settings)
    again = await sign_in(client, account["email"], device_id=account["device_id"])
    assert again.json()["content"]["device_error"] is None


async def test_the_limit_page_removes_a_device_with_the_ticket_and_finishes_the_sign_in(client, settings):
    account = await account_at_limit(client, settings)
    device = new_device()
    error = (await sign_in(client, account["email"], device_id=device)).json()["content"]["device_error"]
    ticket = error["limit_ticket"]
    removed = await client.post(
        "/api/user/delete_device", json={"deviceId": account["device_id"]}, headers=bearer(ticket)
    )
    assert removed.status_code == 200
    assert len(removed.json()["content"]["devices"]) == settings.device_limit - 1
    done = await client.post(
        "/api/user/login/complete",
        json={"limit_ticket": ticket, "device_id": device, "device_name": device, "strategy": "refresh"},
    )
    assert done.status_code == 200
    content = done.json()["content"]
    assert content["device_error"] is None and content["tokenData"]["access_token"]
    assert device in [d["deviceId"] for d in content["devices"]]
    assert done.json()["auth_data"] == {"isRegister": False, "provider": "credentials"}


async def test_a_limit_ticket_works_once(client, settings):
    account = await account_at_limit(client, settings)
    device = new_device()
    ticket = (await sign_in(client, account["email"], device_id=device)).json()["content"]["device_error"][
        "limit_ticket"
    ]
    await client.post("/api/user/delete_device", json={"deviceId": account["device_id"]}, headers=bearer(ticket))
    body = {"limit_ticket": ticket, "device_id": device, "device_name": device}
    first, second = await asyncio.gather(
        client.post("/api/user/login/complete", json=body), client.post("/api/user/login/complete", json=body)
    )
    assert sorted([first.status_code, second.status_code]) == [200, 401]
    late = await client.post("/api/user/delete_device", json={"deviceId": device}, headers=bearer(ticket))
    assert late.status_code == 401 and late.json()["messageErrorCode"] == "limit_ticket_invalid"


async def test_completing_while_still_at_the_limit_gives_a_new_ticket(client, settings):
    account = await account_at_limit(client, settings)
    device = new_device()
    ticket = (await sign_in(client, account["email"], device_id=device)).json()["content"]["device_error"][
        "limit_ticket"
    ]
    answer = await client.post(
        "/api/user/login/complete", json={"limit_ticket": ticket, "device_id": device, "device_name": device}
    )
    error = answer.json()["content"]["device_error"]
    assert error["code"] == "device_limit_exceeded" and error["limit_ticket"] != ticket


async def test_an_expired_limit_ticket_is_refused(client, settings):
    account = await account_at_limit(client, settings)
    device = new_device()
    ticket = (await sign_in(client, account["email"], device_id=device)).json()["content"]["device_error"][
        "limit_ticket"
    ]
    clock.advance(timedelta(seconds=settings.limit_ticket_lifetime + 1))
    answer = await client.post(
        "/api/user/login/complete", json={"limit_ticket": ticket, "device_id": device, "device_name": device}
    )
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "limit_ticket_invalid"


async def test_a_limit_ticket_is_not_an_access_token(client, settings):
    account = await account_at_limit(client, settings)
    ticket = (await sign_in(client, account["email"])).json()["content"]["device_error"]["limit_ticket"]
    for call in (
        client.get("/api/user/get_devices", headers=bearer(ticket)),
        client.post("/api/user/logout", headers=bearer(ticket)),
    ):
        assert (await call).status_code == 401


async def test_a_forged_limit_ticket_is_refused(client):
    answer = await client.post(
        "/api/user/login/complete", json={"limit_ticket": "lt_" + "x" * 40, "device_id": "d", "device_name": "d"}
    )
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "limit_ticket_invalid"


async def test_concurrent_sign_ins_from_new_devices_never_pass_the_limit(client, settings):
    account = await sign_up(client)
    answers = await asyncio.gather(*(sign_in(client, account["email"]) for _ in range(settings.device_limit + 3)))
    admitted = [a for a in answers if a.json()["content"]["device_error"] is None]
    assert len(admitted) == settings.device_limit - 1
    devices = (await client.get("/api/user/get_devices", headers=account["headers"])).json()["content"]
    assert len(devices["devices"]) == settings.device_limit == devices["limit"]


async def test_a_removed_device_is_signed_out_at_once(client):
    account = await sign_up(client)
    phone = (await sign_in(client, account["email"])).json()["content"]
    phone_device = next(d for d in phone["devices"] if d["deviceId"] != account["device_id"])
    removed = await client.post(
        "/api/user/delete_device", json={"deviceId": phone_device["deviceId"]}, headers=account["headers"]
    )
    assert [d["deviceId"] for d in removed.json()["content"]["devices"]] == [account["device_id"]]
    assert (await refresh(client, phone["tokenData"]["refresh_token"])).status_code == 401
    assert (
        await client.get("/api/user/get_devices", headers=bearer(phone["tokenData"]["access_token"]))
    ).status_code == 401
    assert (await client.get("/api/user/get_devices", headers=account["headers"])).status_code == 200


async def test_a_user_cannot_remove_or_see_another_users_devices(client):
    alice, bob = await sign_up(client), await sign_up(client)
    answer = await client.post("/api/user/delete_device", json={"deviceId": bob["device_id"]}, headers=alice["headers"])
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "device_not_found"
    by_id = await client.post(
        "/api/user/delete_device", json={"deviceId": bob["devices"][0]["_id"]}, headers=alice["headers"]
    )
    assert by_id.status_code == 404
    mine = (await client.get("/api/user/get_devices", headers=alice["headers"])).json()["content"]["devices"]
    assert [d["deviceId"] for d in mine] == [alice["device_id"]]
    assert (await client.get("/api/user/get_devices", headers=bob["headers"])).status_code == 200


async def test_check_current_device_says_whether_this_device_is_enabled(client):
    account = await sign_up(client)
    known = await client.post(
        "/api/user/check_current_device",
        headers=account["headers"],
        json={"device_id": account["device_id"], "device_name": account["device_id"], "register_new": "no_register"},
    )
    assert known.json()["content"]["enabled"] is True
    stranger = new_device()
    unknown = await client.post(
        "/api/user/check_current_device",
        headers=account["headers"],
        json={"device_id": stranger, "device_name": stranger},
    )
    assert unknown.json()["content"]["enabled"] is False
    registered = await client.post(
        "/api/user/check_current_device",
        headers=account["headers"],
        json={"device_id": stranger, "device_name": stranger, "register_new": "register"},
    )
    assert registered.json()["content"]["enabled"] is True
    assert len(registered.json()["content"]["devices"]) == 2


async def test_check_current_device_does_not_register_past_the_limit(client, settings):
    account = await account_at_limit(client, settings)
    stranger = new_device()
    answer = await client.post(
        "/api/user/check_current_device",
        headers=account["headers"],
        json={"device_id": stranger, "device_name": stranger, "register_new": "register"},
    )
    assert answer.json()["content"]["enabled"] is False
    assert len(answer.json()["content"]["devices"]) == settings.device_limit
