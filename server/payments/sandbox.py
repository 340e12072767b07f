"""The built-in provider: a card processor in test mode, kept in the database so every server
process sees the same tokens and charges.

Test cards (any future expiry, any CVC; the same numbers as the tokenize operation documents):

| number           | outcome when charged                                           |
|------------------|----------------------------------------------------------------|
| 4242424242424242 | succeeded                                                      |
| 5555555555554444 | succeeded (mastercard)                                         |
| 378282246310005  | succeeded (amex)                                               |
| 6011111111111117 | succeeded (discover)                                           |
| 4000000000000002 | declined (`card_declined`)                                     |
| 4000000000009995 | insufficient funds (`insufficient_funds`)                      |
| 4000000000000069 | expired card (`card_expired`) although the expiry is in future |
| 4000000000003220 | requires action, then succeeded after `action_delay`           |
| 4000000000003063 | requires action, then declined after `action_delay`            |

Any other number that passes the checks succeeds. Only the outcome class of the number is kept
with a token, never its digits. Time is `server.clock`, so tests move it instead of sleeping.

Refunds are rows of their own (`payment_refunds`), each under its caller's reference: a reference
refunds once, and a charge's refunds never add up to more than it took, however many processes
refund it at once.
"""

import hashlib
import secrets
from datetime import timedelta

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database, referenced, rows_changed
from ..models import CardHandle, PaymentCharge, PaymentRefund
from . import cards
from .provider import (
    CardDetails,
    CardSummary,
    CardToken,
    Charge,
    ChargeStatus,
    InvalidCardToken,
    Refund,
    RefundRefused,
    StoredCardRef,
)

TOKEN_LIFETIME = timedelta(minutes=15)

# Outcome classes: (status when charged, final status when it required action).
_OUTCOMES = {
    "success": (ChargeStatus.SUCCEEDED, None),
    "declined": (ChargeStatus.DECLINED, None),
    "insufficient_funds": (ChargeStatus.INSUFFICIENT_FUNDS, None),
    "expired_card": (ChargeStatus.EXPIRED_CARD, None),
    "action_then_success": (ChargeStatus.REQUIRES_ACTION, ChargeStatus.SUCCEEDED),
    "action_then_decline": (ChargeStatus.REQUIRES_ACTION, ChargeStatus.DECLINED),
}

TEST_CARDS = {
    "4242424242424242": "success",
    "5555555555554444": "success",
    "378282246310005": "success",
    "6011111111111117": "success",
    "4000000000000002": "declined",
    "4000000000009995": "insufficient_funds",
    "4000000000000069": "expired_card",
    "4000000000003220": "action_then_success",
    "4000000000003063": "action_then_decline",
}


def _hash(handle: str) -> str:
    return hashlib.sha256(handle.encode()).hexdigest()


def _summary(row: CardHandle | PaymentCharge, holder: str | None = None) -> CardSummary:
    return CardSummary(brand=row.brand, last4=row.last4, exp_month=row.exp_month, exp_year=row.exp_year, holder=holder)


def _charge(row: PaymentCharge) -> Charge:
    return Charge(
        id=row.id,
        status=ChargeStatus(row.status),
        amount_minor=row.amount_minor,
        currency=row.currency,
        card=_summary(row),
        resolves_at=row.resolves_at,
    )


def _refund(row: PaymentRefund) -> Refund:
    return Refund(
        id=row.id,
        charge_id=row.charge_id,
        amount_minor=row.amount_minor,
        currency=row.currency,
        reference=row.reference,
        created=row.created,
    )


