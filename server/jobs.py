"""Background work of a server process, started with the app (server.app `running()`).

- settlement (server.services.commerce.settlement.settle_due) every
  `settlement_interval_seconds`: "requires action" charges the provider has decided reach their
  purchase or contract, and the viewer hears of it on the socket (the job sends what the service
  reports);
- renewals (server.services.commerce.renewals.run) every `renewal_interval_seconds`, the first
  run at start-up;
- payment housekeeping every `payment_cleanup_interval_seconds`: idempotency keys past their
  lifetime and card tokens past their expiry are deleted.
- kickoff every `kickoff_interval_seconds`: upcoming events whose event_date has come go live
  (server.services.event_admin.start_due), their rooms get `update-event`, and this process's
  anonymous catalogue cache is emptied.

An interval of 0 turns that job off. Every server process runs them: each outcome is applied
with a conditional UPDATE, so processes running the same job at once never apply (or charge)
anything twice. A job that raises is logged and runs again after its interval; leaving the
block cancels the jobs and waits for them (a run cut short leaves nothing half-written: each
outcome is one transaction, and the provider's references make a repeated charge harmless).
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import delete

from . import clock
from .db import Database, rows_changed
from .settings import Settings

log = logging.getLogger(__name__)


async def purge_payment_leftovers(database: Database) -> tuple[int, int]:
    """Delete expired idempotency keys and expired card tokens; (keys, tokens) deleted."""
    from .models import CardHandle
    from .payments.idempotency import purge_expired

    async with database.write_session() as db:
        keys = await purge_expired(db)
        tokens = await db.execute(
            delete(CardHandle).where(CardHandle.kind == "token", CardHandle.expires_at <= clock.now())
        )
        await db.commit()
    return keys, rows_changed(tokens)


async def _every(name: str, interval: float, work: Callable[[], Awaitable[object]]) -> None:
    while True:
        try:
            await work()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("background job %s failed; it runs again in %s s", name, interval)
        await asyncio.sleep(interval)


def jobs_for(settings: Settings, database: Database) -> dict[str, tuple[float, Callable[[], Awaitable[object]]]]:
    """name -> (interval in seconds, work) of the jobs `settings` turn on."""
    from .payments import provider_for
    from .realtime.announcements import announce_change, announce_purchase_statuses
    from .services.commerce import renewals, settlement

    provider = provider_for(settings, database)

    async def settle() -> None:
        report = await settlement.settle_due(database, provider)
        await announce_purchase_statuses(report.announcements)

    async def renew() -> None:
        try:
            report = await renewals.run(database, provider)
        except renewals.RenewalRunInProgress:
            log.info("scheduled renewal run skipped: another run is in progress")
            return
        await announce_purchase_statuses(report.announcements)
        if report.due:
            log.info("renewal run: %s", report)

    async def clean() -> None:
        keys, tokens = await purge_payment_leftovers(database)
        if keys or tokens:
            log.info("payment housekeeping: %d idempotency keys and %d card tokens deleted", keys, tokens)

    async def kickoff() -> None:
        from .api.http.cache import clear_all
        from .services import event_admin

        started = await event_admin.start_due(database)
        if started:
            clear_all()
            log.info("kickoff: %d events went live", len(started))
        for change in started:
            await announce_change(change)

    planned = {
        "settlement": (settings.settlement_interval_seconds, settle),
        "renewals": (settings.renewal_interval_seconds, renew),
        "payment-cleanup": (settings.payment_cleanup_interval_seconds, clean),
        "kickoff": (settings.kickoff_interval_seconds, kickoff),
    }
    return {name: job for name, job in planned.items() if job[0] > 0}


@contextlib.asynccontextmanager
async def running(settings: Settings, database: Database):
    """Run the jobs for the block; they are cancelled (and awaited) when it ends."""
    tasks = [
        asyncio.create_task(_every(name, interval, work), name=f"touchline-job-{name}")
        for name, (interval, work) in jobs_for(settings, database).items()
    ]
    try:
        yield tasks
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
