"""What viewers add to videos: timeline tags (a viewer's own, global ones from users who may
create them, and official match tags loaded with the seed). User clips are events of media type
`user_clip` with an `owner_id` (server/models/catalogue.py)."""

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin
from .types import UTCDateTime


class Tag(IdMixin, Base):
    """A tagged moment of `target_id` (an event or clip). Times are milliseconds. Private tags
    (`is_global` false) are seen by their author only; `official` tags come with the catalogue."""

    __tablename__ = "tags"
    __table_args__ = (
        Index("ix_tags_target_global_start", "target_id", "is_global", "start_ms"),
        Index("ix_tags_target_user_start", "target_id", "user_id", "start_ms"),
    )

    target_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    title: Mapped[str] = mapped_column(String(200), default="NO TITLE")
    start_ms: Mapped[int | None] = mapped_column(Integer)
    end_ms: Mapped[int | None] = mapped_column(Integer)
    time_pts: Mapped[int | None] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(10), default="user")
    subtype: Mapped[str | None] = mapped_column(String(40))
    is_global: Mapped[bool] = mapped_column(Boolean, default=False)
    official: Mapped[bool] = mapped_column(Boolean, default=False)
    player_number: Mapped[str | None] = mapped_column(String(4))
    player_color: Mapped[str | None] = mapped_column(String(7))
    team_id: Mapped[str | None] = mapped_column(ForeignKey("teams.id", ondelete="SET NULL"))
    video_type: Mapped[str] = mapped_column(String(4), default="vod")
    stream_name: Mapped[str] = mapped_column(String(10), default="hd")
    mode: Mapped[str] = mapped_column(String(10), default="sync")
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    updated: Mapped[datetime] = mapped_column(UTCDateTime)