class SandboxProvider:
    name = "sandbox"

    def __init__(self, database: Database, *, action_delay: timedelta = timedelta(seconds=5)):
        self.database = database
        self.action_delay = action_delay

    async def tokenize(self, card: CardDetails, *, owner_id: str) -> CardToken:
        now = clock.now()
        summary = cards.check(card, now)
        token = f"tok_{self.name}_{secrets.token_urlsafe(24)}"
        expires_at = now + TOKEN_LIFETIME
        async with self.database.write_session() as db:
            db.add(
                CardHandle(
                    handle_hash=_hash(token),
                    kind="token",
                    provider=self.name,
                    owner_id=owner_id,
                    brand=summary.brand,
                    last4=summary.last4,
                    exp_month=summary.exp_month,
                    exp_year=summary.exp_year,
                    holder=summary.holder,
                    test_outcome=TEST_CARDS.get(card.number, "success"),
                    created=now,
                    expires_at=expires_at,
                )
            )
            await db.commit()
        return CardToken(token=token, card=summary, expires_at=expires_at)

    async def store_card(self, token: str, *, owner_id: str) -> StoredCardRef:
        reference = f"card_{self.name}_{secrets.token_urlsafe(24)}"
        async with self.database.write_session() as db:
            row = await self._spend(db, token, owner_id)
            db.add(
                CardHandle(
                    handle_hash=_hash(reference),
                    kind="card",
                    provider=self.name,
                    owner_id=owner_id,
                    brand=row.brand,
                    last4=row.last4,
                    exp_month=row.exp_month,
                    exp_year=row.exp_year,
                    holder=row.holder,
                    test_outcome=row.test_outcome,
                    created=clock.now(),
                    expires_at=None,
                )
            )
            await db.commit()
        return StoredCardRef(reference=reference, card=_summary(row, row.holder))

    async def charge(self, source: str, *, owner_id: str, amount_minor: int, currency: str, reference: str) -> Charge:
        if not isinstance(amount_minor, int) or amount_minor <= 0:
            raise ValueError("amount_minor must be a positive integer")
        if len(currency) != 3 or not currency.isalpha():
            raise ValueError("currency must be an ISO 4217 code")
        existing = await self._by_reference(reference)
        if existing is not None:
            return existing
        try:
            async with self.database.write_session() as db:
                earlier = (
                    await db.execute(
                        select(PaymentCharge).where(
                            PaymentCharge.provider == self.name, PaymentCharge.reference == reference
                        )
                    )
                ).scalar_one_or_none()
                if earlier is not None:
                    return _charge(earlier)
                card = await self._spend(db, source, owner_id)
                row = self._new_charge(card, owner_id, amount_minor, currency.upper(), reference)
                db.add(row)
                await db.commit()
                return _charge(row)
        except (IntegrityError, InvalidCardToken):
            # A concurrent charge with the same reference won (it spent the token or inserted
            # first): answer with its charge, as a processor does for a repeated idempotency key.
            existing = await self._by_reference(reference)
            if existing is not None:
                return existing
            raise

    async def charge_status(self, charge_id: str) -> Charge:
        now = clock.now()
        async with self.database.session() as db:
            row = await db.get(PaymentCharge, charge_id)
            if row is None or row.provider != self.name:
                raise LookupError(f"no charge {charge_id}")
            if row.status != ChargeStatus.REQUIRES_ACTION or row.resolves_at is None or now < row.resolves_at:
                return _charge(row)
        async with self.database.write_session() as db:
            # Conditional, so concurrent readers decide the charge once and agree on it.
            await db.execute(
                update(PaymentCharge)
                .where(PaymentCharge.id == charge_id, PaymentCharge.status == ChargeStatus.REQUIRES_ACTION)
                .values(status=PaymentCharge.final_status, updated=now)
            )
            await db.commit()
            decided = await referenced(db, PaymentCharge, charge_id)
            await db.refresh(decided)
            return _charge(decided)

    async def refund(self, charge_id: str, *, amount_minor: int, reference: str) -> Refund:
        if not isinstance(amount_minor, int) or amount_minor <= 0:
            raise ValueError("amount_minor must be a positive integer")
        existing = await self._refund_by_reference(reference)
        if existing is not None:
            return existing
        try:
            async with self.database.write_session() as db:
                # The charge's row lock (SQLite: the write lock) queues the refunds of one charge,
                # so each sees what the others committed before it counts the total.
                charge = await db.get(PaymentCharge, charge_id, with_for_update=True)
                if charge is None or charge.provider != self.name:
                    raise LookupError(f"no charge {charge_id}")
                earlier = await self._refund_row(db, reference)
                if earlier is not None:
                    return _refund(earlier)
                if charge.status != ChargeStatus.SUCCEEDED:
                    raise RefundRefused(f"charge {charge_id} did not succeed ({charge.status})")
                refunded = await db.scalar(
                    select(func.coalesce(func.sum(PaymentRefund.amount_minor), 0)).where(
                        PaymentRefund.charge_id == charge_id
                    )
                )
                if (refunded or 0) + amount_minor > charge.amount_minor:
                    raise RefundRefused(
                        f"charge {charge_id} took {charge.amount_minor}; {refunded} is refunded already"
                    )
                row = PaymentRefund(
                    id=f"re_{self.name}_{secrets.token_hex(12)}",
                    provider=self.name,
                    reference=reference,
                    charge_id=charge_id,
                    amount_minor=amount_minor,
                    currency=charge.currency,
                    created=clock.now(),
                )
                db.add(row)
                await db.commit()
                return _refund(row)
        except IntegrityError:
            # The same reference refunded another charge at the same moment and inserted first:
            # its refund is the answer, as a processor answers a repeated idempotency key.
            existing = await self._refund_by_reference(reference)
            if existing is not None:
                return existing
            raise

    async def _refund_by_reference(self, reference: str) -> Refund | None:
        async with self.database.session() as db:
            row = await self._refund_row(db, reference)
            return _refund(row) if row is not None else None

    async def _refund_row(self, db: AsyncSession, reference: str) -> PaymentRefund | None:
        return (
            await db.execute(
                select(PaymentRefund).where(PaymentRefund.provider == self.name, PaymentRefund.reference == reference)
            )
        ).scalar_one_or_none()

    async def _by_reference(self, reference: str) -> Charge | None:
        async with self.database.session() as db:
            row = (
                await db.execute(
                    select(PaymentCharge).where(
                        PaymentCharge.provider == self.name, PaymentCharge.reference == reference
                    )
                )
            ).scalar_one_or_none()
            return _charge(row) if row is not None else None

    async def _spend(self, db: AsyncSession, source: str, owner_id: str) -> CardHandle:
        """The card behind a token (used up here, atomically) or a stored-card reference."""
        now = clock.now()
        row = await db.get(CardHandle, _hash(source))
        if row is None or row.provider != self.name or row.owner_id != owner_id:
            raise InvalidCardToken("The card token is not valid")
        if row.kind == "token":
            spent = await db.execute(
                update(CardHandle)
                .where(
                    CardHandle.handle_hash == row.handle_hash, CardHandle.used_at.is_(None), CardHandle.expires_at > now
                )
                .values(used_at=now)
            )
            if rows_changed(spent) != 1:
                raise InvalidCardToken("The card token is no longer valid")
        return row

    def _new_charge(
        self, card: CardHandle, owner_id: str, amount_minor: int, currency: str, reference: str
    ) -> PaymentCharge:
        now = clock.now()
        status, final = _OUTCOMES[card.test_outcome or "success"]
        if status is ChargeStatus.SUCCEEDED and cards.is_expired(card.exp_month, card.exp_year, now):
            status = ChargeStatus.EXPIRED_CARD  # a stored card that has run out since it was saved
        return PaymentCharge(
            id=f"ch_{self.name}_{secrets.token_hex(12)}",
            provider=self.name,
            reference=reference,
            owner_id=owner_id,
            amount_minor=amount_minor,
            currency=currency,
            brand=card.brand,
            last4=card.last4,
            exp_month=card.exp_month,
            exp_year=card.exp_year,
            status=status.value,
            final_status=final.value if final else None,
            resolves_at=now + self.action_delay if final else None,
            created=now,
            updated=now,
        )
