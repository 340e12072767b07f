"""Which server process runs each background job, and the record of their runs.

Every process schedules the jobs (server.jobs), but a round runs only in the process that holds
the job's lease, a row of `job_leases`: `claim()` takes it when it is free or expired, or renews
it for its holder, in one conditional UPDATE (atomic on SQLite and PostgreSQL, so two processes
never both get it). The holder renews it every round; when the holder stops, another process
takes over once the lease expires: at most `lease_seconds(interval)` after the holder's last
round. Outcomes are applied with conditional UPDATEs besides (server.jobs), so a round that
overlaps another (a holder slower than its lease) never applies anything twice: the lease saves
the duplicate work, correctness does not rest on it.

`ran()` records a round's outcome on the row, so the staff dashboard shows the last run of each
job across the cluster, whichever process ran it.
"""

import os
import socket
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database, rows_changed
from ..models import JobLease
from ..settings import Settings

# Job name -> the setting that holds its interval in seconds (0: off). server.jobs uses the same.
INTERVAL_SETTINGS = {
    "settlement": "settlement_interval_seconds",
    "renewals": "renewal_interval_seconds",
    "payment-cleanup": "payment_cleanup_interval_seconds",
    "kickoff": "kickoff_interval_seconds",
    "notices": "notices_interval_seconds",
    "live-alerts": "live_alerts_interval_seconds",
    "analytics-retention": "analytics_retention_interval_seconds",
    "outbox-audit-retention": "outbox_audit_retention_interval_seconds",
    "media-sweep": "media_sweep_interval_seconds",
    "qoe-alerts": "qoe_alert_interval_seconds",
    "outage-credit": "outage_interval_seconds",
}
# A lease outlives its holder's next round by this much at least (a slow round, a busy database).
LEASE_GRACE_SECONDS = 5.0


@dataclass(frozen=True)
class JobState:
    name: str
    interval_seconds: float
    enabled: bool
    last_run: datetime | None
    last_outcome: str | None  # ok, failed
    holder: str | None = None  # the process that ran it last


def new_holder() -> str:
    """A name for this process's claims: host and pid for people, a random part for uniqueness."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def lease_seconds(interval: float) -> float:
    return interval * 1.5 + LEASE_GRACE_SECONDS


async def claim(database: Database, name: str, holder: str, interval: float) -> bool:
    """Take or renew the lease of job `name` for `holder`; False when another process holds it."""
    now = clock.now()
    expires = now + timedelta(seconds=lease_seconds(interval))
    async with database.write_session() as db:
        insert = postgresql.insert if db.bind.dialect.name == "postgresql" else sqlite.insert
        await db.execute(
            insert(JobLease)
            .values(name=name, holder=holder, expires_at=now)
            .on_conflict_do_nothing(index_elements=[JobLease.name])
        )
        taken = await db.execute(
            update(JobLease)
            .where(JobLease.name == name, (JobLease.holder == holder) | (JobLease.expires_at <= now))
            .values(holder=holder, expires_at=expires)
        )
        await db.commit()
    return rows_changed(taken) == 1


async def ran(database: Database, name: str, holder: str, *, ok: bool) -> None:
    """Record a round's outcome (the holder's)."""
    async with database.write_session() as db:
        await db.execute(
            update(JobLease)
            .where(JobLease.name == name)
            .values(last_run=clock.now(), last_outcome="ok" if ok else "failed", last_holder=holder)
        )
        await db.commit()


async def release(database: Database, name: str, holder: str) -> None:
    """Give the lease up (a process stopping): another process may take the job at its next round."""
    async with database.write_session() as db:
        await db.execute(
            update(JobLease).where(JobLease.name == name, JobLease.holder == holder).values(expires_at=clock.now())
        )
        await db.commit()


async def held(database: Database, name: str) -> bool:
    """Whether some process holds the lease `name` now (not released, not expired)."""
    async with database.session() as db:
        expires = await db.scalar(select(JobLease.expires_at).where(JobLease.name == name))
    return expires is not None and expires > clock.now()


async def forget(database: Database, name: str, holder: str) -> None:
    """Remove the lease `name` of work that is over for good (a finished event's live input), so
    its row does not stay behind; only its holder's."""
    async with database.write_session() as db:
        await db.execute(delete(JobLease).where(JobLease.name == name, JobLease.holder == holder))
        await db.commit()


async def schedule(db: AsyncSession, settings: Settings) -> list[JobState]:
    rows = {row.name: row for row in (await db.execute(select(JobLease))).scalars()}
    states = []
    for name, setting in INTERVAL_SETTINGS.items():
        interval = float(getattr(settings, setting))
        row = rows.get(name)
        states.append(
            JobState(
                name,
                interval,
                interval > 0,
                row.last_run if row else None,
                row.last_outcome if row else None,
                row.last_holder if row else None,
            )
        )
    return states


__all__ = [
    "INTERVAL_SETTINGS",
    "JobState",
    "claim",
    "forget",
    "held",
    "lease_seconds",
    "new_holder",
    "ran",
    "release",
    "schedule",
]
