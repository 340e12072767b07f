"""Analytics events the webapp sends (identify and track; spec §7 "Other"), one row per event."""

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin
from .types import UTCDateTime


class AnalyticsEvent(IdMixin, Base):
    """`kind` is identify or track; `user_id` is the signed-in viewer who sent it (from the bearer
    token, never from the body), null for anonymous visitors; deleting the account deletes its
    events (server.services.accounts ERASURE).
    `occurred` is the browser's clock, `received` the server's: rows are deleted by it after the
    retention (server.services.analytics_retention; the index: migration 0013).
    `tenant` is the server's own (TOUCHLINE_TENANT), never the body's."""

    __tablename__ = "analytics_events"
    __table_args__ = (Index("ix_analytics_events_tenant_received", "tenant", "received"),)

    kind: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(80))
    tenant: Mapped[str] = mapped_column(String(40))
    anonymous_id: Mapped[str] = mapped_column(String(64), index=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    properties: Mapped[dict] = mapped_column(JSON, default=dict)
    occurred: Mapped[datetime] = mapped_column(UTCDateTime)
    received: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
