"""Mail: every mail lands in the outbox; with SMTP settings it is delivered for real (a local
aiosmtpd server stands in for the mail provider) and the outcome is recorded on the row."""

import email
import email.policy
import socket
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from pydantic import SecretStr

from server.api.http.contract_document import document
from server.app import create_api
from server.models import OutboxMail
from server.services import mail
from server.tests.accounts import PASSWORD, sign_up
from server.tests.conftest import with_state
from server.tests.mailbox import call_and_look_when_answered, client_at, mails_to, reset_link

SMTP_USER, SMTP_PASSWORD = "touchline", "smtp secret"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Inbox:
    """What the local SMTP server received."""

    port: int
    received: list = field(default_factory=list)
    refuse: str | None = None  # an SMTP reply to every RCPT, e.g. "550 5.1.1 No such mailbox"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse:
            return self.refuse
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), message, session.authenticated))
        return "250 Message accepted for delivery"


def text_of(message) -> str:
    return message.get_content().replace("\r\n", "\n")  # lines end in CRLF on the wire


def _authenticate(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
        SMTP_USER.encode(),
        SMTP_PASSWORD.encode(),
    )
    return AuthResult(success=ok, handled=False)


@contextmanager
def smtp_server(*, with_login: bool = False):
    inbox = Inbox(free_port())
    options: dict[str, Any] = (
        {"authenticator": _authenticate, "auth_required": True, "auth_require_tls": False} if with_login else {}
    )
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port, **options)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def inbox():
    with smtp_server() as server:
        yield server


def smtp_settings(settings, port: int, **extra):
    return settings.model_copy(
        update={
            "smtp_host": "127.0.0.1",
            "smtp_port": port,
            "smtp_starttls": False,
            "mail_from": "Touchline <no-reply@touchline.test>",
            **extra,
        }
    )


async def write_one(database, settings, to: str = "ada@example.com") -> OutboxMail:
    async with database.session() as db:
        written = mail.write(
            db,
            settings,
            to=to,
            kind=mail.MailKind.PASSWORD_CHANGED,
            message=mail.Message("Hello from Touchline", "Plain text, with ünïcödé.\n"),
        )
        await db.commit()
    return written


async def reload(database, mail_id: str) -> OutboxMail:
    async with database.session() as db:
        return await db.get(OutboxMail, mail_id)


async def test_without_smtp_settings_mail_is_kept_in_the_outbox(database, settings):
    assert settings.smtp_host is None
    written = await write_one(database, settings)
    await mail.deliver(database, settings, mail.queued_ids([written]))
    kept = await reload(database, written.id)
    assert (kept.status, kept.sent_at, kept.error) == ("kept", None, None)
    assert (kept.to_address, kept.kind, kept.subject) == ("ada@example.com", "password_changed", "Hello from Touchline")


async def test_a_queued_mail_is_sent_through_the_smtp_server_and_marked_sent(database, settings, inbox):
    configured = smtp_settings(settings, inbox.port)
    written = await write_one(database, configured)
    assert (await reload(database, written.id)).status == "queued"
    await mail.deliver(database, configured, mail.queued_ids([written]))
    [(sender, recipients, message, _auth)] = inbox.received
    assert (sender, recipients) == ("no-reply@touchline.test", ["ada@example.com"])
    assert message["From"] == "Touchline <no-reply@touchline.test>"
    assert message["To"] == "ada@example.com"
    assert message["Subject"] == "Hello from Touchline"
    assert message["Message-ID"] and message["Date"]
    assert text_of(message) == "Plain text, with ünïcödé.\n"
    sent = await reload(database, written.id)
    assert sent.status == "sent" and sent.sent_at is not None and sent.error is None


