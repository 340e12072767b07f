"""Media assets: every playable thing (a live stream, a recording, an upload, a clip, a
highlight, a shipped sample's copy) has an id and a storage directory of its own
(server.media.assets). An event refers to its assets through its stream URLs
(`/media/vod/<asset id>/...`, `/media/live/<asset id>.m3u8`), and each asset names the event it
belongs to: a stream token issued for one event opens that event's asset and nothing else.
"""

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, TimestampMixin
from .types import UTCDateTime


class MediaAsset(IdMixin, TimestampMixin, Base):
    __tablename__ = "media_assets"

    # sample | live | recording | upload | clip | highlight (server.media.assets.model.KINDS)
    kind: Mapped[str] = mapped_column(String(16))
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    # server.media.assets.model.STATES (a live recording: preview, live, reconnecting, interrupted)
    state: Mapped[str] = mapped_column(String(16), default="ready")
    # Where the bytes came from: a sample's name for `sample`; the asset a clip or highlight is
    # cut from. Kept for staff views and clean-up; playback never reads it.
    sample: Mapped[str | None] = mapped_column(String(40))
    parent_id: Mapped[str | None] = mapped_column(
        ForeignKey("media_assets.id", ondelete="SET NULL"), index=True, default=None
    )
    # A clip's or highlight's range of its parent's timeline, in ms (a live one's: epoch ms).
    start_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    end_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)


class StreamKey(IdMixin, TimestampMixin, Base):
    """A key an encoder publishes an event's live feed with (server.services.stream_keys). Only its
    SHA-256 is kept: the key itself is shown once, when it is made."""

    __tablename__ = "stream_keys"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    hint: Mapped[str] = mapped_column(String(8))  # the key's last characters, to tell keys apart
    created_by: Mapped[str | None] = mapped_column(String(24), default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None, index=True)
    # The SRT listener port of this key's input (TOUCHLINE_SRT_PORTS); freed when it is revoked.
    srt_port: Mapped[int | None] = mapped_column(Integer, unique=True, default=None)
    # Who is publishing with it now (nginx-rtmp's client id and address), since when.
    publisher: Mapped[str | None] = mapped_column(String(80), default=None)
    publishing_since: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    last_published_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    # After this moment the key lets no encoder connect (one already publishing goes on).
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    # Until this moment a second encoder is let in in place of the one publishing (staff's take-over).
    take_over_until: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
