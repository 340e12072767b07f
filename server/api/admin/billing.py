"""Billing for staff: run the renewal job now (the one the server runs on its schedule)."""

import logging
from functools import partial

from ...payments import provider_for
from ...realtime.announcements import announce_purchase_statuses
from ...services import mail
from ...services.commerce import renewals
from ..http.background import ok_then
from ..http.context import settings, staff, state

log = logging.getLogger(__name__)


async def run_renewals(body: dict | None = None):
    principal = await staff()
    dry_run = bool((body or {}).get("dry_run", False))
    database = state("database")
    report = await renewals.run(database, provider_for(settings(), database), dry_run=dry_run, settings=settings())
    # Through this server's emitter: with Redis, every process's sockets hear it.
    announced = await announce_purchase_statuses(report.announcements, database=database)
    log.info("staff %s ran renewals%s: %s", principal.user_id, " (dry run)" if dry_run else "", report)
    content = {**report.as_contract(), "errors": report.errors, "announced": announced}
    # Receipts and renewal notices go out (with SMTP) after the answer.
    return ok_then(content, partial(mail.deliver, database, settings(), report.mail_ids) if report.mail_ids else None)
