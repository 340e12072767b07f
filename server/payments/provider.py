"""The provider interface: what the rest of the server knows about taking card payments.

Card details go to `tokenize` only and come back as a single-use token plus what may be shown
about the card. A token pays once (`charge`) or becomes a reusable stored-card reference
(`store_card`, for renewals). A charge answers at once with its outcome, except
`requires_action`, which stays processing until the provider decides; `charge_status` tells the
final outcome. Failures of the card details are errors (400 `invalid_card`, `invalid_card_token`);
refused charges are outcomes, turned into the 402 errors of the contract by `Charge.failure()`.
A succeeded charge may be refunded (`refund`), in parts, never beyond its amount in all.
"""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable

from ..errors import ApiError


class ChargeStatus(StrEnum):
    SUCCEEDED = "succeeded"
    DECLINED = "declined"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    EXPIRED_CARD = "expired_card"
    REQUIRES_ACTION = "requires_action"


# The contract's 402 codes (openapi components/responses/PaymentFailed).
_FAILURES = {
    ChargeStatus.DECLINED: ("card_declined", "Your card was declined"),
    ChargeStatus.INSUFFICIENT_FUNDS: ("insufficient_funds", "Your card has insufficient funds"),
    ChargeStatus.EXPIRED_CARD: ("card_expired", "Your card has expired"),
}


class InvalidCard(ApiError):
    """The card details cannot be a card: Luhn check, expiry in the past, CVC."""

    status = 400
    code = "invalid_card"


class InvalidCardToken(ApiError):
    """The token or stored-card reference is unknown, used, expired or someone else's."""

    status = 400
    code = "invalid_card_token"


class PaymentFailed(ApiError):
    """The charge was refused; nothing was charged."""

    status = 402
    code = "card_declined"


@dataclass(frozen=True)
class CardDetails:
    """What the viewer typed; lives only for the tokenize call."""

    number: str
    exp_month: int
    exp_year: int
    cvc: str
    holder: str | None = None

    def __repr__(self) -> str:  # never let the number or CVC reach a log line
        return f"CardDetails(number='…{self.number[-4:]}', exp_month={self.exp_month}, exp_year={self.exp_year})"


@dataclass(frozen=True)
class CardSummary:
    """What may be stored and shown: the contract's CardSummary (+ holder of StoredCard)."""

    brand: str  # visa | mastercard | amex | discover | unknown
    last4: str
    exp_month: int
    exp_year: int
    holder: str | None = None

    def as_contract(self) -> dict:
        return {"brand": self.brand, "last4": self.last4, "expMonth": self.exp_month, "expYear": self.exp_year}


@dataclass(frozen=True)
class CardToken:
    token: str  # single use
    card: CardSummary
    expires_at: datetime


@dataclass(frozen=True)
class StoredCardRef:
    reference: str  # reusable; what the server keeps for a viewer's stored card
    card: CardSummary


@dataclass(frozen=True)
class Charge:
    id: str
    status: ChargeStatus
    amount_minor: int
    currency: str
    card: CardSummary
    resolves_at: datetime | None = None  # when a requires_action charge is decided

    @property
    def succeeded(self) -> bool:
        return self.status is ChargeStatus.SUCCEEDED

    @property
    def pending(self) -> bool:
        return self.status is ChargeStatus.REQUIRES_ACTION

    def failure(self) -> PaymentFailed | None:
        """The 402 error for a refused charge; None when it succeeded or is still pending."""
        if self.status not in _FAILURES:
            return None
        code, message = _FAILURES[self.status]
        return PaymentFailed(message, code=code)


@dataclass(frozen=True)
class Refund:
    id: str
    charge_id: str
    amount_minor: int
    currency: str
    reference: str
    created: datetime


class RefundRefused(ValueError):
    """The charge cannot be refunded this much: it did not succeed, or the refunds would add up
    to more than it took."""


@runtime_checkable
class PaymentProvider(Protocol):
    """A card processor. Implementations keep whatever they need shared across processes (the
    sandbox uses the database); none keeps a card number."""

    name: str

    async def tokenize(self, card: CardDetails, *, owner_id: str) -> CardToken:
        """Check the details and return a single-use token for `owner_id`. Raises InvalidCard."""
        ...

    async def store_card(self, token: str, *, owner_id: str) -> StoredCardRef:
        """Spend `token` on a reusable reference for later charges. Raises InvalidCardToken."""
        ...

    async def charge(self, source: str, *, owner_id: str, amount_minor: int, currency: str, reference: str) -> Charge:
        """Charge a token or stored-card reference. `reference` is the caller's idempotency
        reference: charging again with it returns the first charge and moves no money.
        Raises InvalidCardToken when `source` cannot pay."""
        ...

    async def charge_status(self, charge_id: str) -> Charge:
        """The charge as it stands now (a requires_action charge becomes final when decided).
        Raises LookupError for an unknown id."""
        ...

    async def refund(self, charge_id: str, *, amount_minor: int, reference: str) -> Refund:
        """Give back `amount_minor` of a succeeded charge. `reference` is the caller's idempotency
        reference: refunding again with it returns the first refund and moves no money. Raises
        LookupError for an unknown charge, RefundRefused when the charge did not succeed or the
        refunds of it would add up to more than its amount."""
        ...
