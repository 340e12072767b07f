"""Mail: written to the outbox first, delivered through SMTP afterwards.

`write()` adds the mail to the outbox table inside the caller's transaction, so a mail exists
exactly when the change it reports was committed. A mail that carries a working secret (a reset
link's token: anything that signs someone in) names it in `Message.secrets`; the outbox keeps,
beside the text that is delivered, the text staff are shown, with each secret replaced by
`REDACTED` (rendered here, when the mail is written, not guessed from the text later). Staff
never see the delivered text: only SMTP (and the database) carry it. Without SMTP settings it stays there with
status `kept` (staff read it with `GET /admin/outbox`). With SMTP it is `queued`, and
`deliver()` (run after the commit, outside the request) sends it and records `sent` or `failed`;
the outbox row is never removed, whatever the SMTP server says. Staff send a mail again with
`resend()`: a new outbox entry, delivered the same way. Mail is removed once older than
`outbox_retention_hours` (`purge_old()`, a cluster-wide job in server.jobs).
"""

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid, parseaddr
from enum import StrEnum

import aiosmtplib
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database
from ..errors import NotFound
from ..models import OutboxMail, new_id
from ..settings import Settings
from .paging import Page, PageQuery, paginate
from .retention import delete_older_than

log = logging.getLogger(__name__)

KEPT = "kept"
QUEUED = "queued"
SENT = "sent"
FAILED = "failed"
# Rows deleted per statement by `purge_old()`: short transactions, whatever the backlog.
PURGE_BATCH = 1000


class MailKind(StrEnum):
    """The contract's MailKind."""

    PASSWORD_RESET = "password_reset"
    PASSWORD_CHANGED = "password_changed"
    ACCOUNT_DELETED = "account_deleted"
    PURCHASE_RECEIPT = "purchase_receipt"
    RENEWAL_FAILED = "renewal_failed"
    EMAIL_VERIFICATION = "email_verification"  # a sign-up's link: a working secret
    SIGNUP_ATTEMPT = "signup_attempt"  # someone signed up with an address that has an account
    LIVE_ALERT = "live_alert"  # an event of something the viewer follows went live (opt-in)
    OUTAGE_CREDIT = "outage_credit"  # a paid stream failed: the purchase was refunded, or a code given


