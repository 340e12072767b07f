"""Staff tools: API keys for scripts and the audit log of admin writes.

An API key's secret is shown once, when it is made; only its SHA-256 hash is stored, with a
short prefix of the secret to tell keys apart. Audit entries are only ever inserted: the API
has no operation that changes or removes one.
"""

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String
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
    # `user`, `key`, or `anonymous` (refused before anyone was recognised).
    actor_type: Mapped[str] = mapped_column(String(10))
    actor_id: Mapped[str | None] = mapped_column(String(24))
    actor_label: Mapped[str | None] = mapped_column(String(254))
    action: Mapped[str] = mapped_column(String(64))
    method: Mapped[str] = mapped_column(String(8))
    path: Mapped[str] = mapped_column(String(500))
    target: Mapped[str | None] = mapped_column(String(200), index=True)
    client_address: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
