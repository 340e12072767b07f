"""Card payments behind one interface (provider.PaymentProvider).

Callers get the configured provider from `provider_for(settings, database)` and never learn
which one runs; `idempotency.idempotent` wraps every call that moves money. The only built-in
provider is the sandbox (sandbox.SandboxProvider). A new provider implements PaymentProvider and
gets a name in `provider_for` and in Settings.payment_provider.
"""

from datetime import timedelta

from ..db import Database
from ..settings import Settings
from .provider import (
    CardDetails,
    CardSummary,
    CardToken,
    Charge,
    ChargeStatus,
    InvalidCard,
    InvalidCardToken,
    PaymentFailed,
    PaymentProvider,
    Refund,
    RefundRefused,
    StoredCardRef,
)
from .sandbox import SandboxProvider


def provider_for(settings: Settings, database: Database) -> PaymentProvider:
    """The provider the settings name. Providers keep their state in `database` (or at the
    processor), never in this process, so any server process can finish another's payment."""
    if settings.payment_provider == "sandbox":
        return SandboxProvider(database, action_delay=timedelta(seconds=settings.payment_sandbox_action_seconds))
    raise ValueError(f"unknown payment provider {settings.payment_provider!r}")


__all__ = [
    "CardDetails",
    "CardSummary",
    "CardToken",
    "Charge",
    "ChargeStatus",
    "InvalidCard",
    "InvalidCardToken",
    "PaymentFailed",
    "PaymentProvider",
    "Refund",
    "RefundRefused",
    "SandboxProvider",
    "StoredCardRef",
    "provider_for",
]
