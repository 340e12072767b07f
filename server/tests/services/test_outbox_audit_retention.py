"""Issue 26 §2 and §4: outbox mail and audit entries are kept for a bounded time; the
outbox-audit-retention job (one process of a cluster) removes the old and keeps the new."""

from datetime import timedelta

from sqlalchemy import select

from server import clock, jobs
from server.models import AuditEntry, OutboxMail
from server.services import audit, mail
from server.services.job_runs import INTERVAL_SETTINGS


async def write_mail(database, settings, to: str) -> str:
    async with database.session() as db:
        written = mail.write(
            db, settings, to=to, kind=mail.MailKind.PASSWORD_CHANGED, message=mail.Message("Changed", "Text\n")
        )
        await db.commit()
    return written.id


async def record_entry(database, action: str) -> None:
    await audit.record(
        database,
        actor=audit.Actor("user", "a" * 24, "staff@example.com"),
        action=action,
        method="POST",
        path="/api/admin/anything",
        target=None,
        client_address="203.0.113.9",
        status=200,
    )


async def remaining(database, model, ids_column, values) -> set[str]:
    async with database.session() as db:
        return set((await db.execute(select(ids_column).where(ids_column.in_(values)))).scalars())


async def test_the_job_removes_old_mail_and_old_audit_entries_but_keeps_new_ones(database, settings):
    old_mail = await write_mail(database, settings, "old@example.com")
    await record_entry(database, "old_action_for_retention")
    clock.advance(timedelta(days=settings.audit_retention_days, hours=1))
    new_mail = await write_mail(database, settings, "new@example.com")
    await record_entry(database, "new_action_for_retention")

    interval, work = jobs.jobs_for(settings, database)["outbox-audit-retention"]
    await work()

    assert await remaining(database, OutboxMail, OutboxMail.id, [old_mail, new_mail]) == {new_mail}
    actions = ["old_action_for_retention", "new_action_for_retention"]
    assert await remaining(database, AuditEntry, AuditEntry.action, actions) == {"new_action_for_retention"}
    assert interval == settings.outbox_audit_retention_interval_seconds > 0


async def test_mail_is_kept_for_its_retention_hours_then_removed(database, settings):
    kept = await write_mail(database, settings, "kept@example.com")
    clock.advance(timedelta(hours=settings.outbox_retention_hours - 1))
    await mail.purge_old(database, settings.outbox_retention_hours)
    assert await remaining(database, OutboxMail, OutboxMail.id, [kept]) == {kept}
    clock.advance(timedelta(hours=2))
    assert await mail.purge_old(database, settings.outbox_retention_hours) >= 1
    assert await remaining(database, OutboxMail, OutboxMail.id, [kept]) == set()


async def test_the_audit_purge_works_in_batches(database, settings, monkeypatch):
    monkeypatch.setattr(audit, "PURGE_BATCH", 2)
    for n in range(5):
        await record_entry(database, f"batched_{n}")
    clock.advance(timedelta(days=settings.audit_retention_days, hours=1))
    assert await audit.purge_old(database, settings.audit_retention_days) >= 5
    assert await remaining(database, AuditEntry, AuditEntry.action, [f"batched_{n}" for n in range(5)]) == set()


def test_the_staff_dashboard_lists_the_retention_job():
    assert INTERVAL_SETTINGS["outbox-audit-retention"] == "outbox_audit_retention_interval_seconds"
