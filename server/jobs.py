"""Background work of a server process, started with the app (server.app `running()`).

- settlement (server.services.commerce.settlement.settle_due) every
  `settlement_interval_seconds`: "requires action" charges the provider has decided reach their
  purchase or contract, and the viewer hears of it on the socket (the job sends what the service
  reports);
- renewals (server.services.commerce.renewals.run) every `renewal_interval_seconds`, the first
  run at start-up;
- payment housekeeping every `payment_cleanup_interval_seconds`: idempotency keys past their
  lifetime and card tokens past their expiry are deleted.
- notices every `notices_interval_seconds`: `user-purchase-status` messages whose deciding
  process died between its commit and its send go out (server.services.status_notices);
- live alerts every `live_alerts_interval_seconds`: followers of an event that went live whose
  deciding process died before telling them are told (server.realtime.live_alerts);
- kickoff every `kickoff_interval_seconds`: upcoming events whose event_date has come go live
  (server.services.event_admin.start_due), their rooms get `update-event`, and every process's
  anonymous catalogue cache is emptied (server.realtime.signals);
- analytics retention every `analytics_retention_interval_seconds`: analytics events older than
  `analytics_retention_days` are deleted in batches (server.services.analytics_retention);
- outbox and audit retention every `outbox_audit_retention_interval_seconds`: mail older than
  `outbox_retention_hours` and audit entries older than `audit_retention_days` are deleted in
  batches (server.services.mail.purge_old, server.services.audit.purge_old);
- media sweep every `media_sweep_interval_seconds`: asset directories no asset names any more
  are removed an hour after they last changed (server.media.assets.sweep).
- outage credit every `outage_interval_seconds`: live pay-per-view events are watched for
  outages, and the buyers of an event whose outages added up are credited once, each told on the
  socket and by mail (server.services.outage_credit).

An interval of 0 turns that job off. Every server process schedules them, but each round runs
in one process only: the one holding the job's lease (server.services.job_runs), which also
records the round's outcome for the staff dashboard. Besides, each outcome is applied with a
conditional UPDATE, so rounds that overlap (a lease taken over from a slow holder) never apply
(or charge) anything twice. A job that raises is logged and runs again after its interval; leaving the
block cancels the jobs and waits for them (a run cut short leaves nothing half-written: each
outcome is one transaction, and the provider's references make a repeated charge harmless).
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import delete

from . import clock
from .db import Database, rows_changed
from .services import job_runs
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


@dataclass(frozen=True)
class Lease:
    """Run a job's rounds only while `holder` holds its lease in `database` (server.services.job_runs)."""

    database: Database
    holder: str


async def _every(name: str, interval: float, work: Callable[[], Awaitable[object]], lease: Lease | None = None) -> None:
    while True:
        try:
            if lease is None or await job_runs.claim(lease.database, name, lease.holder, interval):
                await _round(name, work, lease)
        except asyncio.CancelledError:
            raise
        except Exception:  # the lease itself could not be asked (the database is down)
            log.exception("background job %s could not claim its lease; it tries again in %s s", name, interval)
        await asyncio.sleep(interval)


async def _round(name: str, work: Callable[[], Awaitable[object]], lease: Lease | None) -> None:
    ok = True
    try:
        await work()
    except asyncio.CancelledError:
        raise
    except Exception:
        ok = False
        log.exception("background job %s failed; it runs again at its next round", name)
    if lease is not None:
        await job_runs.ran(lease.database, name, lease.holder, ok=ok)