# Kinds whose text carries a working secret: written without naming it in `secrets` is a bug.
SECRET_KINDS = frozenset({MailKind.PASSWORD_RESET, MailKind.EMAIL_VERIFICATION})
REDACTED = "…redacted…"
# A link whose query names one of these carries a secret (a safety net for a forgotten `secrets`).
_SECRET_QUERY = re.compile(r"[?&](?:token|code|key|secret)=([^&\s]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Message:
    subject: str
    text: str
    # Substrings of `text` that must never be shown to staff (a reset token): redacted in `staff_text`.
    secrets: tuple[str, ...] = ()

    def staff_text(self) -> str:
        text = self.text
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text


class UndeclaredSecret(ValueError):
    """A mail would show staff a secret: the code that wrote it did not name it in `secrets`."""


def _checked(kind: MailKind, message: Message) -> Message:
    if any(not secret or secret not in message.text for secret in message.secrets):
        raise UndeclaredSecret(f"a {kind} mail names a secret its text does not contain")
    if kind in SECRET_KINDS and not message.secrets:
        raise UndeclaredSecret(f"a {kind} mail must name its secret")
    shown = message.staff_text()
    if any(match.group(1) != REDACTED for match in _SECRET_QUERY.finditer(shown)):
        raise UndeclaredSecret(f"a {kind} mail holds a link with a secret it does not name")
    return message


# --- the mails ------------------------------------------------------------------------------


def password_reset_message(link: str, minutes: int, *, token: str) -> Message:
    """`token` is the secret part of `link`, redacted for staff."""
    return Message(
        "Reset your Touchline password",
        "Someone asked to reset the password of your Touchline account.\n"
        f"Open this link within {minutes} minutes to choose a new one:\n"
        f"{link}\n\n"
        "The link works once. If you did not ask for it, ignore this mail: your password stays as it is.\n",
        secrets=(token,),
    )


def password_changed_message(base_url: str) -> Message:
    return Message(
        "Your Touchline password was changed",
        "The password of your Touchline account was just changed.\n\n"
        "If that was not you, choose a new password now:\n"
        f"{base_url}/auth/password/forgot/\n",
    )


def account_deleted_message() -> Message:
    return Message(
        "Your Touchline account was deleted",
        "Your Touchline account was deleted and its personal data erased.\n"
        "You were signed out on every device. This address is no longer stored with us; "
        "you may sign up again with it at any time.\n",
    )


def purchase_receipt_message(
    *, title: str, amount: str, card: str | None, reference: str, access: str, link: str
) -> Message:
    return Message(
        f"Your Touchline receipt: {title}",
        "Thank you for your purchase.\n\n"
        f"Product: {title}\n"
        f"Amount paid: {amount}\n" + (f"Paid with: {card}\n" if card else "") + f"{access}\n"
        f"Receipt number: {reference}\n\n"
        f"See it in your account: {link}\n",
    )


def renewal_failed_message(*, title: str, amount: str, grace_until: str, link: str) -> Message:
    return Message(
        f"We could not renew your Touchline subscription: {title}",
        f"The renewal payment of {amount} for {title} did not go through.\n"
        f"You keep watching until {grace_until} while we try again once a day.\n\n"
        f"To keep your subscription, add or replace your card: {link}\n",
    )


def live_alert_message(*, title: str, link: str) -> Message:
    """`title` as the viewer may see it (no score when they are spoiler-free)."""
    return Message(
        f"Live now on Touchline: {title}",
        f"{title} has just gone live.\n\n"
        f"Watch it now: {link}\n\n"
        "You get this mail because you follow a team or league of this event and asked for go-live\n"
        "alerts by mail. Turn them off in your account's settings.\n",
    )


def outage_credit_refund_message(*, title: str, amount: str, card: str | None) -> Message:
    """A pay-per-view purchase refunded because the event's stream failed (issue 32 §3)."""
    return Message(
        f"We refunded your Touchline purchase: {title}",
        f"The stream of {title} failed for too long, so we refunded what you paid for it.\n\n"
        f"Refunded: {amount}\n" + (f"To: {card}\n" if card else "") + "\n"
        "Your bank may take a few days to show it. You keep watching the event as before.\n",
    )


def outage_credit_code_message(*, title: str, product: str, code: str, link: str) -> Message:
    """A code for `product` given because the stream of `title` failed; `code` works once, so it
    is a secret staff never see."""
    return Message(
        f"A code for you after the stream of {title} failed",
        f"The stream of {title} failed for too long. To make up for it, here is a code for {product}:\n\n"
        f"{code}\n\n"
        f"Redeem it once, signed in: {link}\n",
        secrets=(code,),
    )


# --- the outbox -----------------------------------------------------------------------------


def write(db: AsyncSession, settings: Settings, *, to: str, kind: MailKind, message: Message) -> OutboxMail:
    """Add a mail to the outbox in the caller's transaction; the caller commits, then calls
    `deliver()` with the ids of the mails whose status is `queued`. Raises UndeclaredSecret when
    the text would show staff a secret `message` does not name."""
    message = _checked(kind, message)
    mail = OutboxMail(
        id=new_id(),
        to_address=to,
        kind=str(kind),
        subject=message.subject,
        text=message.text,
        staff_text=message.staff_text(),
        status=QUEUED if settings.smtp_host else KEPT,
        created=clock.now(),
    )
    db.add(mail)
    return mail


class MailNotFound(NotFound):
    code = "mail_not_found"

    def __init__(self) -> None:
        super().__init__("Mail not found")


async def resend(db: AsyncSession, settings: Settings, mail_id: str) -> OutboxMail:
    """Write the mail `mail_id` again as a new outbox entry (same address, kind, subject and
    text, and the same text for staff; the original stays as it was) and commit; the caller then
    delivers it if `queued`."""
    original = await db.get(OutboxMail, mail_id)
    if original is None:
        raise MailNotFound()
    copy = OutboxMail(
        id=new_id(),
        to_address=original.to_address,
        kind=original.kind,
        subject=original.subject,
        text=original.text,
        staff_text=original.staff_text,
        status=QUEUED if settings.smtp_host else KEPT,
        created=clock.now(),
    )
    db.add(copy)
    await db.commit()
    return copy


async def purge_old(database: Database, retention_hours: int) -> int:
    """Delete mail written more than `retention_hours` ago, a batch per transaction; how many."""
    cutoff = clock.now() - timedelta(hours=retention_hours)
    return await delete_older_than(database, OutboxMail.created, cutoff, batch=PURGE_BATCH)


def queued_ids(mails: Iterable[OutboxMail | None]) -> list[str]:
    return [m.id for m in mails if m is not None and m.status == QUEUED]


async def list_outbox(db: AsyncSession, *, to: str | None, kind: str | None, query: PageQuery) -> Page[OutboxMail]:
    """Mail, newest first; `to` matches the address case-insensitively."""
    stmt = select(OutboxMail)
    if to:
        stmt = stmt.where(func.lower(OutboxMail.to_address) == to.strip().lower())
    if kind:
        stmt = stmt.where(OutboxMail.kind == kind)
    return await paginate(db, stmt.order_by(OutboxMail.created.desc(), OutboxMail.id.desc()), query)


# --- delivery -------------------------------------------------------------------------------


async def deliver(database: Database, settings: Settings, mail_ids: Iterable[str]) -> None:
    """Send queued mails through SMTP and record the outcome. Never raises for a delivery
    failure: the mail is marked `failed` with the reason and stays in the outbox."""
    for mail_id in mail_ids:
        await _deliver_one(database, settings, mail_id)


async def _deliver_one(database: Database, settings: Settings, mail_id: str) -> None:
    async with database.session() as db:
        mail = await db.get(OutboxMail, mail_id)
    if mail is None or mail.status != QUEUED or not settings.smtp_host:
        return
    status, error = SENT, None
    try:
        await aiosmtplib.send(
            _email(mail, settings),
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_username or None,
            password=settings.smtp_password.get_secret_value() if settings.smtp_password else None,
            start_tls=settings.smtp_starttls,
            timeout=settings.smtp_timeout,
        )
    except Exception as exc:  # any failure (refused, unreachable, TLS, timeout) is recorded, not raised
        status, error = FAILED, f"{type(exc).__name__}: {exc}"[:500]
        log.warning("mail %s (%s) to the SMTP server failed: %s", mail.id, mail.kind, error)
    async with database.session() as db:
        await db.execute(
            update(OutboxMail)
            .where(OutboxMail.id == mail.id, OutboxMail.status == QUEUED)
            .values(status=status, error=error, sent_at=clock.now() if status == SENT else None)
        )
        await db.commit()


def _email(mail: OutboxMail, settings: Settings) -> EmailMessage:
    sender_name, sender_address = parseaddr(settings.mail_from)
    message = EmailMessage()
    message["From"] = formataddr((sender_name, sender_address))
    message["To"] = mail.to_address
    message["Subject"] = mail.subject
    message["Date"] = format_datetime(mail.created)
    message["Message-ID"] = make_msgid(idstring=mail.id, domain=sender_address.rpartition("@")[2] or None)
    message.set_content(mail.text)
    return message
