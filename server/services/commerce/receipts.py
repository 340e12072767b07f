"""Mail about money: a receipt for every purchase, subscription and renewal that was paid, and a
notice when a renewal failed.

Each is written to the outbox (server.services.mail) in the transaction that records the outcome,
after its conditional update applied, so a mail exists exactly when the outcome was committed and
only the settler that applied it writes one. Nothing is written for an erased account or an
account without an address, nor for a free product (an access code, a zero price). Mail that SMTP
should send (`queued`) goes out after the commit: `deliver()` with the ids these functions return.
"""

from datetime import datetime
from decimal import Decimal

from sqlalchemy.ext.asyncio import AsyncSession

from ...models import Contract, OutboxMail, Product, Purchase, User
from ...settings import Settings
from .. import mail


def amount(price_minor: int, currency: str | None) -> str:
    """ "14.99 EUR" (minor units are cents); "N/A" stands for a missing currency."""
    return f"{Decimal(price_minor).scaleb(-2):.2f} {currency or 'N/A'}"


def _when(moment: datetime | None) -> str:
    return moment.strftime("%d %B %Y, %H:%M UTC") if moment is not None else "-"


def _card(record: Purchase | Contract) -> str | None:
    if not record.card_last4:
        return None
    return f"{(record.card_brand or 'card').capitalize()} ending in {record.card_last4}"


async def _address(db: AsyncSession, user_id: str | None) -> str | None:
    if user_id is None:
        return None
    user = await db.get(User, user_id)
    return user.email if user is not None else None


async def purchase_paid(
    db: AsyncSession, settings: Settings, purchase: Purchase, product: Product
) -> OutboxMail | None:
    """The receipt of a paid pay-per-view purchase; the caller commits."""
    to = await _address(db, purchase.user_id)
    if to is None or purchase.price_minor <= 0:
        return None
    message = mail.purchase_receipt_message(
        title=product.title,
        amount=amount(purchase.price_minor, purchase.currency),
        card=_card(purchase),
        reference=purchase.id,
        access=f"Watch until: {_when(purchase.valid_until)}",
        link=f"{settings.base_url}/account/ppv/{purchase.id}",
    )
    return mail.write(db, settings, to=to, kind=mail.MailKind.PURCHASE_RECEIPT, message=message)


async def contract_paid(
    db: AsyncSession,
    settings: Settings,
    contract: Contract,
    product: Product,
    *,
    period_end: datetime | None,
    renewal: bool,
) -> OutboxMail | None:
    """The receipt of a subscription's first payment or of a renewal; the caller commits."""
    to = await _address(db, contract.user_id)
    if to is None or contract.price_minor <= 0:
        return None
    renews = contract.renewable and contract.auto_renew and contract.canceled_at is None
    access = f"{'Renews' if renews else 'Runs until'}: {_when(period_end)}"
    message = mail.purchase_receipt_message(
        title=f"{product.title} (renewal)" if renewal else product.title,
        amount=amount(contract.price_minor, contract.currency),
        card=_card(contract),
        reference=f"{contract.id}-{contract.renewals + 1}" if renewal else contract.id,
        access=access,
        link=f"{settings.base_url}/account/subscription/{contract.id}",
    )
    return mail.write(db, settings, to=to, kind=mail.MailKind.PURCHASE_RECEIPT, message=message)


async def renewal_failed(
    db: AsyncSession, settings: Settings, contract: Contract, product: Product | None, *, grace_until: datetime | None
) -> OutboxMail | None:
    """Tells the viewer a renewal was refused (or could not be charged); the caller commits."""
    to = await _address(db, contract.user_id)
    if to is None:
        return None
    message = mail.renewal_failed_message(
        title=product.title if product is not None else "your subscription",
        amount=amount(contract.price_minor, contract.currency),
        grace_until=_when(grace_until),
        link=f"{settings.base_url}/account/billing",
    )
    return mail.write(db, settings, to=to, kind=mail.MailKind.RENEWAL_FAILED, message=message)
