"""Go-live alerts (issue 31 §4): an event of something viewers follow went live.

The transaction that puts an event on air writes its `LiveAlert` (server.services.live_alerts);
the fan-out then claims each follower with a `LiveAlertDelivery` row before telling them, so two
processes fanning out the same event (the deciding one, and the job that takes over when it died)
tell each viewer once, and write at most one mail per viewer and event."""

from datetime import datetime

from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .types import UTCDateTime


class LiveAlert(Base):
    __tablename__ = "live_alerts"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    went_live_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    # Every follower was told; None while the fan-out is due (or under way).
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)


class LiveAlertDelivery(Base):
    __tablename__ = "live_alert_deliveries"

    event_id: Mapped[str] = mapped_column(ForeignKey("live_alerts.event_id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    mailed: Mapped[bool] = mapped_column(default=False)
