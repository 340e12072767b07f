"""The device-limit flow end to end on the real app: REST and the socket on one port.

A viewer at the device limit signs in on a new browser, removes an old device with the limit
ticket, and the removed device hears `remove-user-device` on its user room at once.
"""

import asyncio
import json

import httpx
import pytest
import socketio

from server.app import create_app
from server.tests.accounts import bearer, new_device, sign_in, sign_up
from server.tests.serving import uvicorn_serving

pytestmark = pytest.mark.asyncio(loop_scope="session")
TIMEOUT_S = 5


def serving_app(settings, database):
    """The whole app (REST and the socket) on loopback, its settings naming the port it serves on."""
    return uvicorn_serving(lambda port: create_app(settings.model_copy(update={"port": port}), database))


async def test_the_removed_device_is_told_on_the_socket_and_the_new_one_signs_in(settings, database):
    async with serving_app(settings, database) as url, httpx.AsyncClient(base_url=url, timeout=TIMEOUT_S) as http:
        old = await sign_up(http, database=database)
        for _ in range(settings.device_limit - 1):
            await sign_in(http, old["email"])
        user_id = old["profile"]["userId"]

        listener = socketio.AsyncClient(reconnection=False)
        heard: asyncio.Queue = asyncio.Queue()
        listener.on("remove-user-device", heard.put_nowait)
        await listener.connect(
            url,
            transports=["websocket"],
            socketio_path="ws",
            wait_timeout=TIMEOUT_S,
            auth={"token": old["tokenData"]["access_token"]},
            headers={"Origin": url},
        )
        try:
            ack = await listener.call("join-user-room", {"userId": user_id}, timeout=TIMEOUT_S)
            assert json.loads(ack)["ok"] is True

            browser = new_device()
            stopped = (await sign_in(http, old["email"], device_id=browser)).json()["content"]
            ticket = stopped["device_error"]["limit_ticket"]
            removed = await http.post(
                "/api/user/delete_device", json={"deviceId": old["device_id"]}, headers=bearer(ticket)
            )
            assert removed.status_code == 200

            message = await asyncio.wait_for(heard.get(), TIMEOUT_S)
            assert message == {"deviceId": old["device_id"]}

            done = await http.post(
                "/api/user/login/complete", json={"limit_ticket": ticket, "device_id": browser, "device_name": browser}
            )
            assert done.json()["content"]["device_error"] is None
            refreshed = await http.post(
                "/api/oauth2/token",
                json={
                    "grant_type": "token-exchange",
                    "subject_token": old["tokenData"]["refresh_token"],
                    "subject_token_type": "urn:ietf:params:oauth:token-type:refresh_token",
                },
            )
            assert refreshed.json()["messageErrorCode"] == "refresh_token_failed"
        finally:
            await listener.disconnect()


async def test_a_leaked_refresh_token_signs_the_whole_device_out_on_the_socket(settings, database):
    from datetime import timedelta

    from server import clock

    async with serving_app(settings, database) as url, httpx.AsyncClient(base_url=url, timeout=TIMEOUT_S) as http:
        account = await sign_up(http, database=database)
        listener = socketio.AsyncClient(reconnection=False)
        heard: asyncio.Queue = asyncio.Queue()
        listener.on("remove-user-device", heard.put_nowait)
        await listener.connect(
            url,
            transports=["websocket"],
            socketio_path="ws",
            wait_timeout=TIMEOUT_S,
            auth={"token": account["tokenData"]["access_token"]},
            headers={"Origin": url},
        )
        try:
            await listener.call("join-user-room", {"userId": account["profile"]["userId"]}, timeout=TIMEOUT_S)
            body = {
                "grant_type": "token-exchange",
                "subject_token": account["tokenData"]["refresh_token"],
                "subject_token_type": "urn:ietf:params:oauth:token-type:refresh_token",
            }
            assert (await http.post("/api/oauth2/token", json=body)).status_code == 200
            clock.advance(timedelta(seconds=settings.refresh_grace_seconds + 1))
            try:
                assert (await http.post("/api/oauth2/token", json=body)).status_code == 401
            finally:
                clock.reset()
            message = await asyncio.wait_for(heard.get(), TIMEOUT_S)
            assert message == {"deviceId": account["device_id"], "messageErrorCode": "refresh_token_failed"}
        finally:
            await listener.disconnect()
