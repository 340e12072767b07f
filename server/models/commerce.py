"""Commerce: products on sale, what viewers bought (purchases and subscription contracts),
their stored cards, and access codes.

Money is kept in minor units (`price_minor`) and never as a float. Records of what was bought
outlive the account that bought it: on account deletion `user_id` becomes null (see
services.accounts ERASURE), so the books still add up.

Times are set by the services from `server.clock` (not column defaults), so tests that move
the clock see consistent purchase, contract and code times.
"""

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    ColumnElement,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    and_,
    or_,
    text,
)
from sqlalchemy.ext.hybrid import hybrid_method
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin
from .types import UTCDateTime

PRODUCT_TYPES = ("ppv", "svod", "cvod", "bundle")
DURATION_UNITS = ("hours", "days", "weeks", "months", "years")

# Purchase statuses (the contract's PurchaseStatus) and contract statuses (Contract.status).
PURCHASE_PENDING = ("init", "in progress")
CONTRACT_HOLDING = ("processing", "active", "past_due")  # at most one per viewer and product


class Product(IdMixin, Base):
    """Something on sale. `ppv` unlocks `event_id`; `cvod` unlocks the channel `event_id` and the
    identity items of `identity_items`; `svod` unlocks events of `identity_items` (every event when
    the list is empty); a `bundle` unlocks its items for `bundle_start`..`bundle_end`."""

    __tablename__ = "products"

    type: Mapped[str] = mapped_column(String(10), index=True)
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text)
    # The description in the webapp's other locales, by locale ("de": "..."); `description` is English.
    descriptions: Mapped[dict] = mapped_column(JSON, default=dict, server_default="{}")
    event_id: Mapped[str | None] = mapped_column(ForeignKey("events.id", ondelete="SET NULL"), index=True)
    price_minor: Mapped[int] = mapped_column(Integer, default=0)
    currency: Mapped[str | None] = mapped_column(String(3))  # None: shown as N/A
    on_sale: Mapped[bool] = mapped_column(Boolean, default=True)
    offer_start: Mapped[datetime | None] = mapped_column(UTCDateTime)
    offer_end: Mapped[datetime | None] = mapped_column(UTCDateTime)
    renewable: Mapped[bool] = mapped_column(Boolean, default=False)
    duration: Mapped[int | None] = mapped_column(Integer)
    duration_units: Mapped[str | None] = mapped_column(String(10))
    # ISO 3166 alpha-2 codes where it is sold; empty: everywhere.
    regions: Mapped[list] = mapped_column(JSON, default=list)
    identity_items: Mapped[list] = mapped_column(JSON, default=list)
    bundle_start: Mapped[datetime | None] = mapped_column(UTCDateTime)
    bundle_end: Mapped[datetime | None] = mapped_column(UTCDateTime)
    auto_renew: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    updated: Mapped[datetime] = mapped_column(UTCDateTime)


class BundleItem(Base):
    __tablename__ = "bundle_items"

    bundle_id: Mapped[str] = mapped_column(ForeignKey("products.id", ondelete="CASCADE"), primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id", ondelete="CASCADE"), primary_key=True, index=True)
    position: Mapped[int] = mapped_column(Integer, default=0)


class PaidWithCard:
    """What may be kept of the card that paid: brand, last four digits, expiry (never the number)."""

    card_brand: Mapped[str | None] = mapped_column(String(20))
    card_last4: Mapped[str | None] = mapped_column(String(4))
    card_exp_month: Mapped[int | None] = mapped_column(Integer)
    card_exp_year: Mapped[int | None] = mapped_column(Integer)


class Purchase(IdMixin, PaidWithCard, Base):
    """A pay-per-view (or bundle) purchase: paid by card or granted by an access code. Only one
    purchase of a product per viewer may be pending at a time (partial unique index), so two
    concurrent purchases cannot both charge."""

    __tablename__ = "purchases"
    __table_args__ = (
        Index(
            "uq_purchases_pending",
            "user_id",
            "product_id",
            unique=True,
            sqlite_where=text("status IN ('init', 'in progress')"),
            postgresql_where=text("status IN ('init', 'in progress')"),
        ),
        Index("ix_purchases_user_created", "user_id", "created"),
    )

    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id", ondelete="RESTRICT"), index=True)
    event_id: Mapped[str | None] = mapped_column(ForeignKey("events.id", ondelete="SET NULL"))
    type: Mapped[str] = mapped_column(String(10))
    status: Mapped[str] = mapped_column(String(12))
    payment_action: Mapped[str] = mapped_column(String(20))
    price_minor: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str | None] = mapped_column(String(3))
    charge_id: Mapped[str | None] = mapped_column(String(40), index=True)
    access_code: Mapped[str | None] = mapped_column(String(80))
    error_code: Mapped[str | None] = mapped_column(String(40))
    valid_from: Mapped[datetime | None] = mapped_column(UTCDateTime)
    valid_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    updated: Mapped[datetime] = mapped_column(UTCDateTime)


