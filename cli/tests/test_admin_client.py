"""cli/admin_client.py: the staff commands' way to the admin API, against a real server."""

import http.server
import threading

import aiohttp
import pytest

from cli.admin_client import DEVICE_ID, AdminApiError, AdminClient, StaffCredentials
from cli.tests.conftest import PASSWORD

pytestmark = pytest.mark.asyncio(loop_scope="session")


def staff_client(server, password: str = PASSWORD) -> AdminClient:
    return AdminClient(server.url, StaffCredentials(server.staff, password))


async def test_get_signs_in_as_the_cli_device_and_returns_the_envelopes_content(live_server):
    async with staff_client(live_server) as api:
        content = await api.get("/user/get_devices")
    assert DEVICE_ID in [device["deviceId"] for device in content["devices"]]


async def test_post_returns_the_envelopes_content(live_server):
    async with staff_client(live_server) as api:
        content = await api.post(
            "/admin/socket/emit", {"event": "update-event", "room": "event:" + "e" * 24, "payload": {"status": "live"}}
        )
    assert content == {"event": "update-event", "room": "event:" + "e" * 24, "manager": "in_process"}


async def test_an_error_envelope_raises_with_its_code_message_status_and_details(live_server):
    async with staff_client(live_server) as api:
        with pytest.raises(AdminApiError) as raised:
            await api.post("/admin/socket/emit", {"event": "update-event", "room": "event:" + "e" * 24, "payload": {}})
    error = raised.value
    assert (error.status, error.code, error.message) == (400, "validation_error", "update-event payload is invalid")
    assert error.details and "payload" in str(error)


async def test_a_wrong_password_raises_the_sign_in_error(live_server):
    async with staff_client(live_server, password="wrong") as api:
        with pytest.raises(AdminApiError) as raised:
            await api.get("/user/get_devices")
    assert (raised.value.status, raised.value.code) == (401, "invalid_credentials")


async def test_when_its_session_ends_the_client_signs_in_again_once(live_server):
    async with staff_client(live_server) as api:
        await api.get("/user/get_devices")
        first = api.token
        async with aiohttp.ClientSession() as http:  # e.g. staff signed the CLI out from elsewhere
            await http.post(f"{live_server.url}/api/user/logout", headers={"Authorization": f"Bearer {first}"})
        await api.get("/user/get_devices")
        assert api.token != first


async def test_without_credentials_nothing_is_sent_and_the_error_says_what_to_set(live_server):
    async with AdminClient(live_server.url, None) as api:
        with pytest.raises(AdminApiError) as raised:
            await api.get("/user/get_devices")
    assert raised.value.code == "missing_credentials" and "TOUCHLINE_STAFF_EMAIL" in raised.value.message


async def test_an_answer_that_is_not_the_envelope_raises_unexpected_response():
    class Html(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.send_response(502)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html>Bad Gateway</html>")

        def log_message(self, *args):
            pass

    proxy = http.server.HTTPServer(("127.0.0.1", 0), Html)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        async with AdminClient(f"http://127.0.0.1:{proxy.server_port}", StaffCredentials("a@example.com", "x")) as api:
            with pytest.raises(AdminApiError) as raised:
                await api.get("/user/get_devices")
    finally:
        proxy.shutdown()
        proxy.server_close()
    assert (raised.value.code, raised.value.status) == ("unexpected_response", 502)


async def test_an_unreachable_server_raises_api_unreachable():
    async with AdminClient("http://127.0.0.1:9", StaffCredentials("a@example.com", "x")) as api:
        with pytest.raises(AdminApiError) as raised:
            await api.get("/user/get_devices")
    assert raised.value.code == "api_unreachable"
