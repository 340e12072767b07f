"""Card number checks every provider shares: Luhn, brand by prefix, expiry."""

import re
from datetime import datetime

from .provider import CardDetails, CardSummary, InvalidCard

_DIGITS = re.compile(r"^[0-9]{12,19}$")
_CVC = re.compile(r"^[0-9]{3,4}$")


def luhn_valid(number: str) -> bool:
    if not number.isdigit():
        return False
    total = 0
    for position, char in enumerate(reversed(number)):
        digit = int(char)
        if position % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def brand_of(number: str) -> str:
    """The card network from the number's prefix (IIN ranges), `unknown` when none matches."""
    if number.startswith("4"):
        return "visa"
    two, four, six = int(number[:2]), int(number[:4]), int(number[:6])
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return "mastercard"
    if two in (34, 37):
        return "amex"
    if number.startswith(("6011", "65")) or 644 <= int(number[:3]) <= 649 or 622126 <= six <= 622925:
        return "discover"
    return "unknown"


def is_expired(exp_month: int, exp_year: int, now: datetime) -> bool:
    """A card is valid through the last day of its expiry month."""
    return (exp_year, exp_month) < (now.year, now.month)


def check(card: CardDetails, now: datetime) -> CardSummary:
    """The summary of valid card details; raises InvalidCard (400 `invalid_card`) otherwise."""
    if not _DIGITS.match(card.number) or not luhn_valid(card.number):
        raise InvalidCard("The card number is not valid")
    if not 1 <= card.exp_month <= 12:
        raise InvalidCard("The expiry month is not valid")
    if is_expired(card.exp_month, card.exp_year, now):
        raise InvalidCard("The card has expired")
    if not _CVC.match(card.cvc):
        raise InvalidCard("The security code is not valid")
    holder = card.holder.strip() if card.holder else None
    return CardSummary(
        brand=brand_of(card.number),
        last4=card.number[-4:],
        exp_month=card.exp_month,
        exp_year=card.exp_year,
        holder=holder or None,
    )
