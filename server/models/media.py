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
    # An upload's: what staff called it, and its length once transcoded (issue 29).
    title: Mapped[str | None] = mapped_column(String(200), default=None)
    duration_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)


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


class Upload(IdMixin, TimestampMixin, Base):
    """A file staff are uploading (tus 1.0, server.api.admin.uploads) for an event. Its bytes so far
    are a file of the store (server.media.sources.upload_files), whose size is the offset; the row
    goes once the file is complete and checked (it becomes an asset and a transcoding job) or
    refused, or when it was left unfinished past its retention."""

    __tablename__ = "uploads"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    length: Mapped[int] = mapped_column(BigInteger)  # Upload-Length, in bytes
    filename: Mapped[str | None] = mapped_column(String(200), default=None)
    title: Mapped[str | None] = mapped_column(String(200), default=None)
    created_by: Mapped[str | None] = mapped_column(String(24), default=None)
    # What the asset is published as once transcoded (archive or a highlight kind), if anything.
    attach_as: Mapped[str | None] = mapped_column(String(16), default=None)
    # An unfinished upload is removed after this moment (TOUCHLINE_UPLOAD_RETENTION_HOURS).
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class MediaJob(IdMixin, TimestampMixin, Base):
    """A transcoding job (server.services.media_jobs): queued, running, done, failed or cancelled.
    A running job's process holds it until `lease_until` and renews it while ffmpeg works; a job
    whose lease ran out (its process died) is queued again."""

    __tablename__ = "media_jobs"

    # Null once its asset is gone (a cancelled or deleted upload): the job stays as history.
    asset_id: Mapped[str | None] = mapped_column(
        ForeignKey("media_assets.id", ondelete="SET NULL"), index=True, default=None
    )
    event_id: Mapped[str | None] = mapped_column(ForeignKey("events.id", ondelete="SET NULL"), default=None)
    # transcode: an upload into its ladder; previews: a finished live recording's poster and thumbnails.
    kind: Mapped[str] = mapped_column(String(16), default="transcode", server_default="transcode")
    title: Mapped[str | None] = mapped_column(String(200), default=None)
    state: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    percent: Mapped[float] = mapped_column(default=0.0)
    eta_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    error: Mapped[str | None] = mapped_column(String(500), default=None)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    holder: Mapped[str | None] = mapped_column(String(80), default=None)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    created_by: Mapped[str | None] = mapped_column(String(24), default=None)
    # The upload's `as`: published so when done (server.services.media_library), into this event.
    attach_as: Mapped[str | None] = mapped_column(String(16), default=None)
    attached_event_id: Mapped[str | None] = mapped_column(String(24), default=None)
