"""Where each viewer stopped in an archived event or clip: one row per (viewer, video), the source
of the home page's "Continue watching" and of the event page's resume."""

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Index
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .types import UTCDateTime


class PlaybackPosition(Base):
    """`position` and `duration` are seconds of the video's stream; `updated` is the last report.

    The primary key is the unique (user, video) pair the upsert of every report relies on."""

    __tablename__ = "playback_positions"
    __table_args__ = (Index("ix_playback_positions_user_id_updated", "user_id", "updated"),)

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    video_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True, index=True)
    position: Mapped[float] = mapped_column(Float)
    duration: Mapped[float] = mapped_column(Float)
    updated: Mapped[datetime] = mapped_column(UTCDateTime)