def jobs_for(settings: Settings, database: Database) -> dict[str, tuple[float, Callable[[], Awaitable[object]]]]:
    """name -> (interval in seconds, work) of the jobs `settings` turn on."""
    from .payments import provider_for
    from .realtime.announcements import announce_change, announce_purchase_statuses, resend_unsent_statuses
    from .services import analytics_retention, mail, status_notices
    from .services.commerce import renewals, settlement

    provider = provider_for(settings, database)

    async def settle() -> None:
        report = await settlement.settle_due(database, provider, settings=settings)
        await announce_purchase_statuses(report.announcements, database=database)
        await mail.deliver(database, settings, [i for a in report.announcements for i in a.mail_ids])

    async def renew() -> None:
        try:
            report = await renewals.run(database, provider, settings=settings)
        except renewals.RenewalRunInProgress:
            log.info("scheduled renewal run skipped: another run is in progress")
            return
        await announce_purchase_statuses(report.announcements, database=database)
        await mail.deliver(database, settings, report.mail_ids)
        if report.due:
            log.info("renewal run: %s", report)

    async def clean() -> None:
        keys, tokens = await purge_payment_leftovers(database)
        if keys or tokens:
            log.info("payment housekeeping: %d idempotency keys and %d card tokens deleted", keys, tokens)

    async def kickoff() -> None:
        from .realtime.announcements import announce_catalogue_changed
        from .services import event_admin

        started = await event_admin.start_due(database, media=event_admin.Media.of(settings))
        if started:
            await announce_catalogue_changed()
            log.info("kickoff: %d events went live", len(started))
        for change in started:
            await announce_change(change)

    async def notices() -> None:
        await resend_unsent_statuses(database)
        await status_notices.purge_sent(database)

    async def live_alerts() -> None:
        from .realtime.live_alerts import default as alerts

        for report in await alerts.send_unsent():
            log.warning("live alerts: event %s's alert was due; %d told by this job", report.event_id, report.told)

    async def retain_analytics() -> None:
        from .services import qoe_beacons

        deleted = await analytics_retention.delete_expired(database, settings)
        beacons = await qoe_beacons.delete_expired(database, settings)
        if deleted or beacons:
            log.info("analytics retention: %d events and %d QoE beacons deleted", deleted, beacons)

    async def qoe_alerts() -> None:
        from .realtime.qoe_alerts import check_live_events

        await check_live_events(database, settings)

    async def outage_credit() -> None:
        from .ingest import live_inputs
        from .realtime.announcements import announce_purchase_credited
        from .services import outage_credit as credits

        inputs = live_inputs.current()  # this process's feeds know an interruption first
        await credits.run_round(
            database,
            provider,
            settings,
            feeds=inputs.health if inputs is not None else None,
            announce=announce_purchase_credited,
        )

    async def retain_outbox_and_audit() -> None:
        from .services import audit

        mails = await mail.purge_old(database, settings.outbox_retention_hours)
        entries = await audit.purge_old(database, settings.audit_retention_days)
        if mails or entries:
            log.info("retention: %d outbox mails and %d audit entries deleted", mails, entries)

    async def sweep_media() -> None:
        from .media.assets.store import store_of
        from .media.assets.sweep import sweep_orphans
        from .transcoding.leftovers import sweep_uploads

        await sweep_orphans(database, store_of(settings))
        await sweep_uploads(database, settings)

    planned = {
        "notices": (settings.notices_interval_seconds, notices),
        "live-alerts": (settings.live_alerts_interval_seconds, live_alerts),
        "settlement": (settings.settlement_interval_seconds, settle),
        "renewals": (settings.renewal_interval_seconds, renew),
        "payment-cleanup": (settings.payment_cleanup_interval_seconds, clean),
        "kickoff": (settings.kickoff_interval_seconds, kickoff),
        "analytics-retention": (settings.analytics_retention_interval_seconds, retain_analytics),
        "outbox-audit-retention": (settings.outbox_audit_retention_interval_seconds, retain_outbox_and_audit),
        "media-sweep": (settings.media_sweep_interval_seconds, sweep_media),
        "qoe-alerts": (settings.qoe_alert_interval_seconds, qoe_alerts),
        "outage-credit": (settings.outage_interval_seconds, outage_credit),
    }
    return {name: job for name, job in planned.items() if job[0] > 0}


@contextlib.asynccontextmanager
async def running(settings: Settings, database: Database):
    """Run the jobs for the block; they are cancelled (and awaited) when it ends."""
    lease = Lease(database, job_runs.new_holder())
    planned = jobs_for(settings, database)
    tasks = [
        asyncio.create_task(_every(name, interval, work, lease), name=f"touchline-job-{name}")
        for name, (interval, work) in planned.items()
    ]
    try:
        yield tasks
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for name in planned:  # another process takes over at its next round, not a lease later
            with contextlib.suppress(Exception):
                await job_runs.release(database, name, lease.holder)
