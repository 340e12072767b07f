"""Staff tools: API keys for scripts and the audit log of admin writes.

An API key's secret is shown once, when it is made; only its SHA-256 hash is stored, with a
short prefix of the secret to tell keys apart. Audit entries are only ever inserted (a counted
entry of refused anonymous calls has its count raised) and removed by the retention job: the API
has no operation that changes or removes one.
"""

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin
from .types import UTCDateTime


class ApiKey(IdMixin, Base):
    """A key acting with `role` (`support` or `admin`) until it expires or is revoked."""

    __tablename__ = "api_keys"

    name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(10))
    # The first characters of the secret (`tlk_` and 8 more): shown in lists, and the lookup index.
    prefix: Mapped[str] = mapped_column(String(16), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # The key that made this one, when a key did: this key acts at most with that key's role and
    # stops when it is revoked (server.services.api_keys).
    created_by_key: Mapped[str | None] = mapped_column(ForeignKey("api_keys.id", ondelete="SET NULL"), index=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_used: Mapped[datetime | None] = mapped_column(UTCDateTime)


class AuditEntry(IdMixin, Base):
    """One admin write: who (an account or a key), what (the operation id), on what, when, from
    where, and how it ended (the answer's status)."""

    __tablename__ = "audit_entries"
    __table_args__ = (
        Index("ix_audit_entries_at", "at"),
        Index("ix_audit_entries_actor_id", "actor_id"),
        Index("ix_audit_entries_action", "action"),
    )

    at: Mapped[datetime] = mapped_column(UTCDateTime)
    # `user`, `key`, `anonymous` (refused before anyone was recognised), or `system` (a job's work).
    actor_type: Mapped[str] = mapped_column(String(10))
    actor_id: Mapped[str | None] = mapped_column(String(24))
    actor_label: Mapped[str | None] = mapped_column(String(254))
    action: Mapped[str] = mapped_column(String(64))
    method: Mapped[str] = mapped_column(String(8))
    path: Mapped[str] = mapped_column(String(500))
    target: Mapped[str | None] = mapped_column(String(200), index=True)
    client_address: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    # What the operation changed or read, beyond its target (a role's old and new value, a new
    # key's role and name, the mail read): a small JSON object, or null.
    detail: Mapped[dict | None] = mapped_column(JSON)
    # How many requests the entry stands for: refused anonymous calls are counted in one entry per
    # client address, minute, operation and status (`aggregate_key`, unique), not one row each.
    count: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    aggregate_key: Mapped[str | None] = mapped_column(String(64), unique=True)
