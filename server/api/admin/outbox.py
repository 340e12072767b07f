"""The mail outbox, for staff: every mail the server wrote, newest first; one sent again (a new
entry, delivered after the answer like any mail; the audit log records who resent it).

Staff read each mail's `staff_text`: its working secrets (a reset link's token) redacted; the
delivered text never leaves the server through here. Reading the outbox is audited (the contract's
`x-touchline-audit: read`), naming the mails read."""

from functools import partial

from ...models import OutboxMail
from ...services import mail
from ...services.paging import PageQuery
from ..http.audit import note_detail, note_target
from ..http.background import ok_then
from ..http.context import settings, staff, state
from ..http.database import db_session
from ..http.envelope import iso, page_of


def present(m: OutboxMail) -> dict:
    return {
        "_id": m.id,
        "to": m.to_address,
        "subject": m.subject,
        "kind": m.kind,
        "text": m.staff_text,
        "status": m.status,
        "added": iso(m.created),
        "sentAt": iso(m.sent_at),
    }


async def list_outbox(to: str | None = None, kind: str | None = None, page: int = 0, size: int = 10):
    await staff()
    async with db_session() as db:
        result = await mail.list_outbox(db, to=to, kind=kind, query=PageQuery(page, size))
    if to:
        note_target(to.strip().lower())
    note_detail({"mailIds": [m.id for m in result.entries]})
    return page_of(result, present)


async def resend_mail(id_: str):
    await staff()
    database, current = state("database"), settings()
    async with db_session() as db:
        resent = await mail.resend(db, current, id_)
    queued = mail.queued_ids([resent])
    return ok_then(present(resent), partial(mail.deliver, database, current, queued) if queued else None)
