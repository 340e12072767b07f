"""All ORM models; importing this package registers every table on Base.metadata."""

from .accounts import (
    AuthSession,
    Device,
    EmailVerification,
    FederatedIdentity,
    Follow,
    LimitTicket,
    OutboxMail,
    PasswordReset,
    RateLimitBucket,
    RefreshToken,
    User,
    WatchlistItem,
)
from .alerts import LiveAlert, LiveAlertDelivery
from .analytics import AnalyticsEvent
from .base import Base, new_id, utcnow
from .calendar import CalendarFeed
from .catalogue import (
    EpgProgramme,
    Event,
    EventIdentity,
    EventStats,
    Identity,
    IdentityParent,
    Team,
    TeamIdentity,
)
from .commerce import (
    AccessCode,
    AccessCodeRedemption,
    BundleItem,
    Contract,
    Product,
    Purchase,
    StoredCard,
)
from .jobs import JobLease
from .media import MediaAsset, MediaJob, StreamKey, Upload
from .notices import StatusNotice
from .payments import CardHandle, IdempotencyKey, PaymentCharge, PaymentRefund
from .playback import PlaybackPosition
from .qoe import EventOutage, OutageCredit, OutageCreditGrant, QoeAlertState, QoeBeacon, QoeStep, QoeView
from .staff import ApiKey, AuditEntry
from .viewer_content import Tag

__all__ = [
    "AccessCode",
    "AccessCodeRedemption",
    "AnalyticsEvent",
    "ApiKey",
    "AuditEntry",
    "AuthSession",
    "Base",
    "BundleItem",
    "CalendarFeed",
    "CardHandle",
    "Contract",
    "Device",
    "EmailVerification",
    "EpgProgramme",
    "Event",
    "EventIdentity",
    "EventOutage",
    "EventStats",
    "FederatedIdentity",
    "Follow",
    "IdempotencyKey",
    "Identity",
    "IdentityParent",
    "JobLease",
    "LimitTicket",
    "LiveAlert",
    "LiveAlertDelivery",
    "MediaAsset",
    "MediaJob",
    "OutageCredit",
    "OutageCreditGrant",
    "OutboxMail",
    "PasswordReset",
    "PaymentCharge",
    "PaymentRefund",
    "PlaybackPosition",
    "Product",
    "Purchase",
    "QoeAlertState",
    "QoeBeacon",
    "QoeStep",
    "QoeView",
    "RateLimitBucket",
    "RefreshToken",
    "StatusNotice",
    "StoredCard",
    "StreamKey",
    "Tag",
    "Team",
    "TeamIdentity",
    "Upload",
    "User",
    "WatchlistItem",
    "new_id",
    "utcnow",
]
