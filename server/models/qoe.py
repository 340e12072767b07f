"""Quality of experience (issue 32): what players report of each view, and what a pay-per-view
event's stream failures owe its buyers.

`QoeBeacon` rows are the players' beacons as they came (POST /qoe/beacons), with the server's
receipt time in epoch milliseconds (`received_ms`) so both databases bucket them by integer
arithmetic; they are deleted after TOUCHLINE_QOE_RETENTION_DAYS. `viewer_session` is the signed-in
session's id or the browser's anonymous id, never the account.

`EventOutage` rows are the stretches a live pay-per-view event's stream was unavailable;
`OutageCredit` is the event's one credit (scheduled, running, done or cancelled) and
`OutageCreditGrant` one purchase's share of it: the row is claimed before money moves, so a
process that dies mid-credit leaves a claim the next run finishes with the same idempotency
reference instead of crediting twice or skipping anyone."""

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin
from .types import UTCDateTime


class QoeBeacon(IdMixin, Base):
    __tablename__ = "qoe_beacons"
    __table_args__ = (Index("ix_qoe_beacons_event_received", "event_id", "received_ms"),)

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    view: Mapped[str] = mapped_column(String(64))
    viewer_session: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(10))
    asset: Mapped[str | None] = mapped_column(String(64))
    rendition: Mapped[str | None] = mapped_column(String(20))
    player: Mapped[str] = mapped_column(String(40))
    player_version: Mapped[str] = mapped_column(String(20))
    ms: Mapped[int | None] = mapped_column(Integer)
    bitrate_kbps: Mapped[int | None] = mapped_column(Integer)
    code: Mapped[str | None] = mapped_column(String(60))
    fatal: Mapped[bool | None] = mapped_column(Boolean)
    business: Mapped[bool | None] = mapped_column(Boolean)
    before_start: Mapped[bool | None] = mapped_column(Boolean)
    occurred: Mapped[datetime] = mapped_column(UTCDateTime)
    received_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class EventOutage(IdMixin, Base):
    __tablename__ = "event_outages"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    cause: Mapped[str] = mapped_column(String(20))  # ingest | start_failures
    started: Mapped[datetime] = mapped_column(UTCDateTime)
    ended: Mapped[datetime | None] = mapped_column(UTCDateTime)


class OutageCredit(Base):
    __tablename__ = "outage_credits"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    status: Mapped[str] = mapped_column(String(12), index=True)  # scheduled | running | done | cancelled
    kind: Mapped[str] = mapped_column(String(12))  # refund | access_code
    reason: Mapped[str] = mapped_column(String(12))  # automatic | staff
    due: Mapped[datetime] = mapped_column(UTCDateTime)
    cutoff: Mapped[datetime] = mapped_column(UTCDateTime)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    cancelled_by: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    updated: Mapped[datetime] = mapped_column(UTCDateTime)


class OutageCreditGrant(IdMixin, Base):
    __tablename__ = "outage_credit_grants"
    __table_args__ = (UniqueConstraint("purchase_id", name="uq_outage_credit_grants_purchase_id"),)

    event_id: Mapped[str] = mapped_column(ForeignKey("outage_credits.event_id", ondelete="CASCADE"), index=True)
    purchase_id: Mapped[str] = mapped_column(ForeignKey("purchases.id", ondelete="CASCADE"))
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(10))  # claimed | done
    kind: Mapped[str] = mapped_column(String(12))
    amount_minor: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str | None] = mapped_column(String(3))
    refund_id: Mapped[str | None] = mapped_column(String(40))
    access_code_id: Mapped[str | None] = mapped_column(ForeignKey("access_codes.id", ondelete="SET NULL"))
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    done_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class QoeAlertState(Base):
    """The last `qoe-alert` sent for an event: the job (one process of a cluster at a time, but
    not always the same one) sends a message on each change only."""

    __tablename__ = "qoe_alert_states"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    rebuffering: Mapped[bool] = mapped_column(Boolean)
    start_failures: Mapped[bool] = mapped_column(Boolean)
    changed: Mapped[datetime] = mapped_column(UTCDateTime)


class QoeView(Base):
    """One view as its beacons told it so far, kept up to date as they arrive (an upsert a batch),
    so a report reads a row a view instead of every beacon. `first_ms`/`last_ms` are the receipt
    times of its first and last beacon; the flags are 0 or 1."""

    __tablename__ = "qoe_views"
    __table_args__ = (Index("ix_qoe_views_event_last", "event_id", "last_ms"),)

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    view: Mapped[str] = mapped_column(String(64), primary_key=True)
    viewer_session: Mapped[str] = mapped_column(String(64))
    began_ms: Mapped[int | None] = mapped_column(BigInteger)  # its `start` beacon's receipt
    startup_ms: Mapped[int | None] = mapped_column(Integer)  # its first `startup`'s time to first frame
    fatal: Mapped[int] = mapped_column(Integer, default=0)
    business: Mapped[int] = mapped_column(Integer, default=0)
    left_before_start: Mapped[int] = mapped_column(Integer, default=0)
    ended: Mapped[int] = mapped_column(Integer, default=0)  # an exit or a fatal error
    first_ms: Mapped[int] = mapped_column(BigInteger)
    last_ms: Mapped[int] = mapped_column(BigInteger)


class QoeStep(Base):
    """An event's stalled and watched time in one 10 s step of receipt time (additive: a report's
    longer steps add them up)."""

    __tablename__ = "qoe_steps"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    step_ms: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    rebuffer_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    watched_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    # Watched time with a known bitrate, and that time weighted by it (kbps x ms).
    rated_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    bitrate_ms: Mapped[int] = mapped_column(BigInteger, default=0)
