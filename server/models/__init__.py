"""All ORM models; importing this package registers every table on Base.metadata."""

from .accounts import (
    AuthSession,
    Device,
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
from .base import Base, new_id, utcnow
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
from .payments import CardHandle, IdempotencyKey, PaymentCharge
from .viewer_content import Tag

__all__ = [
    "AuthSession",
    "Device",
    "FederatedIdentity",
    "Follow",
    "LimitTicket",
    "OutboxMail",
    "PasswordReset",
    "RateLimitBucket",
    "RefreshToken",
    "User",
    "WatchlistItem",
    "Base",
    "EpgProgramme",
    "Event",
    "EventIdentity",
    "EventStats",
    "Identity",
    "IdentityParent",
    "Team",
    "TeamIdentity",
    "AccessCode",
    "AccessCodeRedemption",
    "BundleItem",
    "Contract",
    "Product",
    "Purchase",
    "StoredCard",
    "CardHandle",
    "IdempotencyKey",
    "PaymentCharge",
    "Tag",
    "new_id",
    "utcnow",
]
