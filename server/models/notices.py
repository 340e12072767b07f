"""Purchase-status notices that must reach the viewer's socket, written in the transaction that
decided the status (server.services.status_notices): a process that dies between its commit and
its `user-purchase-status` leaves the notice here, and another process sends it."""

from datetime import datetime

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin
from .types import UTCDateTime


class StatusNotice(IdMixin, Base):
    __tablename__ = "status_notices"
    __table_args__ = (Index("ix_status_notices_unsent", "sent_at", "created"),)

    user_id: Mapped[str] = mapped_column(String(24))
    record_id: Mapped[str] = mapped_column(String(24))  # purchase or contract id
    status: Mapped[str] = mapped_column(String(10))  # success | error
    product_id: Mapped[str] = mapped_column(String(24))
    event_id: Mapped[str | None] = mapped_column(String(24))
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
