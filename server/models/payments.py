"""Payments: idempotency keys for every call that moves money, and the built-in sandbox
provider's state (card tokens, stored card references and charges).

No card number is ever stored: a card handle keeps brand, last four digits, expiry, holder and,
for the sandbox, the test outcome class of its number. Handles are bearer secrets, so only their
SHA-256 hash is kept, like the accounts' refresh and reset tokens.
"""

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, utcnow
from .types import UTCDateTime


class IdempotencyKey(IdMixin, Base):
    """One `Idempotency-Key` of one account. While `response_status` is null the call is in
    progress and `claim` names the attempt running it (another may take over once `locked_until`
    has passed, e.g. after a crash); afterwards it holds the answer that every retry replays."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("user_id", "key", name="uq_idempotency_keys_user_id_key"),)

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(255))
    operation: Mapped[str] = mapped_column(String(100))
    # SHA-256 (hex) of the canonical JSON of the operation and the request body.
    fingerprint: Mapped[str] = mapped_column(String(64))
    claim: Mapped[str] = mapped_column(String(32))
    locked_until: Mapped[datetime] = mapped_column(UTCDateTime)
    response_status: Mapped[int | None] = mapped_column(Integer)
    response_body: Mapped[dict | list | None] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class CardHandle(Base):
    """A card as a provider knows it: a single-use token (`kind` "token", expires) or a reusable
    stored-card reference (`kind` "card", made from a token when the viewer saves the card)."""

    __tablename__ = "card_handles"

    handle_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    provider: Mapped[str] = mapped_column(String(20))
    owner_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    brand: Mapped[str] = mapped_column(String(20))
    last4: Mapped[str] = mapped_column(String(4))
    exp_month: Mapped[int] = mapped_column(Integer)
    exp_year: Mapped[int] = mapped_column(Integer)
    holder: Mapped[str | None] = mapped_column(String(100))
    # Sandbox only: what charging this card does (server/payments/sandbox.py TEST_CARDS).
    test_outcome: Mapped[str | None] = mapped_column(String(30))
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class PaymentCharge(Base):
    """A charge as the provider recorded it. `reference` is the caller's idempotency reference:
    a second charge with the same one returns this row instead of charging again. A charge in
    `requires_action` becomes `final_status` at `resolves_at`."""

    __tablename__ = "payment_charges"
    __table_args__ = (UniqueConstraint("provider", "reference", name="uq_payment_charges_provider_reference"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    provider: Mapped[str] = mapped_column(String(20))
    reference: Mapped[str] = mapped_column(String(255))
    owner_id: Mapped[str | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    amount_minor: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String(3))
    brand: Mapped[str] = mapped_column(String(20))
    last4: Mapped[str] = mapped_column(String(4))
    exp_month: Mapped[int] = mapped_column(Integer)
    exp_year: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(30))
    final_status: Mapped[str | None] = mapped_column(String(30))
    resolves_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class PaymentRefund(Base):
    """A refund of (part of) a charge as the provider recorded it. `reference` is the caller's
    idempotency reference: refunding again with it returns this row and moves no money."""

    __tablename__ = "payment_refunds"
    __table_args__ = (UniqueConstraint("provider", "reference", name="uq_payment_refunds_provider_reference"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    provider: Mapped[str] = mapped_column(String(20))
    reference: Mapped[str] = mapped_column(String(255))
    charge_id: Mapped[str] = mapped_column(ForeignKey("payment_charges.id", ondelete="CASCADE"), index=True)
    amount_minor: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String(3))
    created: Mapped[datetime] = mapped_column(UTCDateTime)
