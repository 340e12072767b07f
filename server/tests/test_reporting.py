"""Error reporting (server/reporting.py) against a local endpoint that receives the Sentry SDK's
envelopes: answers of 500 and more are reported, others are not, and nothing without a DSN."""

import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
import sentry_sdk

from server import reporting
from server.app import create_api
from server.services import analytics
from server.settings import Settings
from server.tests.conftest import with_state

TRACK = {
    "type": "track",
    "name": "reporting_probe",
    "tenant": "touchline",
    "anonymousId": "anon-reporting-1",
    "timestamp": "2026-11-24T18:00:00Z",
    "properties": {},
}


class Receiver:
    """A tiny HTTP server standing in for Sentry: it keeps every envelope's items."""

    def __init__(self) -> None:
        self.items: list[dict] = []
        self.paths: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                encoding = self.headers.get("Content-Encoding")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "br":  # sentry-sdk prefers Brotli when the brotli module is installed
                    import brotli

                    body = brotli.decompress(body)
                outer.paths.append(self.path)
                lines = body.split(b"\n")
                # An envelope: a header line, then (item header, item payload) pairs.
                for header, payload in zip(lines[1::2], lines[2::2], strict=False):
                    if json.loads(header).get("type") == "event":
                        outer.items.append(json.loads(payload))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.server.server_address[1]}/42"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    with Receiver() as running:
        yield running
    sentry_sdk.init()  # no DSN: the SDK is off again for the other tests


def client_for(settings: Settings, database) -> httpx.AsyncClient:
    api = create_api(settings)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings}))
    return httpx.AsyncClient(transport=transport, base_url="http://touchline.test")


async def test_an_unexpected_error_is_reported_once_and_client_errors_are_not(
    receiver, database, database_url, monkeypatch
):
    settings = Settings(environment="test", database_url=database_url, sentry_dsn=receiver.dsn)

    async def broken(*_args, **_kwargs):
        raise RuntimeError("the analytics table is on fire")

    async with client_for(settings, database) as client:
        assert reporting.enabled()
        refused = await client.post("/api/analytics/events", json={"events": []})
        assert refused.status_code == 400
        monkeypatch.setattr(analytics, "record_events", broken)
        failed = await client.post("/api/analytics/events", json={"events": [TRACK]})
        assert failed.status_code == 500 and failed.json()["messageErrorCode"] == "internal_error"
        assert failed.json()["message"] == "An error occurred"  # no internals in the answer
    sentry_sdk.flush(timeout=5)
    assert receiver.paths and all(path.startswith("/api/42/envelope/") for path in receiver.paths)
    [report] = receiver.items
    [exception] = report["exception"]["values"]
    assert exception["type"] == "RuntimeError" and exception["value"] == "the analytics table is on fire"
    assert report["environment"] == "test" and report["level"] == "error"


async def test_a_5xx_answer_without_an_exception_is_reported_as_a_message(receiver):
    settings = Settings(environment="test", sentry_dsn=receiver.dsn)
    assert reporting.configure(settings)

    async def unavailable(scope, receive, send):
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def fine(scope, receive, send):
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    for app in (unavailable, fine):
        transport = httpx.ASGITransport(app=reporting.ServerErrorReporting(app))
        async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as client:
            await client.get("/api/health?secret=x")
    sentry_sdk.flush(timeout=5)
    [report] = receiver.items
    assert report["message"] == "503 answered to GET /api/health" and report["tags"]["http.status_code"] == "503"


def test_nothing_is_set_up_without_a_dsn():
    sentry_sdk.init()
    assert not reporting.configure(Settings(environment="test"))
    assert not reporting.enabled()
    reporting.report_exception(RuntimeError("not sent"))  # a no-op
    assert not any(m is reporting.ServerErrorReporting for m in _middlewares(Settings(environment="test")))


def _middlewares(settings):
    from server.app import _middlewares as middlewares

    return middlewares(settings)
