"""Test helpers for mail and account security: the outbox, reset links, staff sign-in, clients
with their own address (rate limits count per client address) and a socket recorder."""

import itertools
import re
from contextlib import asynccontextmanager, contextmanager
from urllib.parse import parse_qs, urlsplit

import httpx
import orjson
from sqlalchemy import select

from server.models import OutboxMail, User
from server.realtime import emitter
from server.tests.accounts import create_user, sign_in
from server.tests.conftest import with_state

_addresses = itertools.count(1)
LINK = re.compile(r"^(http\S+/auth/password/reset/\?token=\S+)$", re.MULTILINE)


def new_client_address() -> str:
    n = next(_addresses)
    return f"198.18.{n // 250}.{n % 250 + 1}"


@asynccontextmanager
async def client_at(api, database, settings, address: str | None = None):
    """An API client calling from its own address (`api` built with `settings`)."""
    transport = httpx.ASGITransport(
        app=with_state(api, {"database": database, "settings": settings}),
        client=(address or new_client_address(), 41000),
    )
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as http:
        yield http


async def call_and_look_when_answered(app, method: str, path: str, *, json, headers: dict | None = None, look) -> int:
    """Call the ASGI `app` directly and run `await look()` at the moment the last byte of the
    answer is sent, before any work left for after the answer. Returns the answer's status."""
    body = orjson.dumps(json)
    received = iter([{"type": "http.request", "body": body, "more_body": False}])
    status = []

    async def receive():
        return next(received, {"type": "http.disconnect"})

    async def send(message):
        if message["type"] == "http.response.start":
            status.append(message["status"])
        if message["type"] == "http.response.body" and not message.get("more_body"):
            await look()

    raw_headers = [
        (b"host", b"touchline.test"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    raw_headers += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": raw_headers,
        "client": (new_client_address(), 40000),
        "server": ("touchline.test", 80),
    }
    await app(scope, receive, send)
    return status[0]


async def mails_to(database, address: str, kind: str | None = None) -> list[OutboxMail]:
    """Outbox mail to `address`, oldest first. Without `kind`, a sign-up's confirmation mail is left
    out: accounts.sign_up opened it already, and tests count the mail that came after."""
    stmt = select(OutboxMail).where(OutboxMail.to_address == address)
    if kind:
        stmt = stmt.where(OutboxMail.kind == kind)
    else:
        stmt = stmt.where(OutboxMail.kind != "email_verification")
    async with database.session() as db:
        return list((await db.execute(stmt.order_by(OutboxMail.created, OutboxMail.id))).scalars())


def reset_link(text: str) -> str:
    match = LINK.search(text)
    assert match, f"no reset link in {text!r}"
    return match.group(1)


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


async def request_reset(client, database, email: str) -> str:
    """Ask for a reset link for `email` and return the token from the newest reset mail."""
    answer = await client.post("/api/user/password/forgot", json={"email": email})
    assert answer.status_code == 200, answer.text
    mails = await mails_to(database, email, "password_reset")
    assert mails, f"no password_reset mail to {email}"
    return token_of(reset_link(mails[-1].text))


async def user_row(database, user_id: str) -> User:
    async with database.session() as db:
        return await db.get(User, user_id)


async def staff_headers(client, database, settings) -> dict:
    """Create a staff account in the database and sign it in through POST /api/user/login."""
    email = await create_user(database, role="admin")
    answer = await sign_in(client, email)
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['content']['tokenData']['access_token']}"}


class SocketRecorder:
    """Bound to the process-wide emitter in place of the socket server: remembers what was sent."""

    def __init__(self):
        self.sent: list[tuple[str, dict, str | None]] = []
        self.fail = False  # True: every emit raises, as when the socket's fan-out is gone

    async def emit(self, event, data, namespace=None, room=None):
        if self.fail:
            raise ConnectionError("the socket fan-out is unavailable")
        self.sent.append((event, data, room))


@contextmanager
def recording_socket():
    recorder, previous = SocketRecorder(), emitter.default._target
    emitter.bind(recorder)
    try:
        yield recorder
    finally:
        emitter.bind(previous)
