"""Who runs each background job across the server processes, and how its last run went.

A process runs a job's round only while it holds the job's lease (server.services.job_runs):
so kickoff, settlement and renewals run once across a cluster, not once per process, and the
dashboard reads every process's last run from here.
"""

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .types import UTCDateTime


class JobLease(Base):
    __tablename__ = "job_leases"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str] = mapped_column(String(80))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_run: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_outcome: Mapped[str | None] = mapped_column(String(10))  # ok, failed
    last_holder: Mapped[str | None] = mapped_column(String(80))
