"""The catalogue: categories, leagues, teams, events and clips, stats and channel programmes.

Events, highlights and clips share one table (`media_type` tells them apart) because every
list the viewer sees mixes them under the same filters, paging and sort keys.
"""

from datetime import datetime

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, TimestampMixin
from .types import UTCDateTime


class Identity(IdMixin, TimestampMixin, Base):
    """A main category (`identity`, e.g. a sport) or a sub-category (`identity_item`, e.g. a league)."""

    __tablename__ = "identities"

    media_type: Mapped[str] = mapped_column(String(16), index=True)
    title: Mapped[str] = mapped_column(String(200))
    short_title: Mapped[str | None] = mapped_column(String(60))
    sport_type: Mapped[str | None] = mapped_column(String(40))
    order: Mapped[int] = mapped_column(Integer, default=0)
    archived: Mapped[bool] = mapped_column(Boolean, default=False)
    gender: Mapped[str | None] = mapped_column(String(10))
    poster_h: Mapped[str | None] = mapped_column(String(500))
    poster_f: Mapped[str | None] = mapped_column(String(500))
    extended_content: Mapped[dict] = mapped_column(JSON, default=dict)
    social_links: Mapped[dict] = mapped_column(JSON, default=dict)


class IdentityParent(Base):
    """Sub-category membership; `position` is the media_parent_order within that parent."""

    __tablename__ = "identity_parents"

    child_id: Mapped[str] = mapped_column(ForeignKey("identities.id", ondelete="CASCADE"), primary_key=True)
    parent_id: Mapped[str] = mapped_column(
        ForeignKey("identities.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    position: Mapped[int] = mapped_column(Integer, default=0)


class Team(IdMixin, TimestampMixin, Base):
    __tablename__ = "teams"

    name: Mapped[str] = mapped_column(String(120))
    short_name: Mapped[str] = mapped_column(String(40))
    city: Mapped[str | None] = mapped_column(String(80))
    sport_type: Mapped[str] = mapped_column(String(40), index=True)
    logo: Mapped[str | None] = mapped_column(String(500))
    color: Mapped[str] = mapped_column(String(7))
    secondary_color: Mapped[str | None] = mapped_column(String(7))
    poster_h: Mapped[str | None] = mapped_column(String(500))
    poster_f: Mapped[str | None] = mapped_column(String(500))
    extended_content: Mapped[dict] = mapped_column(JSON, default=dict)
    social_links: Mapped[dict] = mapped_column(JSON, default=dict)


class TeamIdentity(Base):
    """The leagues (and their categories) a team plays in."""

    __tablename__ = "team_identities"

    team_id: Mapped[str] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True)
    identity_id: Mapped[str] = mapped_column(
        ForeignKey("identities.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class Event(IdMixin, TimestampMixin, Base):
    __tablename__ = "events"

    media_type: Mapped[str] = mapped_column(String(20))
    title: Mapped[str] = mapped_column(String(300))
    description: Mapped[str | None] = mapped_column(Text)
    # Lower-cased title + team names: what the text search matches against.
    search_text: Mapped[str] = mapped_column(Text, default="")
    event_date: Mapped[datetime] = mapped_column(UTCDateTime)
    game_start_date: Mapped[datetime | None] = mapped_column(UTCDateTime)
    end_date: Mapped[datetime | None] = mapped_column(UTCDateTime)
    external_id: Mapped[str] = mapped_column(String(40), unique=True)  # wire: event_id
    reference_id: Mapped[str] = mapped_column(String(80), unique=True)
    sport_type: Mapped[str | None] = mapped_column(String(40))
    event_type: Mapped[str] = mapped_column(String(30), default="game")
    game_type: Mapped[str] = mapped_column(String(20), default="game")
    status: Mapped[str] = mapped_column(String(12))
    sort_order: Mapped[int] = mapped_column(Integer, default=0)
    commerce_type: Mapped[str] = mapped_column(String(40), default="commerce_free_media")
    commerce_modes: Mapped[list] = mapped_column(JSON, default=list)
    gender: Mapped[str | None] = mapped_column(String(10))
    available_in_region: Mapped[bool] = mapped_column(Boolean, default=True)  # false: nowhere (rights lapsed)
    # ISO 3166 alpha-2 codes of the regions it may be watched in; empty: everywhere.
    regions: Mapped[list] = mapped_column(JSON, default=list)
    hls_stream: Mapped[str | None] = mapped_column(String(500))
    # The live input it plays, as viewers are told (server.services.live_feeds): None on air (or
    # no live input), `reconnecting` while its encoder is away within the grace, `interrupted` after.
    live_feed: Mapped[str | None] = mapped_column(String(16))
    # Staff's choice for a feed of an upcoming event (server.services.live_feeds): True goes live at
    # its first segments, False keeps it a preview until go-live, None goes live near kickoff.
    ingest_autostart: Mapped[bool | None] = mapped_column(Boolean, default=None)
    # The rewind window of its live recordings, in seconds; None: TOUCHLINE_DVR_SECONDS.
    dvr_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    pano_stream: Mapped[str | None] = mapped_column(String(500))
    poster_h: Mapped[str | None] = mapped_column(String(500))
    mezzanine_video: Mapped[str | None] = mapped_column(String(500))
    vast_url: Mapped[str | None] = mapped_column(String(500))
    stats_enabled: Mapped[bool] = mapped_column(Boolean, default=False)
    data_partner_id: Mapped[str | None] = mapped_column(String(40))
    home_team_id: Mapped[str | None] = mapped_column(ForeignKey("teams.id", ondelete="SET NULL"), index=True)
    away_team_id: Mapped[str | None] = mapped_column(ForeignKey("teams.id", ondelete="SET NULL"), index=True)
    # Highlights and clips hang off the event they were cut from.
    parent_event_id: Mapped[str | None] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    # The viewer who made a user clip or user highlight (null for the catalogue's own media).
    owner_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    highlight_kind: Mapped[str | None] = mapped_column(String(20))
    start_time_ms: Mapped[int | None] = mapped_column(Integer)
    end_time_ms: Mapped[int | None] = mapped_column(Integer)
    duration_s: Mapped[int | None] = mapped_column(Integer)
    # Calendar entries' SEQUENCE: one more each time the event's slot (start, end) moves, so
    # calendar apps replace the entry they hold (server/services/calendar_slots.py).
    schedule_sequence: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    # Lists filter by media type, status and sport and page by (event_date, id): indexes end in
    # exactly that pair so a page is an index range scan with no sort, on SQLite and PostgreSQL.
    __table_args__ = (
        Index("ix_events_media_status_date", "media_type", "status", "event_date", "id"),
        Index("ix_events_media_sport_status_date", "media_type", "sport_type", "status", "event_date", "id"),
        Index("ix_events_media_date", "media_type", "event_date", "id"),
    )


class EventIdentity(Base):
    """mediaIdentities: the league and category an event belongs to (`identity_type` says which)."""

    __tablename__ = "event_identities"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    identity_id: Mapped[str] = mapped_column(
        ForeignKey("identities.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    identity_type: Mapped[str] = mapped_column(String(16))


class EventStats(Base):
    """Stats partner (vidswap) payloads for a finished or live game."""

    __tablename__ = "event_stats"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    scores: Mapped[dict] = mapped_column(JSON, default=dict)
    overview: Mapped[dict] = mapped_column(JSON, default=dict)


class EpgProgramme(IdMixin, Base):
    """One slot of a channel's programme guide."""

    __tablename__ = "epg_programmes"

    channel_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime)
    title: Mapped[str] = mapped_column(String(300))
    description: Mapped[str | None] = mapped_column(Text)
    related_event_id: Mapped[str | None] = mapped_column(ForeignKey("events.id", ondelete="SET NULL"))

    __table_args__ = (Index("ix_epg_channel_starts", "channel_id", "starts_at"),)
