"""Talking to providers: whatever goes wrong on the wire is `provider_unavailable`, never a 500."""

import asyncio
import socket

import pytest
from aiohttp import web

from server.auth.providers import ProviderUnavailable
from server.auth.providers.http import MAX_BODY, ProviderHttp


@pytest.fixture(scope="module")
async def upstream():
    async def ok(_request: web.Request) -> web.Response:
        return web.json_response({"fine": True})

    async def slow(_request: web.Request) -> web.Response:
        await asyncio.sleep(2)
        return web.json_response({})

    async def huge(_request: web.Request) -> web.Response:
        return web.Response(body=b"[" + b"0," * MAX_BODY + b"0]")

    async def error(_request: web.Request) -> web.Response:
        return web.Response(status=500, text="oops")

    async def html(_request: web.Request) -> web.Response:
        return web.Response(text="<html>hello</html>", content_type="text/html")

    async def refused(_request: web.Request) -> web.Response:
        return web.Response(status=401, text="no")

    app = web.Application()
    app.router.add_get("/ok", ok)
    app.router.add_get("/slow", slow)
    app.router.add_get("/huge", huge)
    app.router.add_get("/error", error)
    app.router.add_get("/html", html)
    app.router.add_get("/refused", refused)
    app.router.add_post("/echo", _echo)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}"
    await runner.cleanup()


async def _echo(request):
    return web.json_response(dict(await request.post()))


@pytest.fixture
async def http():
    client = ProviderHttp(timeout=0.5)
    yield client
    await client.close()


async def test_a_json_answer_comes_back_with_its_status(upstream, http):
    assert await http.get_json(f"{upstream}/ok") == (200, {"fine": True})


async def test_a_form_is_posted_form_encoded(upstream, http):
    assert await http.post_form(f"{upstream}/echo", {"grant_type": "authorization_code", "code": "a b"}) == (
        200,
        {"grant_type": "authorization_code", "code": "a b"},
    )


async def test_a_refusal_that_is_not_json_comes_back_without_a_body(upstream, http):
    assert await http.get_json(f"{upstream}/refused") == (401, None)


@pytest.mark.parametrize(
    "path, reason",
    [
        ("/slow", "unreachable"),  # the timeout
        ("/huge", "more than"),
        ("/error", "answered 500"),
        ("/html", "not JSON"),
    ],
)
async def test_what_is_not_an_answer_makes_the_provider_unavailable(upstream, http, path, reason):
    with pytest.raises(ProviderUnavailable) as refused:
        await http.get_json(f"{upstream}{path}?access_token=secret")
    assert reason in refused.value.reason
    assert "secret" not in refused.value.reason, "the query (which may hold a token) is not repeated"


async def test_a_closed_port_makes_the_provider_unavailable(http):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ProviderUnavailable):
        await http.get_json(f"http://127.0.0.1:{port}/")


async def test_one_session_is_shared_until_closed(http):
    first = http.session()
    assert http.session() is first
    await http.close()
    assert first.closed and http.session() is not first