async def test_a_sent_mail_is_not_sent_twice(database, settings, inbox):
    configured = smtp_settings(settings, inbox.port)
    written = await write_one(database, configured)
    await mail.deliver(database, configured, [written.id])
    await mail.deliver(database, configured, [written.id])
    assert len(inbox.received) == 1


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # a local test server
async def test_the_smtp_login_uses_the_configured_credentials(database, settings):
    with smtp_server(with_login=True) as server:
        right = smtp_settings(settings, server.port, smtp_username=SMTP_USER, smtp_password=SecretStr(SMTP_PASSWORD))
        wrong = smtp_settings(settings, server.port, smtp_username=SMTP_USER, smtp_password=SecretStr("not it"))
        accepted, refused = await write_one(database, right), await write_one(database, wrong)
        await mail.deliver(database, right, [accepted.id])
        await mail.deliver(database, wrong, [refused.id])
    assert len(server.received) == 1 and server.received[0][3] is True
    assert (await reload(database, accepted.id)).status == "sent"
    failed = await reload(database, refused.id)
    assert failed.status == "failed" and failed.error is not None and "535" in failed.error
    assert "not it" not in failed.error


async def test_a_mail_the_smtp_server_refuses_is_marked_failed_and_kept(database, settings, inbox):
    inbox.refuse = "550 5.1.1 No such mailbox"
    configured = smtp_settings(settings, inbox.port)
    written = await write_one(database, configured)
    await mail.deliver(database, configured, [written.id])
    failed = await reload(database, written.id)
    assert failed.status == "failed" and failed.sent_at is None
    assert failed.error is not None and "No such mailbox" in failed.error
    assert failed.text == "Plain text, with ünïcödé.\n", "the mail itself stays in the outbox"


async def test_an_unreachable_smtp_server_marks_the_mail_failed(database, settings):
    configured = smtp_settings(settings, free_port(), smtp_timeout=5)
    written = await write_one(database, configured)
    await mail.deliver(database, configured, [written.id])
    failed = await reload(database, written.id)
    assert failed.status == "failed" and failed.error


async def test_starttls_is_required_unless_turned_off(database, settings, inbox):
    configured = smtp_settings(settings, inbox.port, smtp_starttls=True)  # this server offers no STARTTLS
    written = await write_one(database, configured)
    await mail.deliver(database, configured, [written.id])
    assert inbox.received == []
    failed = await reload(database, written.id)
    assert failed.status == "failed" and failed.error is not None and "STARTTLS" in failed.error.upper()


def test_the_mail_kinds_are_the_contracts():
    assert [k.value for k in mail.MailKind] == document()["components"]["schemas"]["MailKind"]["enum"]


# --- through the API ------------------------------------------------------------------------


async def test_a_reset_link_arrives_through_smtp(database, settings, inbox):
    configured = smtp_settings(settings, inbox.port)
    api = create_api(configured)
    async with client_at(api, database, configured) as http:
        account = await sign_up(http)
        inbox.received.clear()  # the sign-up's confirmation mail; the test is about the next one
        assert (await http.post("/api/user/password/forgot", json={"email": account["email"]})).status_code == 200
    [(_sender, recipients, message, _auth)] = inbox.received
    assert recipients == [account["email"]]
    link = reset_link(text_of(message))
    assert link.startswith(f"{configured.base_url}/auth/password/reset/?token=")
    [outbox] = await mails_to(database, account["email"], "password_reset")
    assert outbox.status == "sent" and outbox.sent_at is not None
    assert reset_link(outbox.text) == link


async def test_the_answer_does_not_wait_for_smtp_and_the_mail_is_committed_first(database, settings, inbox):
    configured = smtp_settings(settings, inbox.port)
    api = create_api(configured)
    app = with_state(api, {"database": database, "settings": configured})
    async with client_at(api, database, configured) as http:
        account = await sign_up(http)
        inbox.received.clear()  # the sign-up's confirmation mail; the test is about the next one
    seen: list = []

    async def look():
        seen.append(([m.status for m in await mails_to(database, account["email"])], len(inbox.received)))

    status = await call_and_look_when_answered(
        app,
        "POST",
        "/api/user/change_password",
        headers=account["headers"],
        json={"current_password": PASSWORD, "new_password": "a brand new passphrase"},
        look=look,
    )
    assert status == 200
    assert seen == [(["queued"], 0)]
    assert [m.status for m in await mails_to(database, account["email"])] == ["sent"]
    assert len(inbox.received) == 1