def contract_gives_access(
    status: str,
    period_end: datetime | None,
    grace_until: datetime | None,
    payment_status: str | None,
    now: datetime,
) -> bool:
    """Whether a contract in this state gives access at `now`: an active contract until its period
    ends (and while its renewal payment is deciding), a past-due one until its grace period ends.

    `Contract.gives_access(now)` is this rule on a row, and the same rule as a SQL clause on the
    class; server/tests/models/test_commerce.py proves the two agree."""
    if status == "active":
        return period_end is None or period_end > now or payment_status == "in progress"
    if status == "past_due":
        return grace_until is not None and grace_until > now
    return False


class Contract(IdMixin, PaidWithCard, Base):
    """A subscription (svod, cvod or bundle). `period_end` is the end of the paid period
    (contractEndDate); a renewable, auto-renewing contract is charged again then. One holding
    contract (processing, active or past due) per viewer and product."""

    __tablename__ = "contracts"
    __table_args__ = (
        Index(
            "uq_contracts_holding",
            "user_id",
            "product_id",
            unique=True,
            sqlite_where=text("status IN ('processing', 'active', 'past_due')"),
            postgresql_where=text("status IN ('processing', 'active', 'past_due')"),
        ),
        Index("ix_contracts_user_created", "user_id", "created"),
        Index("ix_contracts_due", "status", "period_end"),
    )

    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id", ondelete="RESTRICT"), index=True)
    type: Mapped[str] = mapped_column(String(10))
    platform: Mapped[str] = mapped_column(String(10), default="web")
    status: Mapped[str] = mapped_column(String(12))
    payment_status: Mapped[str] = mapped_column(String(12))
    renewable: Mapped[bool] = mapped_column(Boolean, default=False)
    auto_renew: Mapped[bool] = mapped_column(Boolean, default=False)
    canceled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    price_minor: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str | None] = mapped_column(String(3))
    charge_id: Mapped[str | None] = mapped_column(String(40), index=True)  # the latest charge
    access_code: Mapped[str | None] = mapped_column(String(80))
    start_date: Mapped[datetime | None] = mapped_column(UTCDateTime)
    period_end: Mapped[datetime | None] = mapped_column(UTCDateTime)
    grace_until: Mapped[datetime | None] = mapped_column(UTCDateTime)  # past due: access until then
    renewals: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    updated: Mapped[datetime] = mapped_column(UTCDateTime)

    @hybrid_method
    def gives_access(self, now: datetime) -> bool:
        """Whether this contract gives access at `now` (see `contract_gives_access`)."""
        return contract_gives_access(self.status, self.period_end, self.grace_until, self.payment_status, now)

    # hybrid_method.expression modifies it in place (`.inplace` is the same object, which mypy
    # cannot see through), so the clause may keep a name of its own.
    @gives_access.expression
    @classmethod
    def _gives_access_clause(cls, now: datetime) -> ColumnElement[bool]:
        # Written so that no branch is NULL: `~clause` must select exactly the other contracts.
        return or_(
            and_(
                cls.status == "active",
                or_(cls.period_end.is_(None), cls.period_end > now, cls.payment_status == "in progress"),
            ),
            and_(cls.status == "past_due", cls.grace_until.is_not(None), cls.grace_until > now),
        )


class StoredCard(Base):
    """A viewer's saved card: the provider's reusable reference and what may be shown."""

    __tablename__ = "stored_cards"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    provider: Mapped[str] = mapped_column(String(20))
    reference: Mapped[str] = mapped_column(String(200))
    brand: Mapped[str] = mapped_column(String(20))
    last4: Mapped[str] = mapped_column(String(4))
    exp_month: Mapped[int] = mapped_column(Integer)
    exp_year: Mapped[int] = mapped_column(Integer)
    holder: Mapped[str | None] = mapped_column(String(100))
    added: Mapped[datetime] = mapped_column(UTCDateTime)


class AccessCode(IdMixin, Base):
    """A code granting `product_id`, redeemable by `uses` accounts (once each) until `expires_at`.
    `code` is the normalised form (upper case, no spaces or dashes) that redemption matches;
    `display_code` is what staff hand out."""

    __tablename__ = "access_codes"

    code: Mapped[str] = mapped_column(String(80), unique=True)
    display_code: Mapped[str] = mapped_column(String(100))
    batch_id: Mapped[str] = mapped_column(String(24), index=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id", ondelete="CASCADE"), index=True)
    uses: Mapped[int] = mapped_column(Integer, default=1)
    redeemed_count: Mapped[int] = mapped_column(Integer, default=0)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created: Mapped[datetime] = mapped_column(UTCDateTime)


class AccessCodeRedemption(IdMixin, Base):
    __tablename__ = "access_code_redemptions"
    __table_args__ = (UniqueConstraint("code_id", "user_id", name="uq_access_code_redemptions_code_user"),)

    code_id: Mapped[str] = mapped_column(ForeignKey("access_codes.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    redeemed_at: Mapped[datetime] = mapped_column(UTCDateTime)
