"""Accounts: users, federated identities, devices, sign-in sessions and their tokens,
password resets, mail, follows, the watchlist and rate-limit counters.

Secrets (refresh tokens, reset tokens) are stored only as SHA-256 hashes. Deleting a device
cascades to its sessions and refresh tokens, so a removed device is signed out at once.
"""

from datetime import date, datetime

from sqlalchemy import JSON, Boolean, Date, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, TimestampMixin
from .types import UTCDateTime


class User(IdMixin, TimestampMixin, Base):
    """An account. `email` is stored lower-cased; it is null only for federated accounts whose
    provider shared no address, and for erased (deleted) accounts."""

    __tablename__ = "users"

    email: Mapped[str | None] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    display_name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(10), default="viewer")
    global_tags: Mapped[bool] = mapped_column(Boolean, default=False)
    city: Mapped[str | None] = mapped_column(String(100))
    gender: Mapped[str | None] = mapped_column(String(10))
    date_of_birth: Mapped[date | None] = mapped_column(Date)
    phone: Mapped[str | None] = mapped_column(String(30))
    country_name: Mapped[str | None] = mapped_column(String(100))
    postal_code: Mapped[str | None] = mapped_column(String(20))
    identity_id: Mapped[str | None] = mapped_column(ForeignKey("identities.id", ondelete="SET NULL"))
    identity_item_id: Mapped[str | None] = mapped_column(ForeignKey("identities.id", ondelete="SET NULL"))
    # ["team|<id>", ...]; the first entry is the favorite club.
    club_list: Mapped[list] = mapped_column(JSON, default=list)
    # Survey records keyed by survey name (spec §3).
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    last_sign_in: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Set when the account was deleted: personal data is erased, the row stays for purchase records.
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # When the owner proved the address is theirs (a verification or reset link, a provider that
    # vouches for it, staff and seeded accounts). A password account signs in only once it is set.
    email_verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class FederatedIdentity(IdMixin, TimestampMixin, Base):
    """A provider account (facebook, apple, google, ifa) linked to a Touchline account."""

    __tablename__ = "federated_identities"
    __table_args__ = (UniqueConstraint("provider", "subject", name="uq_federated_identities_provider_subject"),)

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    provider: Mapped[str] = mapped_column(String(20))
    subject: Mapped[str] = mapped_column(String(255))
    email: Mapped[str | None] = mapped_column(String(254))


class Device(IdMixin, TimestampMixin, Base):
    """A browser or app the account signs in from. `created` is `added`; `updated` is last use."""

    __tablename__ = "devices"
    __table_args__ = (UniqueConstraint("user_id", "device_id", name="uq_devices_user_id_device_id"),)

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    device_id: Mapped[str] = mapped_column(String(512))
    device_name: Mapped[str] = mapped_column(String(512))
    os_name: Mapped[str | None] = mapped_column(String(64))
    os_version: Mapped[str | None] = mapped_column(String(64))
    app_version: Mapped[str | None] = mapped_column(String(64))


class AuthSession(IdMixin, TimestampMixin, Base):
    """One sign-in on one device. Access tokens carry its id (`sid`) and stop working when it
    is revoked or deleted; its refresh tokens rotate inside it until `expires_at`."""

    __tablename__ = "auth_sessions"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    device_ref: Mapped[str] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), index=True)
    provider: Mapped[str] = mapped_column(String(20))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_used: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_reason: Mapped[str | None] = mapped_column(String(40))
    client_address: Mapped[str | None] = mapped_column(String(64))


class RefreshToken(IdMixin, Base):
    """One generation of a session's refresh token. `used_at` is set when it was rotated;
    `replaced_by` names its successor (whose value is derived from this token, see
    server.services.sessions, so a concurrent duplicate refresh can be answered with it)."""

    __tablename__ = "refresh_tokens"

    session_id: Mapped[str] = mapped_column(ForeignKey("auth_sessions.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    replaced_by: Mapped[str | None] = mapped_column(String(24))


class LimitTicket(Base):
    """A sign-in stopped at the device limit. The ticket itself is a signed JWT whose `jti` is
    this row's id; the row makes it single-use."""

    __tablename__ = "limit_tickets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    provider: Mapped[str] = mapped_column(String(20))
    is_register: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class PasswordReset(IdMixin, Base):
    __tablename__ = "password_resets"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class EmailVerification(IdMixin, Base):
    """A sign-up's verification link: single use, expiring, stored as the token's SHA-256 hash.
    Each sign-up of an address gets its own, with the password typed then: opening the link sets
    that password, so a link never opens an account with a password someone else chose."""

    __tablename__ = "email_verifications"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class OutboxMail(IdMixin, Base):
    """Every mail the server writes. Without SMTP settings it stays here (`kept`) for staff."""

    __tablename__ = "outbox_mail"

    to_address: Mapped[str] = mapped_column(String(254))
    kind: Mapped[str] = mapped_column(String(30))
    subject: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    # What staff are shown: `text` with every working secret (a reset link's token...) redacted,
    # rendered when the mail is written (server/services/mail.py); `text` is only ever delivered.
    staff_text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10))
    error: Mapped[str | None] = mapped_column(String(500))
    created: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Follow(IdMixin, Base):
    """A followed main category (`identity`), sub-category (`identity_item`) or `team`."""

    __tablename__ = "follows"
    __table_args__ = (
        UniqueConstraint("user_id", "type", "reference_id", name="uq_follows_user_id_type_reference_id"),
        Index("ix_follows_user_id_created", "user_id", "created"),
        # Who follows a team or category: the go-live alerts' fan-out (server.services.live_alerts).
        Index("ix_follows_type_reference_id", "type", "reference_id"),
    )

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    type: Mapped[str] = mapped_column(String(16))
    reference_id: Mapped[str] = mapped_column(String(24))
    created: Mapped[datetime] = mapped_column(UTCDateTime)


class WatchlistItem(Base):
    __tablename__ = "watchlist_items"
    __table_args__ = (Index("ix_watchlist_items_user_id_created", "user_id", "created"),)

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime)


class RateLimitBucket(Base):
    """A fixed-window counter (`key` names the limit, the subject and the window).

    Kept in the database so every server process counts the same attempts."""

    __tablename__ = "rate_limit_buckets"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
